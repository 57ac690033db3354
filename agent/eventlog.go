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
	// every published one and waits until they are in the log.
	close(final string)
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
	// ended are the ended logs still kept, oldest first: at most
	// maxEndedMemoryLogs of them (see dropOldEnded).
	ended []*memoryRunLog
}

// maxEndedMemoryLogs bounds the ended logs an in-process log keeps
// within their retention: a busy process keeps the newest ones, so that
// the runs' chunks do not stay reachable (and scanned by every garbage
// collection) for the whole retention.
const maxEndedMemoryLogs = 100

type memoryRunLog struct {
	runID   string
	blocks  [][]memoryEvent // each of cap memoryBlock; only the last grows
	n       int64
	owner   RunOwner
	ended   bool
	updated int64 // when the last event was appended, since clockBase
}

// A memory log's first block holds firstBlock events (most runs need
// no more), the others memoryBlock each.
const (
	firstBlock  = 32
	memoryBlock = 128
)

// memoryEvent is one event of a memory log, in 64 bytes: its chunk's
// type, source and payload (the run's id is the log's; a chunk with
// other fields is kept whole), or the type of an event that is not a
// chunk (an iteration, whose summary is the payload; the log's end or
// pause), and when it was appended.
type memoryEvent struct {
	typ     string
	from    stream.From
	payload any
	whole   *stream.Chunk
	at      int64 // since clockBase
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
		l = &memoryRunLog{runID: runID}
		m.logs[runID] = l
	}
	l.owner = owner
	return &memoryPublisher{log: m, run: l}
}

type memoryPublisher struct {
	log *memoryLog
	run *memoryRunLog
}

func (p *memoryPublisher) publish(e RunEvent) {
	me := memoryEvent{typ: e.Type}
	switch c := &e.Chunk; {
	case e.Iteration != nil:
		me.payload = e.Iteration
	case e.Type == eventEnd || e.Type == eventPause:
	case c.Metadata == nil && c.Data == nil && c.ID == "" && !c.Transient && c.Object == nil && c.RunID == p.run.runID:
		me.typ, me.from, me.payload = c.Type, c.From, c.Payload
	default:
		whole := e.Chunk
		me.typ, me.whole = "", &whole
	}
	m := p.log
	m.mu.Lock()
	me.at = int64(time.Since(clockBase)) // one monotonic clock read, cheaper than time.Now
	p.run.add(me)
	p.run.updated = me.at
	m.mu.Unlock()
	m.hub.Notify(p.run.runID)
}

// add appends e in the last block, or a new one when it is full.
func (l *memoryRunLog) add(e memoryEvent) {
	switch n := len(l.blocks); {
	case n == 0:
		l.blocks = append(make([][]memoryEvent, 0, 4), make([]memoryEvent, 0, firstBlock))
	case len(l.blocks[n-1]) == cap(l.blocks[n-1]):
		l.blocks = append(l.blocks, make([]memoryEvent, 0, memoryBlock))
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, e)
	l.n++
}

// at is the event of index i.
func (l *memoryRunLog) at(i int64) memoryEvent {
	if i < firstBlock {
		return l.blocks[0][i]
	}
	i -= firstBlock
	return l.blocks[1+i/memoryBlock][i%memoryBlock]
}

// event is the event of index i, as Observe yields it.
func (l *memoryRunLog) event(i int64) RunEvent {
	me := l.at(i)
	e := RunEvent{Index: i, Type: me.typ, CreatedAt: clockBase.Add(time.Duration(me.at)).UTC().Round(0)}
	switch {
	case me.whole != nil:
		e.Type, e.Chunk = eventTypeOf(me.whole.Type), *me.whole
	case me.typ == RunEventIterationComplete:
		e.Iteration, _ = me.payload.(*Iteration)
	case me.typ != eventEnd && me.typ != eventPause:
		e.Type, e.Chunk = eventTypeOf(me.typ), stream.Chunk{Type: me.typ, RunID: l.runID, From: me.from, Payload: me.payload}
	}
	return e
}

func (p *memoryPublisher) close(final string) {
	p.publish(RunEvent{Type: final})
	if final == eventEnd {
		p.log.mu.Lock()
		p.run.ended = true
		p.log.ended = append(p.log.ended, p.run)
		p.log.dropOldEnded()
		p.log.mu.Unlock()
	}
}

// dropOldEnded removes the oldest ended logs beyond maxEndedMemoryLogs
// (m.mu held). A log already swept, or replaced by a new run of the same
// id, is only forgotten.
func (m *memoryLog) dropOldEnded() {
	extra := len(m.ended) - maxEndedMemoryLogs
	if extra <= 0 {
		return
	}
	for _, l := range m.ended[:extra] {
		if m.logs[l.runID] == l {
			delete(m.logs, l.runID)
		}
	}
	m.ended = append(m.ended[:0], m.ended[extra:]...)
}

func (m *memoryLog) read(_ context.Context, runID string, from int64, limit int) ([]RunEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.logs[runID]
	if l == nil || from >= l.n {
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
	m.ended = slices.DeleteFunc(m.ended, func(l *memoryRunLog) bool { return m.logs[l.runID] != l })
	return nil
}

// errLocalOnly: the in-process log has no other process to reach.
var errLocalOnly = errors.New("agent: the run event log is this process's only")

func (m *memoryLog) requestAbort(context.Context, string) error { return errLocalOnly }

func (m *memoryLog) watchAborts(context.Context, string, func()) {}
