package agent

import (
	"context"
	"sync"
	"time"
)

// activeRun is a run executing in this process, and how to abort it.
type activeRun struct {
	runID  string
	owner  RunOwner
	cancel context.CancelCauseFunc
}

// activeRuns are the runs executing in this process, by id and by
// thread.
type activeRuns struct {
	mu       sync.Mutex
	byID     map[string]*activeRun
	byThread map[RunOwner]*activeRun
}

func (rs *activeRuns) add(r *activeRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.byID == nil {
		rs.byID, rs.byThread = map[string]*activeRun{}, map[RunOwner]*activeRun{}
	}
	rs.byID[r.runID] = r
	if r.owner.ThreadID != "" {
		rs.byThread[r.owner] = r
	}
}

func (rs *activeRuns) remove(r *activeRun) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.byID[r.runID] == r {
		delete(rs.byID, r.runID)
	}
	if rs.byThread[r.owner] == r {
		delete(rs.byThread, r.owner)
	}
}

func (rs *activeRuns) get(runID string) *activeRun {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.byID[runID]
}

func (rs *activeRuns) ofThread(o RunOwner) *activeRun {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.byThread[o]
}

// retryAfter paces the retries of a failing store.
func retryAfter() <-chan time.Time { return time.After(time.Second) }
