package temporal

import (
	"maps"
	"slices"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra/tools"
)

// subRun is the Temporal workflow of a launched run a call follows: a
// sub-agent's run (agent-<key>), aborted by a signal, or a workflow
// tool's run (workflow-<key>), cancelled.
type subRun struct {
	workflowID string
	cancel     bool
}

// subRunOf is the launched run the call inv would follow: its id derives
// from the run's id, the tool's name and the call's id, as the sub-agent
// and workflow tools derive it when their agent or workflow is launched.
// (When it is not, there is no such workflow, and ending it does
// nothing.)
func (e *engine) subRunOf(inv *tools.Invocation) (subRun, bool) {
	id := tools.SubRunID(e.in.RunID, inv.ToolName, inv.ToolCallID)
	switch {
	case strings.HasPrefix(inv.ToolName, "agent-"):
		return subRun{workflowID: WorkflowID(id)}, true
	case strings.HasPrefix(inv.ToolName, "workflow-"):
		return subRun{workflowID: WorkflowRunWorkflowID(id), cancel: true}, true
	}
	return subRun{}, false
}

// endSubRuns aborts the sub-agent runs and cancels the workflow runs
// that the calls in flight follow, in call order, on a context an abort
// of this workflow (its cancellation) does not end. A run that does not
// exist, or has ended, is left alone.
func (e *engine) endSubRuns(ctx workflow.Context) {
	ctx, _ = workflow.NewDisconnectedContext(ctx)
	for _, call := range slices.Sorted(maps.Keys(e.subRuns)) {
		sub := e.subRuns[call]
		var f workflow.Future
		if sub.cancel {
			f = workflow.RequestCancelExternalWorkflow(ctx, sub.workflowID, "")
		} else {
			f = workflow.SignalExternalWorkflow(ctx, sub.workflowID, "", SignalAbort, nil)
		}
		e.endings = append(e.endings, f)
	}
}

// awaitEndings waits until the sub-runs' endings (endSubRuns) have been
// delivered, or have failed (no such run): the workflow does not end
// before them.
func (e *engine) awaitEndings(ctx workflow.Context) {
	ctx, _ = workflow.NewDisconnectedContext(ctx)
	for _, f := range e.endings {
		_ = f.Get(ctx, nil)
	}
}
