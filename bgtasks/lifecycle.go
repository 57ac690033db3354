package bgtasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
)

func newID() string { return uuid.New() }

// Causes of an execution's context ending other than its timeout.
var (
	errCancelled = errors.New("Task cancelled")
	errShutdown  = errors.New("background task manager shut down")
	errLost      = errors.New("background task taken over by another manager")
	errTimeout   = errors.New("background task timed out")
)

// Start recovers the tasks left behind and starts running tasks. It
// first takes up the Running tasks of a previous incarnation of this
// Manager (same Config.Owner) and those whose lease lapsed: one with
// retries left goes back to Pending (a retry), any other fails with
// "Worker process terminated before task completed". Suspended tasks
// stay as they are. Then it claims Pending tasks, and keeps doing so as
// slots free up, tasks are enqueued, and every Config.PollInterval, when
// it also renews its leases and recovers lapsed ones. Start returns
// after the recovery; ctx bounds only that.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	if m.started || m.shutting {
		m.mu.Unlock()
		return errors.New("bgtasks: Start: the manager was already started")
	}
	m.started = true
	m.mu.Unlock()
	if err := m.recover(ctx, Filter{Status: []Status{Running}, Owner: m.cfg.Owner}); err != nil {
		return fmt.Errorf("bgtasks: start: %w", err)
	}
	if err := m.recover(ctx, Filter{LeaseBefore: time.Now()}); err != nil {
		return fmt.Errorf("bgtasks: start: %w", err)
	}
	m.loop.Add(1)
	go m.run()
	m.kick()
	return nil
}

// Shutdown stops the Manager: Enqueue fails from then on, no task is
// claimed any more, and Shutdown waits for the executions in progress
// to end. When ctx ends first, it aborts them and puts their tasks back
// to Pending, for another Manager (or the next Start) to run. It
// returns ctx's error in that case.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	if m.shutting {
		m.mu.Unlock()
		return nil
	}
	m.shutting = true
	m.mu.Unlock()
	close(m.stop)
	m.loop.Wait()
	done := make(chan struct{})
	go func() { m.running.Wait(); close(done) }()
	select {
	case <-done:
		m.abort(errShutdown)
		return nil
	case <-ctx.Done():
		m.abort(errShutdown)
		<-done
		return ctx.Err()
	}
}

// kick wakes the dispatcher: there may be work to claim.
func (m *Manager) kick() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// run is the dispatcher: it claims what it may whenever woken, and
// renews leases, recovers lapsed ones, drops the hooks of tasks finished
// elsewhere and cleans up on its tickers.
func (m *Manager) run() {
	defer m.loop.Done()
	poll := time.NewTicker(m.cfg.PollInterval)
	defer poll.Stop()
	renew := time.NewTicker(m.cfg.Lease / 3)
	defer renew.Stop()
	var cleanup <-chan time.Time
	if m.cfg.Cleanup != nil {
		t := time.NewTicker(m.cfg.Cleanup.Interval)
		defer t.Stop()
		cleanup = t.C
	}
	for {
		select {
		case <-m.stop:
			return
		case <-m.wake:
			m.dispatch()
		case <-poll.C:
			m.recover(m.base, Filter{LeaseBefore: time.Now()})
			m.dispatch()
		case <-renew.C:
			m.renewLeases()
			m.sweepHooks()
		case <-cleanup:
			m.Cleanup(m.base)
		}
	}
}

// dispatch claims the Pending tasks the limits allow and starts them.
func (m *Manager) dispatch() {
	claimed, err := m.store.ClaimTasks(m.base, m.claim(nil))
	if err != nil {
		return // the next kick or poll tries again
	}
	for _, t := range claimed {
		m.startExecution(t)
	}
}

// claim is the Claim of this Manager's limits, of ids when not nil.
func (m *Manager) claim(ids []string) Claim {
	return Claim{
		Owner: m.cfg.Owner, LeaseUntil: time.Now().Add(m.cfg.Lease),
		Global: m.cfg.GlobalConcurrency, PerAgent: m.cfg.PerAgentConcurrency,
		AgentLimits: m.cfg.AgentConcurrency, IDs: ids, Accept: m.canRun,
	}
}

// canRun says which pending tasks this Manager claims: its own, those of
// no producer, and those it can resolve an executor for. A task another
// Manager enqueued with an executor of its own is left to that one,
// unless this one can run it too.
func (m *Manager) canRun(t Task) bool {
	if t.Producer == "" || t.Producer == m.cfg.Owner {
		return true
	}
	if m.cfg.Resolve == nil {
		return false
	}
	_, ok := m.cfg.Resolve(m.base, t)
	return ok
}

// renewLeases writes the outcomes the store failed to record, extends
// the leases of the tasks this Manager runs and aborts the executions
// whose task was taken from it. A task Running under its name that it
// does not run (a claim whose answer was lost, a failed release) is not
// renewed: it lapses and is recovered.
func (m *Manager) renewLeases() {
	m.writeUnrecorded()
	mine, asked := m.heldTasks()
	if len(mine) == 0 {
		return
	}
	ids, err := m.store.RenewLeases(m.base, m.cfg.Owner, mine, asked.Add(m.cfg.Lease))
	if err != nil {
		return
	}
	held := make(map[string]bool, len(ids))
	for _, id := range ids {
		held[id] = true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, a := range m.active {
		if !held[id] && a.claimed.Before(asked) {
			a.cancel(errLost)
		}
	}
}

// heldTasks returns the ids of the tasks this Manager holds (running,
// recording their outcome, or holding an outcome to write) and the time
// it listed them: an execution started later was claimed after it.
func (m *Manager) heldTasks() ([]string, time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.active)+len(m.finishing)+len(m.unrecorded))
	for id := range m.active {
		ids = append(ids, id)
	}
	for id := range m.finishing {
		if m.active[id] == nil {
			ids = append(ids, id)
		}
	}
	for id := range m.unrecorded {
		if m.active[id] == nil && !m.finishing[id] {
			ids = append(ids, id)
		}
	}
	return ids, time.Now()
}
