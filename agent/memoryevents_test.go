package agent

import (
	"reflect"
	"testing"

	"github.com/gomastra/mastra/stream"
)

// TestEventBlocksIndexing: every event of a log of any length is found
// at its index, across the doubling blocks.
func TestEventBlocksIndexing(t *testing.T) {
	var l eventBlocks
	for i := range 2000 {
		l.add(memoryEvent{at: int64(i)})
		for _, j := range []int{0, i / 2, i} {
			if got := l.at(int64(j)).at; got != int64(j) {
				t.Fatalf("after %d events: at(%d) holds event %d", i+1, j, got)
			}
		}
	}
	if l.n != 2000 {
		t.Fatalf("n = %d", l.n)
	}
}

// TestCompactEventRoundTrip: what a memory log keeps of an event gives
// back the same event, whether it is kept compact or whole.
func TestCompactEventRoundTrip(t *testing.T) {
	const runID = "run-1"
	it := &Iteration{Iteration: 2, RunID: runID}
	for name, e := range map[string]RunEvent{
		"compact":      {Type: RunEventChunk, Chunk: stream.Chunk{Type: stream.TypeTextDelta, RunID: runID, From: stream.FromAgent, Payload: stream.TextPayload{Text: "hi"}}},
		"step-start":   {Type: RunEventStepStart, Chunk: stream.Chunk{Type: stream.TypeStepStart, RunID: runID, From: stream.FromAgent}},
		"no source":    {Type: RunEventChunk, Chunk: stream.Chunk{Type: "data-x", RunID: runID}},
		"metadata":     {Type: RunEventChunk, Chunk: stream.Chunk{Type: stream.TypeTextDelta, RunID: runID, From: stream.FromAgent, Metadata: map[string]any{"k": "v"}}},
		"other run":    {Type: RunEventFinish, Chunk: stream.Chunk{Type: stream.TypeFinish, RunID: "run-2", From: stream.FromAgent}},
		"other source": {Type: RunEventChunk, Chunk: stream.Chunk{Type: stream.TypeTextDelta, RunID: runID, From: "TOOL"}},
		"iteration":    {Type: RunEventIterationComplete, Iteration: it},
		"end":          {Type: eventEnd},
	} {
		me := compactEvent(&e, runID)
		got := me.runEvent(7, runID)
		e.Index, e.CreatedAt = 7, got.CreatedAt
		if !reflect.DeepEqual(got, e) {
			t.Errorf("%s: kept %+v, gave back %+v", name, e, got)
		}
	}
}
