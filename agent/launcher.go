package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
)

// A Launcher runs the agent's runs on other processes — the workers of
// a durable execution engine — instead of in this one. With a launcher
// (UseLauncher), Stream and Generate hand the run over as a
// LaunchRequest and read its chunks back from its event log in the
// agent's storage; ResumeStream, ApproveToolCall and DeclineToolCall (and
// their Generate forms) hand over the answer; AbortRun hands over the
// abort. Observe reads the log as for any run.
type Launcher interface {
	// Launch starts the run and returns once it has been accepted.
	Launch(ctx context.Context, req LaunchRequest) error
	// Answer hands a person's answer to a waiting call of the run.
	Answer(ctx context.Context, runID string, a Answer) error
	// Abort aborts the run and reports whether it was running.
	Abort(ctx context.Context, runID string) (bool, error)
}

// LaunchRequest is a run as a Launcher takes it: what of its options
// crosses to another process.
type LaunchRequest struct {
	AgentID  string
	RunID    string
	Messages []model.Message
	// ThreadID and ResourceID are its memory (WithMemory).
	ThreadID, ResourceID string
	MaxSteps             int
	Instructions         *string
	RequestContext       map[string]any
	// Output, when set, asks for a structured answer.
	Output *LaunchedOutput
	// Context are messages the run sees before its memory and input
	// (WithContextMessages).
	Context []model.Message `json:",omitempty"`
}

// LaunchedOutput is a structured output (WithStructuredOutput) as it
// crosses to another process: its schema as JSON Schema. One that names
// a structuring Model does not cross.
type LaunchedOutput struct {
	Schema              json.RawMessage
	Instructions        string          `json:",omitempty"`
	JSONPromptInjection PromptInjection `json:",omitempty"`
	ErrorStrategy       ErrorStrategy   `json:",omitempty"`
	FallbackValue       json.RawMessage `json:",omitempty"`
}

// LaunchedOutputOf is so as it crosses to another process, or an error
// saying why it cannot.
func LaunchedOutputOf(so StructuredOutput) (*LaunchedOutput, error) {
	if so.Model != nil {
		return nil, errors.New("a structured output with its own Model")
	}
	raw, err := json.Marshal(so.Schema.JSONSchema())
	if err != nil {
		return nil, err
	}
	lo := &LaunchedOutput{Schema: raw, Instructions: so.Instructions, JSONPromptInjection: so.JSONPromptInjection, ErrorStrategy: so.ErrorStrategy}
	if so.FallbackValue != nil {
		if lo.FallbackValue, err = json.Marshal(so.FallbackValue); err != nil {
			return nil, err
		}
	}
	return lo, nil
}

// StructuredOutput is the structured output lo describes.
func (lo *LaunchedOutput) StructuredOutput() (StructuredOutput, error) {
	s, err := schema.FromJSON(lo.Schema)
	if err != nil {
		return StructuredOutput{}, fmt.Errorf("structured output: %w", err)
	}
	so := StructuredOutput{Schema: s, Instructions: lo.Instructions, JSONPromptInjection: lo.JSONPromptInjection, ErrorStrategy: lo.ErrorStrategy}
	if len(lo.FallbackValue) > 0 {
		if err := json.Unmarshal(lo.FallbackValue, &so.FallbackValue); err != nil {
			return StructuredOutput{}, fmt.Errorf("structured output: fallback value: %w", err)
		}
	}
	return so, nil
}

// UseLauncher has l run the agent's runs from now on (nil: this process
// runs them). The agent needs a run event log other processes write to
// (Config.Storage or Config.Events).
func (a *Agent) UseLauncher(l Launcher) error {
	if l != nil && !a.log.shared() {
		return fmt.Errorf("agent %s: launched runs need Config.Storage or Config.Events: a run event log their workers write to", a.cfg.ID)
	}
	a.launcher.Store(&launcherBox{l})
	return nil
}

