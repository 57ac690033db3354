package temporal

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"strconv"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// retryInterval is the wait before a call's first retry; each next wait
// doubles, up to Temporal's default maximum (100 times this).
const retryInterval = 200 * time.Millisecond

// engine is the agent.ReplayingEngine of one run's workflow: model and
// tool calls are activities, groups are coroutines, saves happen only
// when the workflow is not replaying, ids derive from the run id.
type engine struct {
	// cur is the context of the coroutine that runs now. The loop's
	// calls do not carry it (they take a context.Context), so each
	// coroutine sets it when it starts and again whenever it wakes from
	// a wait: only one coroutine of a workflow runs at a time.
	cur  workflow.Context
	in   RunInput
	opts Options
	// inflight cancel the activities in flight (nil: ended); an abort
	// calls them.
	inflight []workflow.CancelFunc
	ids      int
	answers  []agent.Answer
	aborted  bool
	// abortRun aborts the run (agent.ReplayingEngine.Aborts).
	abortRun func()
	// subRuns are the launched runs the calls in flight follow, by call;
	// endings the abort signals and cancellations sent to them.
	subRuns map[string]subRun
	endings []workflow.Future
}

var _ agent.ReplayingEngine = (*engine)(nil)

func newEngine(wctx workflow.Context, in RunInput, opts Options) *engine {
	return &engine{cur: wctx, in: in, opts: opts, subRuns: map[string]subRun{}}
}

// block runs wait, a wait of the running coroutine on its context, and
// makes that coroutine the running one again once it wakes.
func (e *engine) block(wait func(ctx workflow.Context) error) error {
	ctx := e.cur
	defer func() { e.cur = ctx }()
	return wait(ctx)
}

// activityContext is the running coroutine's context for an activity
// with options o, cancelled with the run's calls.
func (e *engine) activityContext(o workflow.ActivityOptions) workflow.Context {
	return workflow.WithActivityOptions(e.cur, o)
}

// CallModel runs the model call as an activity and yields its parts once
// it has ended.
func (e *engine) CallModel(_ context.Context, m model.LanguageModel, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		ctx := e.activityContext(workflow.ActivityOptions{
			StartToCloseTimeout: e.opts.ModelCallTimeout,
			HeartbeatTimeout:    3 * e.opts.Heartbeat,
			RetryPolicy: &temporal.RetryPolicy{InitialInterval: retryInterval, MaximumAttempts: int32(e.opts.ModelAttempts),
				NonRetryableErrorTypes: []string{errPermanent}},
		})
		call := modelCall{AgentKey: e.in.AgentKey, RunID: e.in.RunID, Provider: m.Provider(), ModelID: m.ModelID(),
			Request: req, RequestContext: e.in.RequestContext}
		var ans modelAnswer
		err := e.block(func(workflow.Context) error { return e.execute(ctx, activityCallModel, call, &ans) })
		if err != nil {
			yield(model.StreamPart{}, callError(err))
			return
		}
		for _, w := range ans.Parts {
			if !yield(w.part(), nil) {
				return
			}
		}
		if ans.Err != "" {
			yield(model.StreamPart{}, errors.New(ans.Err))
		}
	}
}

// CallTool runs the tool call as an activity, then hands what the tool
// wrote to inv's writer and returns its result.
func (e *engine) CallTool(_ context.Context, t *tools.Tool, args json.RawMessage, inv *tools.Invocation) (*tools.Result, error) {
	ctx := e.activityContext(workflow.ActivityOptions{
		StartToCloseTimeout: e.opts.ToolCallTimeout,
		HeartbeatTimeout:    3 * e.opts.Heartbeat,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: retryInterval, MaximumAttempts: int32(e.opts.LostCallAttempts + t.Retries()),
			NonRetryableErrorTypes: []string{errPermanent}},
	})
	call := toolCall{AgentKey: e.in.AgentKey, RunID: e.in.RunID, ToolName: inv.ToolName, ToolCallID: inv.ToolCallID, Args: args,
		RequestContext: e.in.RequestContext, ResumeData: inv.ResumeData, SuspendPayload: inv.SuspendPayload,
		ThreadID: e.in.ThreadID, ResourceID: e.in.ResourceID}
	if inv.Agent != nil {
		call.SuspendedToolRunID = inv.Agent.SuspendedToolRunID
	}
	if len(inv.Messages) > 0 {
		call.Messages, _ = json.Marshal(inv.Messages)
	}
	if sub, ok := e.subRunOf(inv); ok {
		e.subRuns[inv.ToolCallID] = sub
		defer delete(e.subRuns, inv.ToolCallID)
	}
	var ans toolAnswer
	if err := e.block(func(workflow.Context) error { return e.execute(ctx, activityCallTool, call, &ans) }); err != nil {
		return nil, callError(err)
	}
	if inv.Writer != nil {
		for _, w := range ans.Writes {
			if w.Custom != nil {
				_ = inv.Writer.Custom(*w.Custom)
			} else {
				_ = inv.Writer.Write(w.Data)
			}
		}
	}
	return ans.result()
}

