package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/wakeup"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// chunkLog is the workflow's own in-memory event log, used when neither
// Config.Events nor Config.Storage keeps run events. It keeps every
// contract of storage.RunEvents. The runs' chunks are appended by
// appendChunk and kept as values: ReadEvents encodes them when read,
// into the bytes encodeChunk gives at the append (those /stream sends);
// nothing re-validates or copies bytes the run itself produced.
type chunkLog struct {
	mu   sync.Mutex
	logs map[string]*chunkRunLog
	hub  wakeup.Hub
}

// chunkRunLog is one run's log: its events, in blocks that are only
// appended to and never copied, each twice the size of the one before
// (firstChunkBlock, then up to maxChunkBlock).
type chunkRunLog struct {
	blocks  [][]chunkEvent
	n       int64 // events in blocks
	ended   bool
	updated time.Time
}

// The sizes of a chunkRunLog's blocks.
const (
	firstChunkBlock = 32
	maxChunkBlock   = 1024
)

// chunkEvent is one event of a chunkLog: a chunk of the run kept as its
// type, source and payload (the run id is the log's), or, when encoded,
// an event kept as its type and bytes (payload: a json.RawMessage, nil
// when empty).
type chunkEvent struct {
	typ     string
	from    stream.From
	payload any
	at      int64 // when appended, Unix nanoseconds
	encoded bool
}

// add appends e in the last block, or a new one when it is full.
func (l *chunkRunLog) add(e chunkEvent) {
	switch n := len(l.blocks); {
	case n == 0:
		l.blocks = append(make([][]chunkEvent, 0, 4), make([]chunkEvent, 0, firstChunkBlock))
	case len(l.blocks[n-1]) == cap(l.blocks[n-1]):
		l.blocks = append(l.blocks, make([]chunkEvent, 0, min(2*cap(l.blocks[n-1]), maxChunkBlock)))
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, e)
	l.n++
}

// read returns the events from index from on, at most limit (all when
// limit <= 0); from must be below l.n.
func (l *chunkRunLog) read(from int64, limit int) []chunkEvent {
	n := l.n - from
	if limit > 0 && int64(limit) < n {
		n = int64(limit)
	}
	out := make([]chunkEvent, 0, n)
	for _, b := range l.blocks {
		if from >= int64(len(b)) {
			from -= int64(len(b))
			continue
		}
		take := min(int64(len(b))-from, n-int64(len(out)))
		out = append(out, b[from:from+take]...)
		from = 0
		if int64(len(out)) == n {
			break
		}
	}
	return out
}

func newChunkLog() *chunkLog { return &chunkLog{logs: map[string]*chunkRunLog{}} }

// appendChunk appends run runID's chunk c, whose run id is runID and
// which has no fields but Type, From and Payload (see Run.send); runID
// must pass storage.CheckID. A chunk whose payload may change after the
// append, or may not encode, is encoded at once (and left out when it
// does not encode, as a failed append). checked is the run's.
func (m *chunkLog) appendChunk(runID string, c stream.Chunk, checked *validRaws) {
	e := chunkEvent{typ: c.Type, from: c.From, payload: c.Payload}
	if !keptAsValue(c.Payload, checked) {
		data, err := encodeChunk(c)
		if err != nil {
			return
		}
		e.payload, e.encoded = json.RawMessage(data), true
	}
	m.add(runID, e)
}

// add appends e to run runID's log; it is left out when the log has
// ended.
func (m *chunkLog) add(runID string, e chunkEvent) bool {
	now := time.Now().UTC()
	e.at = now.UnixNano()
	m.mu.Lock()
	l := m.logs[runID]
	if l == nil {
		l = &chunkRunLog{}
		m.logs[runID] = l
	}
	if l.ended {
		m.mu.Unlock()
		return false
	}
	l.add(e)
	l.ended = e.typ == storage.EventEnd
	l.updated = now
	m.mu.Unlock()
	m.hub.Notify(runID)
	return true
}