// launcherFor returns the launcher that runs a run of opts: none when
// the run names its engine (WithEngine: the run of a launched run, on
// its worker).
func (a *Agent) launcherFor(opts []Option) Launcher {
	l := a.launcher.get()
	if l == nil || a.options(opts).engine != nil {
		return nil
	}
	return l
}

// launcherBox holds an agent's Launcher in an atomic.Pointer.
type launcherBox struct{ l Launcher }

type launcherSlot struct{ p atomic.Pointer[launcherBox] }

func (s *launcherSlot) Store(b *launcherBox) { s.p.Store(b) }

// get returns the launcher, or nil.
func (s *launcherSlot) get() Launcher {
	if b := s.p.Load(); b != nil {
		return b.l
	}
	return nil
}

// launchRequest is the request of a run of options o on msgs, or an
// error naming the option that cannot cross to another process.
func (a *Agent) launchRequest(msgs []model.Message, o runOptions) (LaunchRequest, error) {
	var refused string
	switch {
	case len(o.clientTools) > 0:
		refused = "client tools"
	case len(o.toolsets) > 0:
		refused = "toolsets"
	case o.prepareStep != nil || o.onStepFinish != nil || o.onFinish != nil || o.hooks.BeforeToolCall != nil || o.hooks.AfterToolCall != nil || len(o.stopWhen) > 0 || o.approvalFunc != nil:
		refused = "callbacks (hooks, prepareStep, onStepFinish, onFinish, stopWhen, approval functions)"
	case o.untilIdle > 0:
		refused = "WithUntilIdle"
	}
	if refused != "" {
		return LaunchRequest{}, fmt.Errorf("agent %s: a launched run cannot take %s: they do not cross to its worker", a.cfg.ID, refused)
	}
	req := LaunchRequest{AgentID: a.cfg.ID, RunID: o.runID, Messages: msgs, ThreadID: o.threadID, ResourceID: o.resourceID,
		Instructions: o.instructions, RequestContext: o.requestContext.Serialisable(), Context: o.context}
	if o.structured != nil {
		lo, err := LaunchedOutputOf(*o.structured)
		if err != nil {
			return LaunchRequest{}, fmt.Errorf("agent %s: a launched run cannot take %v", a.cfg.ID, err)
		}
		req.Output = lo
	}
	if o.maxSteps != a.cfg.MaxSteps {
		req.MaxSteps = o.maxSteps
	}
	if req.RunID == "" {
		req.RunID = uuid.New()
	}
	return req, nil
}

// launch hands the run over to l and yields its chunks from its log.
func (a *Agent) launch(ctx context.Context, l Launcher, input any, opts []Option) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		msgs, err := inputMessages(input)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		req, err := a.launchRequest(msgs, a.options(opts))
		if err == nil {
			err = l.Launch(ctx, req)
		}
		if err == nil {
			err = a.recordLaunchedRun(ctx, req)
		}
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		a.followLaunched(ctx, req.RunID, "", yield)
	}
}

// answerLaunched hands the answer to the launched run's waiting call and
// yields the chunks that follow it.
func (a *Agent) answerLaunched(ctx context.Context, l Launcher, runID string, ans Answer) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		if ans.ToolCallID == "" {
			id, err := a.lastWaitingCall(ctx, runID)
			if err != nil {
				yield(stream.Chunk{}, err)
				return
			}
			ans.ToolCallID = id
		}
		if err := l.Answer(ctx, runID, ans); err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		a.followLaunched(ctx, runID, ans.ToolCallID, yield)
	}
}

// followLaunched yields the chunks of the launched run's log to its end,
// or to a call that waits for a person (the run's workers wait for the
// answer; the stream ends there, as a suspended run's does). after, when
// set, skips the log up to the waiting chunk of that call: the answer's
// stream starts after it.
func (a *Agent) followLaunched(ctx context.Context, runID, after string, yield func(stream.Chunk, error) bool) {
	if err := a.waitForLog(ctx, runID); err != nil {
		yield(stream.Chunk{}, err)
		return
	}
	skipping := after != ""
	for ev, err := range a.Observe(ctx, runID, 0) {
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		c := ev.Chunk
		if skipping {
			skipping = !(isWaitingChunk(c) && waitingCallID(c) == after)
			continue
		}
		if ev.Type == RunEventIterationComplete {
			continue
		}
		if !yield(c, nil) || isWaitingChunk(c) {
			return
		}
	}
}

