package agent

import (
	"math/bits"
	"time"

	"github.com/gomastra/mastra/stream"
)

// memoryEvent is one event of an in-process log, in 48 bytes: a chunk's
// type, source and payload (the run's id is the log's), or a whole chunk
// when it has other fields, or an event that is not a chunk (an
// iteration, whose summary is the payload; the log's end or pause), and
// when it was appended.
type memoryEvent struct {
	// typ is the chunk's type, or the event's for an event that is not a
	// chunk; "" for a whole chunk (payload is then its *stream.Chunk).
	typ     string
	payload any
	at      int64 // since clockBase
	from    uint8 // the chunk's source: an index of fromCodes
}

// fromCodes are the chunk sources a memoryEvent names by index; a chunk
// from another is kept whole.
var fromCodes = [...]stream.From{"", stream.FromAgent, stream.FromUser, stream.FromSystem, stream.FromWorkflow, stream.FromNetwork}

func fromCode(f stream.From) (uint8, bool) {
	for i, c := range fromCodes {
		if c == f {
			return uint8(i), true
		}
	}
	return 0, false
}

// compactEvent is e as a memory log keeps it (its time is set on
// append), for the log of run runID.
func compactEvent(e *RunEvent, runID string) memoryEvent {
	switch {
	case e.Iteration != nil:
		return memoryEvent{typ: e.Type, payload: e.Iteration}
	case e.Type == eventEnd || e.Type == eventPause:
		return memoryEvent{typ: e.Type}
	}
	return compactChunk(&e.Chunk, runID)
}

// compactChunk is chunk c as a memory log keeps it: compact when it has
// only a type, its run's id, a known source and a payload, else whole.
func compactChunk(c *stream.Chunk, runID string) memoryEvent {
	if c.Type != "" && c.Metadata == nil && c.Data == nil && c.ID == "" && !c.Transient && c.Object == nil && c.RunID == runID {
		if from, ok := fromCode(c.From); ok {
			return memoryEvent{typ: c.Type, from: from, payload: c.Payload}
		}
	}
	whole := *c
	return memoryEvent{payload: &whole}
}

// runEvent is the event as Observe yields it, at index i of the log of
// run runID.
func (me *memoryEvent) runEvent(i int64, runID string) RunEvent {
	e := RunEvent{Index: i, Type: me.typ, CreatedAt: clockBase.Add(time.Duration(me.at)).UTC().Round(0)}
	switch {
	case me.typ == "":
		whole := me.payload.(*stream.Chunk)
		e.Type, e.Chunk = eventTypeOf(whole.Type), *whole
	case me.typ == RunEventIterationComplete:
		e.Iteration, _ = me.payload.(*Iteration)
	case me.typ != eventEnd && me.typ != eventPause:
		e.Type, e.Chunk = eventTypeOf(me.typ), stream.Chunk{Type: me.typ, RunID: runID, From: fromCodes[me.from], Payload: me.payload}
	}
	return e
}

// eventBlocks is a log's events, in blocks that are never copied: block
// b holds firstBlock<<b events (most runs need one or two), only the
// last one grows.
type eventBlocks struct {
	blocks [][]memoryEvent
	n      int64
	first  [4][]memoryEvent // blocks' array while it has room
}

const firstBlock = 24

// add appends e in the last block, or a new one when it is full.
func (l *eventBlocks) add(e memoryEvent) {
	switch n := len(l.blocks); {
	case n == 0:
		l.blocks = append(l.first[:0], make([]memoryEvent, 0, firstBlock))
	case len(l.blocks[n-1]) == cap(l.blocks[n-1]):
		l.blocks = append(l.blocks, make([]memoryEvent, 0, firstBlock<<n))
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, e)
	l.n++
}

// at is the event of index i (0 <= i < l.n).
func (l *eventBlocks) at(i int64) *memoryEvent {
	b := bits.Len64(uint64(i)/firstBlock+1) - 1
	return &l.blocks[b][i-firstBlock*(1<<b-1)]
}
