package agent

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/wakeup"
	"github.com/gomastra/mastra/storage"
)

// Internal event types of a run's log, never yielded by Observe.
const (
	// eventEnd ends a log: the run has finished.
	eventEnd = storage.EventEnd
	// eventPause marks a run that stopped without finishing (suspended,
	// or parked for a recovery): its resume appends after it.
	eventPause = "pause"
)

// eventLog keeps the agent's run event logs: the in-process log
// (memoryLog), or a storage.RunEvents (storeLog).
type eventLog interface {
	// publisher returns the publisher of one run's events.
	publisher(runID string, owner RunOwner) publisher
	// read returns the run's events from index from on, at most limit.
	read(ctx context.Context, runID string, from int64, limit int) ([]RunEvent, error)
	// wait returns when the log holds an event above index after, or
	// has ended, or ctx ends.
	wait(ctx context.Context, runID string, after int64) error
	// owner returns the thread and resource of the run, or
	// ErrRunNotFound.
	owner(ctx context.Context, runID string) (RunOwner, error)
	// sweep removes old logs.
	sweep(ctx context.Context, old storage.OldEvents) error
	// requestAbort asks the process that runs runID, wherever it is,
	// to abort it; watchAborts reports such requests for a run of this
	// process until ctx ends (nil when the log is this process's only).
	requestAbort(ctx context.Context, runID string) error
	watchAborts(ctx context.Context, runID string, abort func())
	// shared reports whether other processes may run or read the runs.
	shared() bool
}

// publisher appends one run's events, in order.
type publisher interface {
	// publish appends e (its Index and CreatedAt are the log's).
	publish(e RunEvent)
	// close appends the final event (eventEnd or eventPause) after
	// every published one and waits until they are in the log.
	close(final string)
}

// RunOwner is the memory thread and resource a run was started for.
type RunOwner struct {
	ThreadID, ResourceID string
}

// memoryLog is the in-process event log: events are kept as values,
// never encoded.
type memoryLog struct {
	mu   sync.Mutex
	logs map[string]*memoryRunLog
	hub  wakeup.Hub
}

type memoryRunLog struct {
	events  []RunEvent
	owner   RunOwner
	ended   bool
	updated time.Time
}

func newMemoryLog() *memoryLog { return &memoryLog{logs: map[string]*memoryRunLog{}} }

func (m *memoryLog) shared() bool { return false }

func (m *memoryLog) publisher(runID string, owner RunOwner) publisher {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil || l.ended {
		l = &memoryRunLog{}
		m.logs[runID] = l
	}
	l.owner = owner
	return &memoryPublisher{log: m, runID: runID, run: l}
}

type memoryPublisher struct {
	log   *memoryLog
	runID string
	run   *memoryRunLog
}

func (p *memoryPublisher) publish(e RunEvent) {
	m := p.log
	m.mu.Lock()
	e.Index, e.CreatedAt = int64(len(p.run.events)), time.Now().UTC()
	p.run.events = append(p.run.events, e)
	p.run.updated = e.CreatedAt
	m.mu.Unlock()
	m.hub.Notify(p.runID)
}

func (p *memoryPublisher) close(final string) {
	p.publish(RunEvent{Type: final})
	if final == eventEnd {
		p.log.mu.Lock()
		p.run.ended = true
		p.log.mu.Unlock()
	}
}

func (m *memoryLog) read(_ context.Context, runID string, from int64, limit int) ([]RunEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil || from >= int64(len(l.events)) {
		return nil, nil
	}
	out := l.events[from:]
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return append([]RunEvent(nil), out...), nil
}

func (m *memoryLog) wait(ctx context.Context, runID string, after int64) error {
	return m.hub.Wait(ctx, runID, 0, func() (bool, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		l := m.logs[runID]
		return l != nil && (l.ended || int64(len(l.events)) > after+1), nil
	})
}

func (m *memoryLog) owner(_ context.Context, runID string) (RunOwner, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l := m.logs[runID]; l != nil {
		return l.owner, nil
	}
	return RunOwner{}, ErrRunNotFound
}

func (m *memoryLog) sweep(_ context.Context, old storage.OldEvents) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, l := range m.logs {
		if (l.ended && l.updated.Before(old.EndedBefore)) || l.updated.Before(old.IdleBefore) {
			delete(m.logs, id)
		}
	}
	return nil
}

// errLocalOnly: the in-process log has no other process to reach.
var errLocalOnly = errors.New("agent: the run event log is this process's only")

func (m *memoryLog) requestAbort(context.Context, string) error { return errLocalOnly }

func (m *memoryLog) watchAborts(context.Context, string, func()) {}
