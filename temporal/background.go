package temporal

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage"
)

// activityAwaitTask waits for a background task of a run.
const activityAwaitTask = "gomastra.AwaitBackgroundTask"

// taskWaitTimeout bounds one wait for a background task: its own
// timeout (bgtasks, 5 minutes by default) and its time in the queue are
// far less.
const taskWaitTimeout = 24 * time.Hour

var _ agent.BackgroundEngine = (*engine)(nil)

// taskWait is the input of activityAwaitTask.
type taskWait struct {
	AgentKey string
	TaskID   string
}

// AwaitTask waits for the task in an activity: the task runs in a
// background-task manager (a worker's, the API's), not in this workflow;
// the activity, heartbeating, hears of its end. A worker lost while it
// waits costs a new wait on another worker; the run's abort cancels it.
func (e *engine) AwaitTask(_ context.Context, taskID string) (bgtasks.Task, error) {
	ctx := e.activityContext(workflow.ActivityOptions{
		StartToCloseTimeout: taskWaitTimeout,
		HeartbeatTimeout:    3 * e.opts.Heartbeat,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: retryInterval, MaximumAttempts: int32(e.opts.LostCallAttempts),
			NonRetryableErrorTypes: []string{errPermanent}},
	})
	var task bgtasks.Task
	err := e.block(func(workflow.Context) error {
		return e.execute(ctx, activityAwaitTask, taskWait{AgentKey: e.in.AgentKey, TaskID: taskID}, &task)
	})
	if err != nil {
		return bgtasks.Task{}, callError(err)
	}
	return task, nil
}

// awaitTask waits until the task ends or suspends and returns its
// record. An unknown task, or an agent without a background-task
// manager on this worker, fails for good.
func (a *activities) awaitTask(ctx context.Context, w taskWait) (bgtasks.Task, error) {
	ag, err := a.agentOf(w.AgentKey)
	if err != nil {
		return bgtasks.Task{}, err
	}
	if ag.BackgroundTaskManager() == nil {
		return bgtasks.Task{}, permanent("agent %s has no background-task manager on this worker", w.AgentKey)
	}
	defer heartbeat(ctx, a.opts.Heartbeat)()
	task, err := ag.WaitBackgroundTask(ctx, w.TaskID)
	switch {
	case err == nil:
		return task, nil
	case ctx.Err() != nil:
		return bgtasks.Task{}, ctx.Err()
	case errors.Is(err, storage.ErrNotFound):
		return bgtasks.Task{}, permanent("%v", err)
	}
	return bgtasks.Task{}, err
}
