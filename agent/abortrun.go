package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/gomastra/mastra/storage"
)

// ErrRunAborted is the cause a run's context is cancelled with when the
// run is aborted (AbortRun, AbortThread, RunHandle.Abort).
var ErrRunAborted = errors.New("agent: the run was aborted")

// abortRun aborts the run here when it runs here, else, through a
// shared log, where the stored run says it is running.
func (a *Agent) abortRun(ctx context.Context, runID string) (bool, error) {
	if act := a.active.get(runID); act != nil {
		act.cancel(ErrRunAborted)
		return true, nil
	}
	if l := a.launcher.get(); l != nil {
		return l.Abort(ctx, runID)
	}
	if !a.log.shared() {
		return false, nil
	}
	stored, err := a.runStore().GetRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if stored.Kind != storage.KindAgent || stored.Name != a.cfg.ID || stored.Status != storage.RunRunning {
		return false, nil
	}
	return true, a.log.requestAbort(ctx, runID)
}

// abortThread finds the thread's active run (here, else in the shared
// store) and aborts it.
func (a *Agent) abortThread(ctx context.Context, t ThreadAbort) (bool, error) {
	if t.ThreadID == "" {
		return false, fmt.Errorf("agent %s: abort thread: no thread id", a.cfg.ID)
	}
	owner := RunOwner{ThreadID: t.ThreadID, ResourceID: t.ResourceID}
	if act := a.active.ofThread(owner); act != nil {
		if t.ExpectedRunID != "" && t.ExpectedRunID != act.runID {
			return false, nil
		}
		act.cancel(ErrRunAborted)
		return true, nil
	}
	if l := a.launcher.get(); l != nil {
		return a.abortLaunchedThread(ctx, l, t)
	}
	if !a.log.shared() {
		return false, nil
	}
	runID, err := a.storedThreadRun(ctx, owner)
	if err != nil || runID == "" || (t.ExpectedRunID != "" && t.ExpectedRunID != runID) {
		return false, err
	}
	return true, a.log.requestAbort(ctx, runID)
}

// storedThreadRun is the newest run of the agent stored as running on
// the thread of owner (with exactly its resource), or "".
func (a *Agent) storedThreadRun(ctx context.Context, owner RunOwner) (string, error) {
	runs, _, err := a.runStore().ListRuns(ctx, storage.RunFilter{Kind: storage.KindAgent, Name: a.cfg.ID,
		ThreadID: owner.ThreadID, ResourceID: owner.ResourceID, Status: storage.RunRunning, PerPage: 10})
	if err != nil {
		return "", err
	}
	for _, r := range runs {
		if r.ThreadID == owner.ThreadID && r.ResourceID == owner.ResourceID {
			return r.RunID, nil
		}
	}
	return "", nil
}
