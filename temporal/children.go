package temporal

import (
	"context"
	"fmt"
	"maps"
	"slices"

	enums "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"
)

// SignalStartChild asks a run's workflow to start a workflow as its
// child (a childStart): the launcher of a sub-agent or workflow tool
// whose call runs in that workflow's activity (an agent run's tool call,
// a workflow run's node) sends it.
const SignalStartChild = "gomastra.startChild"

// childStart is a sub-run the call of a run's workflow launches: the
// workflow to start as the run's child, one of AgentRun and WorkflowRun.
type childStart struct {
	WorkflowID  string
	AgentRun    *RunInput         `json:",omitempty"`
	WorkflowRun *WorkflowRunInput `json:",omitempty"`
}

// parentOf is the run's workflow whose activity ctx belongs to — an
// agent run's tool call, a workflow run's node — (false when ctx is not
// such an activity's): a run launched from there becomes that
// workflow's child.
func parentOf(ctx context.Context) (workflowID, runID string, ok bool) {
	if !activity.IsActivity(ctx) {
		return "", "", false
	}
	info := activity.GetInfo(ctx)
	if info.WorkflowType == nil {
		return "", "", false
	}
	switch [2]string{info.WorkflowType.Name, info.ActivityType.Name} {
	case [2]string{WorkflowAgentRun, activityCallTool}, [2]string{WorkflowWorkflowRun, activityAdvanceWorkflow}:
		return info.WorkflowExecution.ID, info.WorkflowExecution.RunID, true
	}
	return "", "", false
}

// startAsChild asks the run's workflow whose activity ctx belongs to to
// start cs as its child, and reports whether ctx is
// such an activity's (false: the caller starts the workflow itself).
// The call then follows the child's run from its log, as it follows any
// launched run; a call tried again asks again, and the parent starts
// the child once.
func (c *Client) startAsChild(ctx context.Context, cs childStart) (bool, error) {
	parentID, parentRunID, ok := parentOf(ctx)
	if !ok {
		return false, nil
	}
	if err := c.temporal.SignalWorkflow(ctx, parentID, parentRunID, SignalStartChild, cs); err != nil {
		return true, fmt.Errorf("temporal: asking run workflow %s to start %s: %w", parentID, cs.WorkflowID, err)
	}
	return true, nil
}

// children are the sub-runs a workflow started as its children, by
// workflow id.
type children map[string]workflow.ChildWorkflowFuture

// listenForChildren starts, until the workflow ends, each child its
// calls ask for (SignalStartChild), and returns them.
func listenForChildren(wctx workflow.Context) children {
	kids := children{}
	asks := workflow.GetSignalChannel(wctx, SignalStartChild)
	workflow.Go(wctx, func(ctx workflow.Context) {
		for {
			var cs childStart
			if !asks.Receive(ctx, &cs) {
				return
			}
			kids.start(ctx, cs)
		}
	})
	return kids
}

// start starts the workflow cs names as a child, once: on the parent's
// task queue, cancelled with the parent (its context's cancellation, or
// Temporal's parent-close policy should the parent close first).
func (kids children) start(ctx workflow.Context, cs childStart) {
	if _, started := kids[cs.WorkflowID]; started {
		return
	}
	opts := workflow.ChildWorkflowOptions{WorkflowID: cs.WorkflowID,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_REQUEST_CANCEL}
	ctx = workflow.WithChildOptions(ctx, opts)
	switch {
	case cs.AgentRun != nil:
		kids[cs.WorkflowID] = workflow.ExecuteChildWorkflow(ctx, WorkflowAgentRun, *cs.AgentRun)
	case cs.WorkflowRun != nil:
		kids[cs.WorkflowID] = workflow.ExecuteChildWorkflow(ctx, WorkflowWorkflowRun, *cs.WorkflowRun)
	}
}

// await waits until the children have ended (a child's own failure is
// its run's, which its caller read from its log): a parent does not end
// before its children.
func (kids children) await(ctx workflow.Context) {
	ctx, _ = workflow.NewDisconnectedContext(ctx)
	for _, id := range slices.Sorted(maps.Keys(kids)) {
		_ = kids[id].Get(ctx, nil)
	}
}