// AppendEvents implements storage.RunEvents: events are checked as
// storage.CheckEvents does and kept as bytes.
func (m *chunkLog) AppendEvents(_ context.Context, runID string, events ...storage.Event) (int64, error) {
	if err := storage.CheckEvents(runID, events); err != nil {
		return 0, fmt.Errorf("memory: %w", err)
	}
	now := time.Now().UTC()
	m.mu.Lock()
	l := m.logs[runID]
	if l == nil {
		l = &chunkRunLog{}
		m.logs[runID] = l
	}
	if l.ended {
		m.mu.Unlock()
		return 0, fmt.Errorf("memory: append events to run %s: the log has ended: %w", runID, storage.ErrConflict)
	}
	first := l.n
	for _, e := range events {
		ce := chunkEvent{typ: e.Type, at: now.UnixNano(), encoded: true}
		if len(e.Data) > 0 {
			ce.payload = slices.Clone(e.Data)
		}
		l.add(ce)
	}
	l.ended = events[len(events)-1].Type == storage.EventEnd
	l.updated = now
	m.mu.Unlock()
	m.hub.Notify(runID)
	return first, nil
}

// ReadEvents implements storage.RunEvents; chunks kept as values are
// encoded here.
func (m *chunkLog) ReadEvents(_ context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if err := storage.CheckReadEvents(runID, from); err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	m.mu.Lock()
	l := m.logs[runID]
	if l == nil || from >= l.n {
		m.mu.Unlock()
		return nil, nil
	}
	kept := l.read(from, limit)
	m.mu.Unlock()
	out := make([]storage.Event, len(kept))
	for i, e := range kept {
		data, err := e.data(runID)
		if err != nil {
			return nil, fmt.Errorf("memory: read events of run %s: event %d: %w", runID, from+int64(i), err)
		}
		out[i] = storage.Event{Index: from + int64(i), Type: e.typ, Data: data, CreatedAt: time.Unix(0, e.at).UTC()}
	}
	return out, nil
}

// data is e's bytes, a copy the caller owns: a chunk of run runID kept
// as a value is encoded (see encodeChunk).
func (e *chunkEvent) data(runID string) (json.RawMessage, error) {
	if e.encoded {
		raw, _ := e.payload.(json.RawMessage)
		return slices.Clone(raw), nil
	}
	return encodeChunk(stream.Chunk{Type: e.typ, RunID: runID, From: e.from, Payload: e.payload})
}

// WaitEvents implements storage.RunEvents.
func (m *chunkLog) WaitEvents(ctx context.Context, runID string, after int64) error {
	if err := storage.CheckReadEvents(runID, after+1); err != nil {
		return fmt.Errorf("memory: wait: %w", err)
	}
	return m.hub.Wait(ctx, runID, 0, func() (bool, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		l := m.logs[runID]
		return l != nil && (l.ended || l.n > after+1), nil
	})
}

// DeleteEvents implements storage.RunEvents.
func (m *chunkLog) DeleteEvents(_ context.Context, old storage.OldEvents) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	removed := 0
	for id, l := range m.logs {
		if (l.ended && l.updated.Before(old.EndedBefore)) || l.updated.Before(old.IdleBefore) {
			delete(m.logs, id)
			removed++
		}
	}
	return removed, nil
}

// keptAsValue reports whether a chunk's payload p can be kept as a value
// and encoded when read, into the bytes it encodes to now: a payload
// the run builds for the chunk, whose fields it never changes, and
// whose JSON fields are valid (so that it encodes), as checked by
// checked.
func keptAsValue(p any, checked *validRaws) bool {
	switch p := p.(type) {
	case stepPayload:
		return checked.valid(p.Payload) && checked.valid(p.ResumePayload) && checked.valid(p.Output) && checked.valid(p.SuspendPayload)
	case progressPayload:
		return checked.valid(p.IterationOutput)
	case finishPayload:
		return len(p.Metadata) == 0 && checked.valid(p.FinalWorkflowResult)
	}
	return false
}

// validRaws checks omitempty json.RawMessage fields of one run's
// chunks, remembering the few it checked last: a step's output is the
// next step's payload, checked once. Not safe for concurrent use.
type validRaws struct {
	recent [4]rawRef
	next   int
}

// rawRef names a json.RawMessage's bytes.
type rawRef struct {
	first *byte
	n     int
}

// valid reports whether b encodes: it is empty or valid JSON.
func (v *validRaws) valid(b json.RawMessage) bool {
	if len(b) == 0 {
		return true
	}
	ref := rawRef{&b[0], len(b)}
	for _, r := range v.recent {
		if r == ref {
			return true
		}
	}
	if !json.Valid(b) {
		return false
	}
	v.recent[v.next] = ref
	v.next = (v.next + 1) % len(v.recent)
	return true
}
