package temporal

import (
	"context"
	"errors"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// advanceWorkflow runs the next node of a gomastra workflow run
// (workflows.Run.Advance) on this worker. A run or workflow this worker
// does not know fails it for good; a lost claim (the run taken up by a
// repeat of this call on another worker) or a storage error is retried.
func (a *activities) advanceWorkflow(ctx context.Context, call advanceCall) (workflows.Progress, error) {
	wf, err := a.mastra.GetWorkflow(call.WorkflowKey)
	if err != nil {
		return workflows.Progress{}, permanent("%v", err)
	}
	defer heartbeat(ctx, a.opts.Heartbeat)()
	run, err := wf.LoadRun(ctx, call.RunID)
	if errors.Is(err, storage.ErrNotFound) {
		return workflows.Progress{}, permanent("%v", err)
	}
	if err != nil {
		return workflows.Progress{}, err
	}
	return run.Advance(ctx, call.AdvanceOptions)
}
