package agent

import (
	"context"
	"encoding/json"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// backgroundEligible reports whether the tool t, called name, may run
// as a background task in this run: the agent has a manager and its
// configuration (or the tool's) makes the tool eligible.
func (r *run) backgroundEligible(name string, t *tools.Tool) bool {
	return r.agent.background.get() != nil && r.agent.cfg.Background.eligible(name, t)
}

// backgroundCall decides how call i of tool t runs, before it would run
// inline, when the agent has a background-task manager (without one the
// call is left as it is; on a ReplayingEngine that is not a
// BackgroundEngine it runs inline). It answers the call itself (answered true) when its
// "_background" argument is one the model must fix (a tool that is not
// eligible, a malformed value) or when the call runs as a background
// task; otherwise it returns the call with "_background" removed from
// its arguments, to run inline. A resumed call whose awaited task
// suspended resumes its task; any other resumed call runs inline.
func (r *run) backgroundCall(i int, c callState, t *tools.Tool, rs *resumeInput, w chanWriter) (callState, callOutcome, bool) {
	if r.agent.background.get() == nil {
		return c, callOutcome{}, false // no background tasks: arguments as they are
	}
	if _, replaying := r.engine.(ReplayingEngine); replaying && !r.onBackgroundEngine() {
		// A replayed loop cannot wait on the manager's goroutines itself:
		// the call runs inline.
		c.Args, _ = splitBackground(c.Args)
		return c, callOutcome{}, false
	}
	rest, value := splitBackground(c.Args)
	eligible := r.backgroundEligible(c.Name, t)
	hasKey := len(rest) != len(c.Args)
	if !eligible {
		if hasKey && value != nil {
			return c, r.invalidBackground(i, c, t, []schema.Issue{ineligibleBackgroundIssue()}), true
		}
		c.Args = rest
		return c, callOutcome{}, false
	}
	override, issues := parseBackground(value)
	if len(issues) > 0 {
		return c, r.invalidBackground(i, c, t, issues), true
	}
	plan := r.agent.cfg.Background.plan(c.Name, t, override)
	inline := c
	inline.Args = rest
	if !plan.background() {
		return inline, callOutcome{}, false
	}
	if rs != nil {
		o, resumed := r.resumeBackground(i, c, t, plan, rs)
		if !resumed {
			return inline, callOutcome{}, false
		}
		return c, o, true
	}
	o, dispatched := r.dispatchBackground(i, c, inline, t, plan, w)
	if !dispatched {
		return inline, callOutcome{}, false
	}
	return c, o, true
}

// invalidBackground answers a call whose "_background" argument the
// model must fix, with the tool's input validation error.
func (r *run) invalidBackground(i int, c callState, t *tools.Tool, issues []schema.Issue) callOutcome {
	ve := tools.InputValidationError(c.Name, issues, c.Args)
	raw, err := json.Marshal(ve)
	if err != nil {
		return r.errorOutcome(i, c, "Error", err.Error())
	}
	return r.resultOutcome(i, c, raw, t, nil)
}

// dispatchBackground enqueues the call (inline: its arguments without
// "_background") as a task and reports the background-task-started
// chunk; a deferred call is answered with the placeholder, an awaited
// one with the task's outcome. dispatched is false when the manager
// wants the call run inline (its limits are reached).
func (r *run) dispatchBackground(i int, c, inline callState, t *tools.Tool, plan backgroundPlan, w chanWriter) (callOutcome, bool) {
	rt := r.agent.background.get()
	p := bgtasks.TaskPayload{
		RunID: r.opts.runID, ToolName: c.Name, ToolCallID: c.ID, Args: inline.Args,
		AgentID: r.agent.cfg.ID, ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID, Timeout: plan.timeout,
	}
	if plan.maxRetries > 0 {
		n := plan.maxRetries
		p.MaxRetries = &n
	}
	hooks := &bgtasks.Hooks{Executor: r.backgroundExecutor(inline, t, w)}
	switch {
	case r.onBackgroundEngine():
		// (the run's end writes the result: settleBackground)
		p.ID = r.taskIDOf(c.ID)
	case plan.disposition == tools.DispositionDeferred:
		// (an awaited call's result is the run's own to record)
		hooks.OnEvent = r.backgroundInjector(rt, inline, t).onEvent
	}
	res, err := recorded(r, r.ctx, func(ctx context.Context) (enqueued, error) {
		res, err := rt.manager.Enqueue(ctx, p, hooks)
		return enqueued{TaskID: res.Task.ID, FallbackToSync: res.FallbackToSync}, err
	})
	if err != nil {
		return r.errorOutcome(i, c, "Error", err.Error()), true
	}
	if res.FallbackToSync {
		return callOutcome{}, false
	}
	if plan.disposition == tools.DispositionDeferred {
		r.deferOnEngine(res.TaskID, inline, t)
	}
	taskID := res.TaskID
	_ = w.send(stream.Chunk{Type: bgStarted, RunID: r.opts.runID, From: stream.FromAgent,
		Payload: bgtasks.StartedPayload{TaskID: taskID, ToolName: c.Name, ToolCallID: c.ID}})
	if plan.disposition == tools.DispositionAwaited {
		return r.awaitBackground(i, c, t, taskID), true
	}
	raw, _ := json.Marshal(backgroundPlaceholder("started", taskID, c.Name))
	return r.resultOutcome(i, c, raw, t, nil), true
}

// awaitBackground waits for the task of an awaited call and answers the
// call with its outcome: the tool's result, or its error; a task that
// suspends suspends the call (its payload, the tool's resume schema),
// and resuming the run resumes the task.
func (r *run) awaitBackground(i int, c callState, t *tools.Tool, taskID string) callOutcome {
	task, err := r.waitForTask(taskID)
	switch {
	case err != nil:
		return r.errorOutcome(i, c, "Error", err.Error())
	case task.Status == bgtasks.Suspended:
		return r.suspendedOutcome(i, c, t, &tools.Suspension{Payload: task.SuspendPayload})
	case task.Status == bgtasks.Completed:
		return r.resultOutcome(i, c, resultJSON(task.Result), t, r.backgroundModelOutput(t, c, task.Result))
	case task.Error != nil:
		return r.errorOutcome(i, c, "Error", task.Error.Message)
	}
	return r.errorOutcome(i, c, "Error", "Background task "+string(task.Status)+": "+task.ID)
}

// resumeBackground resumes the suspended task of the call (this run's,
// by tool call id) with the resume data: an awaited call waits for it
// again, a deferred one is answered "Background task resumed. …". It is
// false when the call has no suspended task.
func (r *run) resumeBackground(i int, c callState, t *tools.Tool, plan backgroundPlan, rs *resumeInput) (callOutcome, bool) {
	data := rs.data
	if data == nil {
		data = json.RawMessage("null")
	}
	taskID, err := recorded(r, r.ctx, func(ctx context.Context) (string, error) {
		return r.resumeTaskOf(ctx, c.ID, data)
	})
	switch {
	case err != nil:
		return r.errorOutcome(i, c, "Error", err.Error()), true
	case taskID == "":
		return callOutcome{}, false
	case plan.disposition == tools.DispositionAwaited:
		return r.awaitBackground(i, c, t, taskID), true
	}
	r.deferOnEngine(taskID, c, t)
	raw, _ := json.Marshal(backgroundPlaceholder("resumed", taskID, c.Name))
	return r.resultOutcome(i, c, raw, t, nil), true
}

// resumeTaskOf resumes the run's suspended task of the call callID with
// data and returns its id ("" when the call has no suspended task).
func (r *run) resumeTaskOf(ctx context.Context, callID string, data json.RawMessage) (string, error) {
	mgr := r.agent.background.get().manager
	list, err := mgr.ListTasks(ctx, bgtasks.Filter{RunID: r.opts.runID, AgentID: r.agent.cfg.ID, Status: []bgtasks.Status{bgtasks.Suspended}})
	if err != nil {
		return "", err
	}
	for _, task := range list.Tasks {
		if task.ToolCallID == callID {
			return task.ID, mgr.Resume(ctx, task.ID, data)
		}
	}
	return "", nil
}

// backgroundModelOutput is the tool's toModelOutput of a task's result
// (nil: the model sees the result as it is).
func (r *run) backgroundModelOutput(t *tools.Tool, c callState, result json.RawMessage) *model.ToolResultOutput {
	if !t.HasToModelOutput() {
		return nil
	}
	var v any
	if json.Unmarshal(resultJSON(result), &v) != nil {
		return nil
	}
	mo, err := recorded(r, r.ctx, func(ctx context.Context) (*model.ToolResultOutput, error) {
		return t.ModelOutput(context.WithoutCancel(ctx), c.Name, v, &tools.Invocation{ToolCallID: c.ID, ToolName: c.Name, RunID: r.opts.runID})
	})
	if err != nil {
		return nil
	}
	return mo
}

// resultJSON is a task's result, JSON null when it has none.
func resultJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// backgroundExecutor runs the call's tool for its task: in the manager's
// goroutine and context (cancelled by the task's timeout or
// cancellation), with the run's context values, its writes published as
// the task's output, and a suspension recorded as the task's.
func (r *run) backgroundExecutor(c callState, t *tools.Tool, w chanWriter) bgtasks.Executor {
	inv := *r.invocation(c, nil, nil, w)
	values := r.ctx
	return bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
		return runBackgroundTool(valuesOf(ctx, values), t, call, inv)
	})
}

// progressWriter publishes a background tool's writes as the task's
// output ("tool-output" chunks).
type progressWriter struct {
	ctx             context.Context
	call            *bgtasks.Call
	runID, id, name string
}

func (p progressWriter) Write(data any) error {
	raw, err := json.Marshal(stream.Chunk{Type: stream.TypeToolOutput, RunID: p.runID, From: stream.FromUser,
		Payload: stream.ToolOutputPayload{Output: data, ToolCallID: p.id, ToolName: p.name}})
	if err != nil {
		return err
	}
	p.call.Progress(p.ctx, raw)
	return nil
}

// Custom data chunks of a background tool go nowhere: only its output
// is the task's.
func (p progressWriter) Custom(c tools.DataChunk) error { return tools.CheckDataChunk(c) }

// valuesOf is ctx (its deadline and cancellation) with the values of
// values.
func valuesOf(ctx, values context.Context) context.Context {
	return valueContext{Context: ctx, values: values}
}

type valueContext struct {
	context.Context
	values context.Context
}

func (v valueContext) Value(key any) any { return v.values.Value(key) }