// Save saves unless the workflow replays: a replay's saves were made
// when their code first ran.
func (e *engine) Save(ctx context.Context, save func(context.Context) error) error {
	if workflow.IsReplaying(e.cur) {
		return nil
	}
	return save(ctx)
}

// Await waits for a signal answering one of the waiting calls; an abort
// ends the wait (false: the run ends suspended).
func (e *engine) Await(_ context.Context, _ string, waiting []agent.WaitingCall) (agent.Answer, bool) {
	var found agent.Answer
	take := func() bool {
		for i, a := range e.answers {
			for _, w := range waiting {
				if a.ToolCallID == w.ToolCallID {
					found = a
					e.answers = append(e.answers[:i], e.answers[i+1:]...)
					return true
				}
			}
		}
		return false
	}
	err := e.block(func(ctx workflow.Context) error {
		return workflow.Await(ctx, func() bool { return e.aborted || take() })
	})
	if err != nil || found.ToolCallID == "" {
		return agent.Answer{}, false
	}
	return found, true
}

// Now is the workflow's clock.
func (e *engine) Now() time.Time { return workflow.Now(e.cur) }

// NewID derives the run's next id from its run id: the same ids, in the
// same order, each time the workflow runs.
func (e *engine) NewID() string {
	e.ids++
	return uuid.Derived(e.in.RunID, "temporal-id", strconv.Itoa(e.ids))
}

// NewGroup returns a group of workflow coroutines.
func (e *engine) NewGroup(ctx context.Context, limit int) agent.Group {
	return &group{e: e, ctx: ctx, limit: limit}
}

// recordedRead is what Record keeps in the workflow's history.
type recordedRead struct {
	Value []byte
	Err   string
}

// Record runs read as a local activity: outside the workflow's
// coroutines, so that a slow read (an embedder's or an observer model's
// call) holds up only this coroutine and does not trip the SDK's
// deadlock detection, with its result kept in the workflow's history as
// a marker that a replay gets in its place. read's error is kept as its
// text and not retried; only the local activity's own failure (its
// ModelCallTimeout passing) is an error of the workflow's.
func (e *engine) Record(ctx context.Context, read func(context.Context) ([]byte, error)) ([]byte, error) {
	lctx := workflow.WithLocalActivityOptions(e.cur, workflow.LocalActivityOptions{
		StartToCloseTimeout: e.opts.ModelCallTimeout,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var rec recordedRead
	err := e.block(func(workflow.Context) error {
		return workflow.ExecuteLocalActivity(lctx, runRecordedRead, ctx, read).Get(lctx, &rec)
	})
	switch {
	case err != nil:
		return nil, err
	case rec.Err != "":
		return nil, errors.New(rec.Err)
	}
	return rec.Value, nil
}

// runRecordedRead is Record's local activity. Its arguments are handed
// over as they are (a local activity's are not serialised): the run's
// context and the read.
func runRecordedRead(_ context.Context, ctx context.Context, read func(context.Context) ([]byte, error)) (recordedRead, error) {
	v, err := read(ctx)
	if err != nil {
		return recordedRead{Err: err.Error()}, nil
	}
	return recordedRead{Value: v}, nil
}

// execute runs the activity name on input and decodes its result into
// out. ctx is the running coroutine's, with activity options; the run's
// abort cancels the activity.
func (e *engine) execute(ctx workflow.Context, name string, input, out any) error {
	ctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	id := len(e.inflight)
	e.inflight = append(e.inflight, cancel)
	defer func() { e.inflight[id] = nil }()
	if e.aborted {
		cancel()
	}
	return workflow.ExecuteActivity(ctx, name, input).Get(ctx, out)
}

// Aborts keeps the function that aborts the run.
func (e *engine) Aborts(abort func()) { e.abortRun = abort }

// abort ends the run's waits, cancels its calls in flight and ends the
// launched runs they follow. ctx is the aborting coroutine's.
func (e *engine) abort(ctx workflow.Context) {
	e.aborted = true
	if e.abortRun != nil {
		e.abortRun()
	}
	for _, cancel := range e.inflight {
		if cancel != nil {
			cancel()
		}
	}
	e.endSubRuns(ctx)
}

// callError is the error of a failed activity as the loop reports it:
// the failure's own message, without Temporal's wrapping.
func callError(err error) error {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return errors.New(app.Message())
	}
	var canceled *temporal.CanceledError
	if errors.As(err, &canceled) {
		return agent.ErrRunAborted
	}
	return err
}
