package workflows

import (
	"context"
	"sync"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// logLinger is how long a queued event waits for others to join its
// batch: the most a log written to a database lags its run.
const logLinger = 10 * time.Millisecond

// runLog appends one execution's chunks to its run's event log. Into a
// store that writes to a database, appends are grouped: the first event
// is appended at once (so that the log exists before the run can be
// seen to have ended), the others are queued and appended in order by
// one goroutine at a time, in batches of those queued within logLinger
// of the first — a transaction per batch, not per chunk. flush appends
// the queue at once and waits until it is empty; the run flushes before
// it suspends or ends its log, so that its log is complete when its
// stream ends. It is safe for concurrent use.
type runLog struct {
	ctx    context.Context
	events storage.RunEvents
	runID  string
	// local, when set, is the workflow's own in-memory log (events),
	// where each chunk is appended at once, as a value: an append is
	// cheaper than a hand-off.
	local   *chunkLog
	checked validRaws // the JSON fields of chunks kept in local

	// at, when set, places each chunk at its index (see placeAt).
	at *placement

	hurry    chan struct{} // cuts a linger short (flush)
	mu       sync.Mutex
	idle     sync.Cond // signalled when the queue empties
	started  bool
	pending  []storage.Event
	flushing bool
}

// newRunLog returns the log of one execution of run runID.
func newRunLog(ctx context.Context, events storage.RunEvents, runID string, local *chunkLog) *runLog {
	l := &runLog{ctx: ctx, events: events, runID: runID, local: local, hurry: make(chan struct{}, 1)}
	l.idle.L = &l.mu
	return l
}

// publish appends the run's chunk c: as a value to the workflow's own
// in-memory log, else encoded (see encodeChunk). A chunk that does not
// encode is left out. The caller holds the run's emitMu.
func (l *runLog) publish(c stream.Chunk) {
	if l.local != nil {
		l.local.appendChunk(l.runID, c, &l.checked)
		return
	}
	data, err := encodeChunk(c)
	if err != nil {
		return
	}
	l.append(storage.Event{Type: c.Type, Data: data})
}

// placement numbers the chunks of an Advance: the n-th chunk it
// publishes belongs at index next+n of the log, and one the log holds
// already (held: the log's length when the Advance began) was appended
// by an earlier try of the same Advance, whose worker was lost.
type placement struct {
	next, held int64
}

// placeAt makes the log append each chunk at once, at its index from
// from on, leaving out those below held (see placement).
func (l *runLog) placeAt(from, held int64) { l.at = &placement{next: from, held: held} }

// nextIndex is the index the log's next chunk gets (placeAt), 0 for a
// log that does not place its chunks.
func (l *runLog) nextIndex() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.at == nil {
		return 0
	}
	return l.at.next
}

// place appends e at its index unless the log holds that one.
func (l *runLog) place(e storage.Event) {
	l.mu.Lock()
	index := l.at.next
	l.at.next++
	skip := index < l.at.held
	l.mu.Unlock()
	if !skip {
		_, _ = l.events.AppendEvents(l.ctx, l.runID, e)
	}
}

// append queues e (or appends it, see runLog). A failed append leaves
// its events out of the log.
func (l *runLog) append(e storage.Event) {
	if l.at != nil {
		l.place(e)
		return
	}
	l.mu.Lock()
	if !l.started {
		l.started = true
		l.mu.Unlock()
		_, _ = l.events.AppendEvents(l.ctx, l.runID, e)
		return
	}
	l.pending = append(l.pending, e)
	if !l.flushing {
		l.flushing = true
		go l.drain()
	}
	l.mu.Unlock()
}

// drain appends the queued events, a batch at a time, until none is left.
func (l *runLog) drain() {
	linger := time.NewTimer(logLinger)
	defer linger.Stop()
	for {
		select {
		case <-linger.C:
		case <-l.hurry:
		}
		linger.Reset(logLinger)
		l.mu.Lock()
		batch := l.pending
		l.pending = nil
		if len(batch) == 0 {
			l.flushing = false
			l.idle.Broadcast()
			l.mu.Unlock()
			return
		}
		l.mu.Unlock()
		_, _ = l.events.AppendEvents(l.ctx, l.runID, batch...)
	}
}

// flush waits until every queued event has been appended (or failed).
func (l *runLog) flush() {
	select {
	case l.hurry <- struct{}{}:
	default:
	}
	l.mu.Lock()
	for l.flushing {
		l.idle.Wait()
	}
	l.mu.Unlock()
}

// end flushes the log, then ends it; false when the end could not be
// appended.
func (l *runLog) end() bool {
	l.flush()
	if l.at != nil {
		l.place(storage.Event{Type: storage.EventEnd})
		return true
	}
	_, err := l.events.AppendEvents(l.ctx, l.runID, storage.Event{Type: storage.EventEnd})
	return err == nil
}
