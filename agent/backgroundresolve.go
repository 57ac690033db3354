package agent

import (
	"context"
	"encoding/json"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/tools"
)

// BackgroundExecutor is the executor of a task of this agent whose run
// is gone (a task a restarted process takes up): it runs the agent's
// tool the task names, without the run's request context, its writes
// published as the task's output. It is false when the task is not the
// agent's or the agent has no such tool. A registry's bgtasks.Resolver
// uses it.
func (a *Agent) BackgroundExecutor(ctx context.Context, task bgtasks.Task) (bgtasks.Executor, bool) {
	if task.AgentID != a.cfg.ID {
		return nil, false
	}
	set, err := a.Tools(ctx, nil)
	if err != nil {
		return nil, false
	}
	t := set[task.ToolName]
	if t == nil || t.IsClientTool() {
		return nil, false
	}
	inv := tools.Invocation{ToolCallID: task.ToolCallID, ToolName: task.ToolName, RunID: task.RunID,
		Agent: &tools.AgentInfo{AgentID: a.cfg.ID}, Mastra: a.Registry(), Logger: a.cfg.Logger, Tracer: a.cfg.Tracer}
	return bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
		return runBackgroundTool(ctx, t, call, inv)
	}), true
}

// runBackgroundTool is one execution of a task: the tool run on the
// task's arguments with inv (its writes published as the task's output,
// resume data given after a suspension), a suspension recorded as the
// task's, the result as JSON.
func runBackgroundTool(ctx context.Context, t *tools.Tool, call *bgtasks.Call, inv tools.Invocation) (any, error) {
	inv.Writer = progressWriter{ctx: ctx, call: call, runID: inv.RunID, id: inv.ToolCallID, name: inv.ToolName}
	inv.ResumeData = call.ResumeData
	if call.ResumeData != nil {
		inv.SuspendPayload = call.Task.SuspendPayload
	}
	res, err := t.Execute(ctx, call.Args, &inv)
	if err != nil {
		return nil, err
	}
	if res.Suspended() {
		return nil, call.Suspend(res.Suspension.Payload)
	}
	raw, err := res.JSON()
	return json.RawMessage(raw), err
}
