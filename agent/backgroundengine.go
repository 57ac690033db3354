package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/tools"
)

// A BackgroundEngine is a ReplayingEngine whose runs hand background
// calls to the agent's background-task manager (UseBackgroundTasks), as
// a run in process does, instead of running them inline. A run on it:
//
//   - enqueues a call's task once, through Record, with an id derived
//     from the run and the call (bgtasks.TaskPayload.ID), so that a
//     replay, or a try made again after a lost worker, finds the task
//     the first try enqueued instead of enqueuing another;
//   - answers a deferred call at once with Mastra's placeholder and goes
//     on; an awaited call waits for its task through AwaitTask;
//   - once its last step is saved, waits for each deferred task it
//     enqueued through AwaitTask and writes the task's outcome into the
//     run's memory in place of the placeholder (the engine's Save), as
//     the in-process run does when its task ends.
//
// The task runs wherever a manager sharing the task store claims it (a
// worker, the API server): its durability is the manager's (leases,
// retries, "Worker process terminated before task completed").
type BackgroundEngine interface {
	ReplayingEngine
	// AwaitTask returns the task taskID of the run's agent once it has
	// ended (completed, failed, cancelled, timed out) or suspended, its
	// record as it was then; an error when the wait itself failed (the
	// run aborted, the store unreachable for good).
	AwaitTask(ctx context.Context, taskID string) (bgtasks.Task, error)
}

// WaitBackgroundTask waits until the task taskID of the agent's manager
// ends or suspends (an end is heard of at once, a suspension looked up
// every 50 ms), or ctx ends, and returns its record. It fails when the
// agent has no background-task manager. A BackgroundEngine's AwaitTask
// calls it where the task's outcome is wanted.
func (a *Agent) WaitBackgroundTask(ctx context.Context, taskID string) (bgtasks.Task, error) {
	rt := a.background.get()
	if rt == nil {
		return bgtasks.Task{}, fmt.Errorf("agent %s: no background-task manager (UseBackgroundTasks)", a.cfg.ID)
	}
	return waitTaskEnd(ctx, rt.manager, taskID)
}

// waitTaskEnd waits until the task ends or suspends, or ctx ends.
func waitTaskEnd(ctx context.Context, mgr *bgtasks.Manager, taskID string) (bgtasks.Task, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ended := make(chan taskOutcome, 1)
	go func() {
		t, err := mgr.WaitForNextTask(ctx, []string{taskID})
		ended <- taskOutcome{t, err}
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case o := <-ended:
			return o.task, o.err
		case <-tick.C:
			if t, err := mgr.GetTask(ctx, taskID); err == nil && t.Status == bgtasks.Suspended {
				return t, nil
			}
		}
	}
}

// taskOutcome is what waitTaskEnd's watcher found.
type taskOutcome struct {
	task bgtasks.Task
	err  error
}

// enqueued is what a run records of its Enqueue of a call's task.
type enqueued struct {
	TaskID         string `json:"taskId"`
	FallbackToSync bool   `json:"fallbackToSync,omitempty"`
}

// backgroundEngine is the run's engine as a BackgroundEngine, false when
// it is not one.
func (r *run) backgroundEngine() (BackgroundEngine, bool) {
	be, ok := r.engine.(BackgroundEngine)
	return be, ok
}

// onBackgroundEngine reports whether the run's engine is a
// BackgroundEngine.
func (r *run) onBackgroundEngine() bool {
	_, ok := r.backgroundEngine()
	return ok
}

// taskIDOf is the id of the task of the run's call callID on a
// BackgroundEngine: the same each time the run is replayed.
func (r *run) taskIDOf(callID string) string {
	return uuid.Derived(r.opts.runID, "background-task", callID)
}

// deferredTask is a deferred call's task a run on a BackgroundEngine
// enqueued: what settleBackground writes into memory when it ends.
type deferredTask struct {
	taskID string
	call   callState // its arguments without "_background"
	tool   *tools.Tool
	msgID  string // the stored tool message of the call's step
}

// deferOnEngine notes, on a BackgroundEngine, the task taskID of a
// deferred call c of t that this step answered with a placeholder: the
// run's end writes the task's result in its place.
func (r *run) deferOnEngine(taskID string, c callState, t *tools.Tool) {
	if r.onBackgroundEngine() {
		r.deferred = append(r.deferred, deferredTask{taskID: taskID, call: c, tool: t, msgID: r.messageIDOf("tool", r.state.Step)})
	}
}

// waitForTask waits for the task taskID: through the engine when it is
// a BackgroundEngine, else in this process.
func (r *run) waitForTask(taskID string) (bgtasks.Task, error) {
	if be, ok := r.backgroundEngine(); ok {
		return be.AwaitTask(r.ctx, taskID)
	}
	return waitTaskEnd(r.ctx, r.agent.background.get().manager, taskID)
}

// settleBackground, at the end of a run on a BackgroundEngine, waits for
// each deferred task the run enqueued and writes its outcome into the
// run's memory; a task that suspended or was cancelled leaves the
// placeholder, as in process. A wait that fails (the run aborted) ends
// it: the tasks go on, their outcomes in their records.
func (r *run) settleBackground() {
	if !r.onBackgroundEngine() {
		return
	}
	for _, d := range r.deferred {
		task, err := r.waitForTask(d.taskID)
		if err != nil {
			r.agent.cfg.Logger.Warn("agent: background task not awaited", "taskId", d.taskID, "error", err)
			return
		}
		if typ := endEventOf(task.Status); (typ != bgCompleted && typ != bgFailed) || !r.memoryWrites() {
			continue // (as in process: a cancelled or suspended task leaves the placeholder)
		}
		inj := &backgroundInjector{r: r, call: d.call, tool: d.tool, msgID: d.msgID, writes: true}
		out := inj.output(task)
		err = r.engine.Save(r.storageCtx(), func(ctx context.Context) error {
			return inj.write(ctx, task, out)
		})
		if err != nil {
			r.agent.cfg.Logger.Warn("agent: background task result not written to memory", "taskId", task.ID, "error", err)
		}
	}
}