// lastWaitingCall is the id of the last call the launched run's log
// says waits.
func (a *Agent) lastWaitingCall(ctx context.Context, runID string) (string, error) {
	events, err := a.log.read(ctx, runID, 0, 0)
	if err != nil {
		return "", err
	}
	id := ""
	for _, ev := range events {
		if isWaitingChunk(ev.Chunk) {
			id = waitingCallID(ev.Chunk)
		}
	}
	if id == "" {
		return "", fmt.Errorf("agent %s: run %s has no call that waits", a.cfg.ID, runID)
	}
	return id, nil
}

// launchedRunState is the thread state type that names the thread's
// newest launched run of the agent (for AbortThread), with its resource.
const launchedRunState = "gomastra-launched-run:"

type launchedRun struct {
	RunID      string `json:"runId"`
	ResourceID string `json:"resourceId,omitempty"`
}

// recordLaunchedRun records req's run as its thread's newest launched run.
func (a *Agent) recordLaunchedRun(ctx context.Context, req LaunchRequest) error {
	if req.ThreadID == "" || a.cfg.Storage == nil {
		return nil
	}
	raw, _ := json.Marshal(launchedRun{RunID: req.RunID, ResourceID: req.ResourceID})
	return a.cfg.Storage.SetThreadState(ctx, req.ThreadID, launchedRunState+a.cfg.ID, raw)
}

// abortLaunchedThread aborts the thread's newest launched run (of exactly
// its resource, and expected when t names one).
func (a *Agent) abortLaunchedThread(ctx context.Context, l Launcher, t ThreadAbort) (bool, error) {
	if a.cfg.Storage == nil {
		return false, nil
	}
	raw, ok, err := a.cfg.Storage.GetThreadState(ctx, t.ThreadID, launchedRunState+a.cfg.ID)
	if err != nil || !ok {
		return false, err
	}
	var run launchedRun
	if err := json.Unmarshal(raw, &run); err != nil || run.ResourceID != t.ResourceID || (t.ExpectedRunID != "" && t.ExpectedRunID != run.RunID) {
		return false, err
	}
	return l.Abort(ctx, run.RunID)
}

// waitForLog waits until the run has logged its first event.
func (a *Agent) waitForLog(ctx context.Context, runID string) error {
	s, ok := a.log.(*storeLog)
	if !ok {
		return errors.New("agent: a launched run needs a shared run event log")
	}
	return s.events.WaitEvents(ctx, runID, -1)
}

// waitingCallID is the call id of a waiting call's chunk.
func waitingCallID(c stream.Chunk) string {
	switch p := c.Payload.(type) {
	case stream.ToolCallApprovalPayload:
		return p.ToolCallID
	case stream.ToolCallSuspendedPayload:
		return p.ToolCallID
	}
	return ""
}

// generateLaunched is Generate on a launched run: its output is what its
// chunks report (text, finish reason, usage); steps, messages and the
// request are the worker's.
func (a *Agent) generateLaunched(ctx context.Context, chunks iter.Seq2[stream.Chunk, error]) (*Output, error) {
	out := &Output{}
	for c, err := range chunks {
		if err != nil {
			return out, err
		}
		out.Chunks = append(out.Chunks, c)
		if out.RunID == "" {
			out.RunID = c.RunID
		}
		switch p := c.Payload.(type) {
		case stream.TextPayload:
			if c.Type == stream.TypeTextDelta {
				out.Text += p.Text
			}
		case stream.FinishPayload:
			out.FinishReason = p.StepResult.Reason
			out.TotalUsage = p.Output.Usage
			out.Usage = out.TotalUsage
			out.Object = p.Output.Object
		}
	}
	if out.FinishReason == "" {
		out.FinishReason = model.FinishSuspended
	}
	return out, ctx.Err()
}
