package temporal

import (
	"errors"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra/workflows"
)

// SignalContinue tells a gomastra workflow run's Temporal workflow that a
// resume of the run has been saved with it (workflows.Launcher.Continue).
const SignalContinue = "gomastra.continue"

// WorkflowRunInput names the gomastra workflow run a WorkflowRun
// workflow runs: the run, saved as started in the workflow's storage.
type WorkflowRunInput struct {
	WorkflowKey string
	RunID       string
}

// advanceCall is the input of the AdvanceWorkflow activity.
type advanceCall struct {
	WorkflowKey string
	RunID       string
	workflows.AdvanceOptions
}

// workflowRun is the Temporal workflow of one gomastra workflow run: it
// advances the run a node at a time, each node an activity, sleeps its
// sleep nodes on Temporal timers and, while the run is suspended, waits
// for the signal that a resume has been saved. It returns the run's last
// status, once the sub-runs its nodes started as its children have
// ended.
func (w *runners) workflowRun(wctx workflow.Context, in WorkflowRunInput) (string, error) {
	kids := listenForChildren(wctx)
	status, err := w.advanceRun(wctx, in)
	kids.await(wctx)
	return status, err
}

// advanceRun advances the run to its end, or its cancellation.
func (w *runners) advanceRun(wctx workflow.Context, in WorkflowRunInput) (string, error) {
	continues := workflow.GetSignalChannel(wctx, SignalContinue)
	actx := workflow.WithActivityOptions(wctx, workflow.ActivityOptions{
		StartToCloseTimeout: w.opts.ToolCallTimeout,
		HeartbeatTimeout:    3 * w.opts.Heartbeat,
		WaitForCancellation: true,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: retryInterval, MaximumAttempts: int32(w.opts.LostCallAttempts),
			NonRetryableErrorTypes: []string{errPermanent}},
	})
	opts := workflows.AdvanceOptions{First: true}
	for {
		var p workflows.Progress
		err := workflow.ExecuteActivity(actx, activityAdvanceWorkflow, advanceCall{WorkflowKey: in.WorkflowKey, RunID: in.RunID, AdvanceOptions: opts}).Get(actx, &p)
		var canceled *temporal.CanceledError
		switch {
		case errors.As(err, &canceled):
			return workflows.StatusCanceled, nil
		case err != nil:
			return "", err
		}
		opts = workflows.AdvanceOptions{LogFrom: p.LogNext}
		switch p.Status {
		case workflows.StatusRunning:
			if p.Sleep > 0 {
				if err := workflow.Sleep(wctx, p.Sleep); err != nil {
					return workflows.StatusCanceled, nil
				}
				opts.Slept = true
			}
		case workflows.StatusSuspended:
			if !awaitContinue(wctx, continues) {
				return workflows.StatusCanceled, nil
			}
			opts.First = true
		default:
			return p.Status, nil
		}
	}
}

// awaitContinue waits for a continue signal; false when the workflow is
// canceled first.
func awaitContinue(wctx workflow.Context, continues workflow.ReceiveChannel) bool {
	got := false
	sel := workflow.NewSelector(wctx)
	sel.AddReceive(continues, func(c workflow.ReceiveChannel, _ bool) {
		c.Receive(wctx, nil)
		got = true
	})
	sel.AddReceive(wctx.Done(), func(workflow.ReceiveChannel, bool) {})
	sel.Select(wctx)
	return got
}
