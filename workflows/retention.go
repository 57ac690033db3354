package workflows

import (
	"context"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
)

// DefaultFinishedRunRetention is how long a workflow keeps a finished
// run in storage when Config.FinishedRunRetention is zero.
const DefaultFinishedRunRetention = 7 * 24 * time.Hour

const (
	// maxFinishedInMemory bounds the finished runs a workflow without
	// Config.Storage keeps in its in-process store, newest first.
	maxFinishedInMemory = 1000
	// sweepInterval and sweepEvery say how often the retention sweep
	// runs: at a run's finish, once sweepInterval (or the retention, if
	// shorter) has passed since the last sweep, or after sweepEvery
	// finishes.
	sweepInterval = time.Minute
	sweepEvery    = 256
)

// sweeper removes a workflow's expired finished runs from its store: a
// storage.Runs.DeleteFinishedRuns now and then, made by the goroutine
// whose run has just finished, one at a time. It is safe for concurrent
// use.
type sweeper struct {
	mu      sync.Mutex
	last    time.Time
	since   int
	running bool
}

// finished notes that a run of w has finished, and sweeps when one is
// due: the expired finished runs of w's store, and the expired logs of
// its event log. A failed sweep is left to the next one.
func (s *sweeper) finished(ctx context.Context, w *Workflow) {
	now := time.Now()
	runs, sweepRuns := w.retention(now)
	old, sweepEvents := w.eventRetention(now)
	if (!sweepRuns && !sweepEvents) || !s.due(shortest(w.cfg.FinishedRunRetention, w.cfg.EventRetention)) {
		return
	}
	if sweepRuns {
		_, _ = w.store().DeleteFinishedRuns(ctx, runs)
	}
	if sweepEvents {
		_, _ = w.events().DeleteEvents(ctx, old)
	}
	s.mu.Lock()
	s.running = false
	s.mu.Unlock()
}

// shortest is the shortest positive of two retentions (0 if neither).
func shortest(a, b time.Duration) time.Duration {
	switch {
	case a <= 0:
		return max(b, 0)
	case b <= 0 || a < b:
		return a
	}
	return b
}

// due counts a finish and reports whether a sweep is due (and then
// takes it: the caller sweeps, then clears running).
func (s *sweeper) due(retention time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.since++
	now := time.Now()
	every := sweepInterval
	if retention > 0 && retention < every {
		every = retention
	}
	if s.running || (!s.last.IsZero() && now.Sub(s.last) < every && s.since < sweepEvery) {
		return false
	}
	s.running, s.last, s.since = true, now, 0
	return true
}

// eventRetention is what w's sweep at now removes from its event log:
// ended logs older than Config.EventRetention (and, in the workflow's
// own in-memory log, all but about the newest maxFinishedInMemory ended
// logs), and logs without an end
// idle for the finished-run retention (at least minIdleEventRetention,
// so that a long step does not lose its run's log); false when it keeps
// them all.
func (w *Workflow) eventRetention(now time.Time) (storage.OldEvents, bool) {
	var old storage.OldEvents
	switch keep := w.cfg.EventRetention; {
	case keep == 0:
		old.EndedBefore = now.Add(-DefaultEventRetention)
	case keep > 0:
		old.EndedBefore = now.Add(-keep)
	}
	// The workflow's own in-memory log keeps the newest ended logs only.
	if oldest := w.endedLogs.oldest(); w.events() == w.localEvents && oldest.After(old.EndedBefore) {
		old.EndedBefore = oldest
	}
	switch keep := w.cfg.FinishedRunRetention; {
	case keep == 0:
		old.IdleBefore = now.Add(-DefaultFinishedRunRetention)
	case keep > 0:
		old.IdleBefore = now.Add(-max(keep, minIdleEventRetention))
	}
	return old, !old.EndedBefore.IsZero() || !old.IdleBefore.IsZero()
}

// retention is what w's sweep at now removes; false when it keeps every
// finished run.
func (w *Workflow) retention(now time.Time) (storage.FinishedRuns, bool) {
	f := storage.FinishedRuns{Kind: storage.KindWorkflow, Name: w.cfg.ID}
	if w.cfg.Storage == nil {
		f.Keep = maxFinishedInMemory
	}
	switch keep := w.cfg.FinishedRunRetention; {
	case keep == 0:
		f.Before = now.Add(-DefaultFinishedRunRetention)
	case keep > 0:
		f.Before = now.Add(-keep)
	}
	return f, !f.Before.IsZero() || f.Keep > 0
}

// DefaultEventRetention is how long a workflow keeps an ended run's
// event log when Config.EventRetention is zero.
const DefaultEventRetention = 5 * time.Minute

// minIdleEventRetention is the shortest time a log without an end is
// kept after its last append, whatever Config.FinishedRunRetention.
const minIdleEventRetention = 24 * time.Hour

// endedRing remembers when the newest maxFinishedInMemory runs of a
// workflow ended their logs, for the bound of its own in-memory log. It
// is safe for concurrent use.
type endedRing struct {
	mu    sync.Mutex
	times []time.Time
	next  int
}

// add notes that a run's log ended at t.
func (e *endedRing) add(t time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.times) < maxFinishedInMemory {
		e.times = append(e.times, t)
		return
	}
	e.times[e.next] = t
	e.next = (e.next + 1) % maxFinishedInMemory
}

// oldest is when the oldest of the remembered logs ended; zero until
// maxFinishedInMemory logs have ended.
func (e *endedRing) oldest() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.times) < maxFinishedInMemory {
		return time.Time{}
	}
	return e.times[e.next]
}
