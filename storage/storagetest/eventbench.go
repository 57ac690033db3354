package storagetest

import (
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// BenchAppendEvents benchmarks appending one event (a text chunk of
// about 100 bytes, as a model streams them) to a run's log on s, one
// append per iteration, all to one run, whose log grows as it goes.
// Each call uses a run of its own.
func BenchAppendEvents(b *testing.B, s storage.RunEvents) {
	ctx := b.Context()
	runID := "run-" + time.Now().Format("150405.000000000")
	e := storage.Event{Type: "text-delta", Data: rawf(`{"type":"text-delta","payload":{"id":"msg-1","text":"%s"}}`, "a few words of the answer, as a model streams them")}
	b.SetBytes(int64(len(e.Data)))
	b.ReportAllocs()
	var want int64
	for b.Loop() {
		first, err := s.AppendEvents(ctx, runID, e)
		if err != nil {
			b.Fatal(err)
		}
		if first != want {
			b.Fatalf("append got index %d, want %d", first, want)
		}
		want++
	}
}
