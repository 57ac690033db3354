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
}

// Signal bundles tools with the processor that keeps the model informed
// about their state (Mastra's signal providers, such as the task list's
// TaskSignalProvider): Config.Signals adds both to an agent.
type Signal interface {
	Tools() tools.Set
	Processors() []StepProcessor
}

// process runs the agent's processors on a step's messages.
func (r *run) process(step int, messages []model.Message) ([]model.Message, error) {
	if len(r.agent.processors) == 0 {
		return messages, nil
	}
	in := &StepInput{
		StepNumber: step, Messages: append([]model.Message(nil), messages...), RequestContext: r.opts.requestContext,
		ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID,
	}
	for _, p := range r.agent.processors {
		if err := p.ProcessStep(r.ctx, in); err != nil {
			return nil, fmt.Errorf("processor %s: %w", p.ID(), err)
		}
	}
	return in.Messages, nil
}
