package agent

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// Engine carries out a run's effects for its driver. The driver (the
// loop of steps: prepare, call the model, save, run the calls, save each
// outcome, end the step) decides what happens next from the run's state
// alone; everything that touches the world goes through an Engine:
//
//   - CallModel makes one model call;
//   - CallTool runs one tool call;
//   - Save carries out one save of the run's state (to storage);
//   - Await is asked, when calls wait for a person, whether their answer
//     can be waited for here;
//   - Now and NewID are the driver's only clock and source of ids.
//
// The driver does no other I/O, reads no clock and draws no random
// number, and iterates maps only in sorted order: given the same effects'
// results in the same order, it makes the same decisions. So an engine
// that records each effect's result and replays it (a durable execution
// engine, where the driver is a deterministic workflow and model and tool
// calls are activities) can run the same driver as the default,
// in-process engine. Config.Engine sets an agent's engine.
type Engine interface {
	CallModel(ctx context.Context, m model.LanguageModel, req *model.Request) iter.Seq2[model.StreamPart, error]
	CallTool(ctx context.Context, t *tools.Tool, args json.RawMessage, inv *tools.Invocation) (*tools.Result, error)
	Save(ctx context.Context, save func(context.Context) error) error
	// Await returns the answer to one of waiting (the calls of the run
	// runID that wait for approval or resume data) when the engine can
	// wait for it; false ends the run suspended, to be resumed by a later
	// call (ResumeStream, ApproveToolCall, ...).
	Await(ctx context.Context, runID string, waiting []WaitingCall) (Answer, bool)
	Now() time.Time
	NewID() string
}

// WaitingCall is a call that waits for a person: for an approval, or
// (Suspended) for resume data matching ResumeSchema.
type WaitingCall struct {
	ToolCallID, ToolName string
	Args                 json.RawMessage
	Suspended            bool
	SuspendPayload       json.RawMessage
	ResumeSchema         string
}

// Answer is a person's answer to a waiting call: a decision (Approved,
// with Reason for a decline) for an approval, Data for a suspension.
type Answer struct {
	ToolCallID string
	Approved   *bool
	Reason     string
	Data       json.RawMessage
}

// WithEngine runs this run's effects on e instead of the agent's engine
// (Config.Engine): a durable execution engine gives each run an engine
// of its own, bound to the workflow that runs it.
func WithEngine(e Engine) Option { return func(o *runOptions) { o.engine = e } }

// LocalEngine is the default engine: effects run in this process, as
// the driver asks for them, and a run whose calls wait for a person ends
// suspended.
type LocalEngine struct{}

var _ Engine = LocalEngine{}

// CallModel streams m's answer to req.
func (LocalEngine) CallModel(ctx context.Context, m model.LanguageModel, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return m.Stream(ctx, req)
}

// CallTool executes t, again while it returns an error and it has
// retries left (tools.Config.Retries) and ctx has not ended.
func (LocalEngine) CallTool(ctx context.Context, t *tools.Tool, args json.RawMessage, inv *tools.Invocation) (*tools.Result, error) {
	for attempt := 0; ; attempt++ {
		res, err := t.Execute(ctx, args, inv)
		if err == nil || attempt >= t.Retries() || ctx.Err() != nil {
			return res, err
		}
	}
}

// Save runs save.
func (LocalEngine) Save(ctx context.Context, save func(context.Context) error) error {
	return save(ctx)
}

// Await never waits: the run ends suspended.
func (LocalEngine) Await(context.Context, string, []WaitingCall) (Answer, bool) {
	return Answer{}, false
}

// Now is the wall clock.
func (LocalEngine) Now() time.Time { return time.Now() }

// NewID is a random UUID.
func (LocalEngine) NewID() string { return uuid.New() }
