package agent

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/wakeup"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
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
	// every published one and waits until they are in the log. wanted
	// says a reader may come back for the ended log (see
	// run.logWanted); a log that keeps every ended log for its
	// retention ignores it.
	close(final string, wanted bool)
}

// RunOwner is the memory thread and resource a run was started for.
type RunOwner struct {
	ThreadID, ResourceID string
}

// memoryLog is the in-process event log: events are kept as compact
// values (never encoded), in blocks that are never copied.
type memoryLog struct {
	mu   sync.Mutex
	logs map[string]*memoryRunLog
	hub  wakeup.Hub
	// wanted are the ended logs kept for readers that may come back,
	// oldest first: at most maxWantedEndedLogs of them; delivered the
	// others, at most maxDeliveredEndedLogs (see dropOldEnded).
	wanted, delivered []*memoryRunLog
}

// An ended log keeps every chunk of its run reachable, and scanned by
// every garbage collection, for as long as it is kept: the in-process
// log keeps, within their retention, the newest maxWantedEndedLogs logs
// of runs a reader may come back to (a reader left before the end, or
// the run was detached or observed), and only the newest
// maxDeliveredEndedLogs of the others (their one reader had every
// chunk).
const (
	maxWantedEndedLogs    = 100
	maxDeliveredEndedLogs = 4
)

// memoryRunLog is one run's log; it is its own publisher.
type memoryRunLog struct {
	log   *memoryLog
	runID string
	eventBlocks
	owner    RunOwner
	ended    bool
	observed bool  // read while it ran
	updated  int64 // when the last event was appended, since clockBase
}

// clockBase is the time memory log events are timed from.
var clockBase = time.Now()

func newMemoryLog() *memoryLog { return &memoryLog{logs: map[string]*memoryRunLog{}} }

func (m *memoryLog) shared() bool { return false }

func (m *memoryLog) publisher(runID string, owner RunOwner) publisher {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil || l.ended {
		l = &memoryRunLog{log: m, runID: runID}
		m.logs[runID] = l
	}
	l.owner = owner
	return l
}

func (l *memoryRunLog) publish(e RunEvent) { l.append(compactEvent(&e, l.runID)) }

// publishChunk publishes chunk c as publish(RunEvent{Chunk: *c}) does.
func (l *memoryRunLog) publishChunk(c *stream.Chunk) { l.append(compactChunk(c, l.runID)) }

func (l *memoryRunLog) append(me memoryEvent) {
	m := l.log
	m.mu.Lock()
	me.at = int64(time.Since(clockBase)) // one monotonic clock read, cheaper than time.Now
	l.add(me)
	l.updated = me.at
	m.mu.Unlock()
	m.hub.Notify(l.runID)
}

// event is the event of index i, as Observe yields it.
func (l *memoryRunLog) event(i int64) RunEvent {
	return l.at(i).runEvent(i, l.runID)
}

func (l *memoryRunLog) close(final string, wanted bool) {
	l.publish(RunEvent{Type: final})
	if final == eventEnd {
		m := l.log
		m.mu.Lock()
		l.ended = true
		if wanted || l.observed {
			m.wanted = m.dropOldEnded(append(m.wanted, l), maxWantedEndedLogs)
		} else {
			m.delivered = m.dropOldEnded(append(m.delivered, l), maxDeliveredEndedLogs)
		}
		m.mu.Unlock()
	}
}

// dropOldEnded removes the oldest logs of ended beyond max and returns
// the others (m.mu held). A log already swept, or replaced by a new run
// of the same id, is only forgotten.
func (m *memoryLog) dropOldEnded(ended []*memoryRunLog, max int) []*memoryRunLog {
	extra := len(ended) - max
	if extra <= 0 {
		return ended
	}
	for _, l := range ended[:extra] {
		if m.logs[l.runID] == l {
			delete(m.logs, l.runID)
		}
	}
	return append(ended[:0], ended[extra:]...)
}

func (m *memoryLog) read(_ context.Context, runID string, from int64, limit int) ([]RunEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil {
		return nil, nil
	}
	if !l.ended {
		l.observed = true
	}
	if from >= l.n {
		return nil, nil
	}
	to := l.n
	if limit > 0 && to-from > int64(limit) {
		to = from + int64(limit)
	}
	out := make([]RunEvent, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, l.event(i))
	}
	return out, nil
}

func (m *memoryLog) wait(ctx context.Context, runID string, after int64) error {
	return m.hub.Wait(ctx, runID, 0, func() (bool, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		l := m.logs[runID]
		return l != nil && (l.ended || l.n > after+1), nil
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
		updated := clockBase.Add(time.Duration(l.updated))
		if (l.ended && updated.Before(old.EndedBefore)) || updated.Before(old.IdleBefore) {
			delete(m.logs, id)
		}
	}
	forgotten := func(l *memoryRunLog) bool { return m.logs[l.runID] != l }
	m.wanted = slices.DeleteFunc(m.wanted, forgotten)
	m.delivered = slices.DeleteFunc(m.delivered, forgotten)
	return nil
}

// errLocalOnly: the in-process log has no other process to reach.
var errLocalOnly = errors.New("agent: the run event log is this process's only")

func (m *memoryLog) requestAbort(context.Context, string) error { return errLocalOnly }

func (m *memoryLog) watchAborts(context.Context, string, func()) {}
