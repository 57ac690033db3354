package agent

import (
	"context"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
)

// Retention of run event logs.
const (
	// defaultEventRetention is how long an ended run's log is kept by
	// default: Mastra keeps its replay cache 30 s after a run ends.
	defaultEventRetention = 30 * time.Second
	// idleEventRetention is how long the log of a run that never ended
	// (suspended, or stopped by a crash) is kept after its last event.
	idleEventRetention = 24 * time.Hour
)

// sweeper removes old run event logs, at most once per half retention
// (per half idle retention when ended logs are kept).
type sweeper struct {
	mu   sync.Mutex
	last time.Time
}

// eventLogOf is the agent's run event log: cfg.Events, else Storage
// when it keeps run events, else an in-process one.
func eventLogOf(cfg Config) eventLog {
	events := cfg.Events
	if events == nil {
		events, _ = cfg.Storage.(storage.RunEvents)
	}
	if events == nil {
		return newMemoryLog()
	}
	return &storeLog{events: events, log: cfg.Logger}
}

// sweepEvents removes the logs that retention no longer keeps, when
// half a retention has passed since the last sweep (half the idle
// retention when ended logs are kept: a negative retention). A shared
// store is swept in the background.
func (a *Agent) sweepEvents() {
	retention := a.cfg.EventRetention
	if retention == 0 {
		retention = defaultEventRetention
	}
	pace := retention
	if pace < 0 {
		pace = idleEventRetention
	}
	now := time.Now()
	a.sweep.mu.Lock()
	due := now.Sub(a.sweep.last) >= pace/2
	if due {
		a.sweep.last = now
	}
	a.sweep.mu.Unlock()
	if !due {
		return
	}
	old := storage.OldEvents{IdleBefore: now.Add(-idleEventRetention)}
	if retention > 0 {
		old.EndedBefore = now.Add(-retention)
	}
	sweep := func() {
		if err := a.log.sweep(context.Background(), old); err != nil {
			a.cfg.Logger.Warn("agent: sweeping old run event logs failed", "agent", a.cfg.ID, "error", storage.ErrorDetail(err))
		}
	}
	if a.log.shared() {
		go sweep()
		return
	}
	sweep()
}
