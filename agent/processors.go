package agent

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// StepProcessor runs before each model call of a run and may change what
// the model is given (Mastra's input processors, processInputStep): it can
// add or rewrite messages, system ones included. An error fails the run.
type StepProcessor interface {
	// ID names the processor (Mastra's processor id).
	ID() string
	ProcessStep(ctx context.Context, s *StepInput) error
}

// StepInput is what a StepProcessor sees and edits.
type StepInput struct {
	// StepNumber counts the run's model calls from 0.
	StepNumber int
	// Messages are what the model will be given: the system message (if
	// any) first, then the conversation. A processor may replace the
	// slice; the run's own history is not changed by it.
	Messages []model.Message
	// RequestContext is the run's.
	RequestContext *tools.RequestContext
	// ThreadID and ResourceID are the run's memory (WithMemory), or "".
	ThreadID, ResourceID string
	// ReadOnly is set when the run reads its memory without writing it
	// (MemoryOptions.ReadOnly, WithMemoryReadOnly): a processor that
	// keeps state in memory must not write it then.
	ReadOnly bool
	// Tools are the tools offered at this step, in the order the model is
	// given them (the run's active tools, by name, before any processor).
	// A processor may replace the slice (add, remove, reorder): the agent
	// offers exactly these, names sanitised as Config.Tools keys are, and
	// runs the step's calls against them, approval settings included.
	Tools []StepTool

	// record is the run's engine's Record, nil on an engine that does
	// not replay.
	record func(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error)
}

// Record returns what read returns, through the run's engine. On an
// engine that does not replay it just runs read. On a ReplayingEngine
// (Temporal) the first execution runs read and the engine keeps its
// result, or its error's text; when the run's driver is replayed,
// Record returns the kept result without running read.
//
// A processor uses it for what it must not repeat or must see as the
// first execution saw it: a model call, a write to storage, a read of
// state that may since have changed. Everything else a processor does
// runs again on replay and must decide the same way from the same input
// and the same recorded results. Calls of Record must therefore come in
// the same order, and the same number, on replay: decide whether to call
// it from the step's input or from earlier recorded results only. read
// runs in the driver and on Temporal holds up the run's workflow while
// it runs. Work read starts in the background (a goroutine) is not
// started again on replay; the run must see its outcome through a later
// Record, never by waiting for it outside one.
func (s *StepInput) Record(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error) {
	if s.record == nil {
		return read(ctx)
	}
	return s.record(ctx, read)
}

// StepTool is a tool under its model-facing name.
type StepTool struct {
	Name string
	Tool *tools.Tool
}

// ToolResolver is implemented by step processors whose tools change from
// step to step. A resumed run (a call that waited for approval, or was
// suspended) does not call the model for the step it resumes, so it does
// not run ProcessStep; it asks ResolveTools for that step's tools instead
// (s.Tools, set as ProcessStep would set them; s.Messages are the step's
// and changes to them are ignored).
type ToolResolver interface {
	ResolveTools(ctx context.Context, s *StepInput) error
}

// Signal bundles tools with the processor that keeps the model informed
// about their state (Mastra's signal providers, such as the task list's
// TaskSignalProvider): Config.Signals adds both to an agent.
type Signal interface {
	Tools() tools.Set
	Processors() []StepProcessor
}

// process runs the agent's processors on a step's messages and offered
// tools.
func (r *run) process(step int, messages []model.Message) ([]model.Message, error) {
	if len(r.agent.processors) == 0 {
		return messages, nil
	}
	in := r.stepInput(step, messages)
	for _, p := range r.agent.processors {
		if err := p.ProcessStep(r.ctx, in); err != nil {
			return nil, fmt.Errorf("processor %s: %w", p.ID(), err)
		}
	}
	return in.Messages, r.kit.offerList(in.Tools)
}

// resolveTools asks the processors that choose tools per step for the
// tools of the step a resumed run finishes.
func (r *run) resolveTools() error {
	in := r.stepInput(r.state.Step, r.conversation())
	asked := false
	for _, p := range r.agent.processors {
		if tr, ok := p.(ToolResolver); ok {
			asked = true
			if err := tr.ResolveTools(r.ctx, in); err != nil {
				return fmt.Errorf("processor %s: %w", p.ID(), err)
			}
		}
	}
	if !asked {
		return nil
	}
	return r.kit.offerList(in.Tools)
}

func (r *run) stepInput(step int, messages []model.Message) *StepInput {
	in := &StepInput{
		StepNumber: step, Messages: append([]model.Message(nil), messages...), RequestContext: r.opts.requestContext,
		ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID, ReadOnly: r.agent.memoryReadOnly(r.opts),
	}
	if re, ok := r.engine.(ReplayingEngine); ok {
		in.record = re.Record
	}
	for _, name := range r.kit.order {
		in.Tools = append(in.Tools, StepTool{Name: name, Tool: r.kit.active[name]})
	}
	return in
}
