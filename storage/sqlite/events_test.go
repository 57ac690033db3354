package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/storagetest"
)

func TestEventLogFile(t *testing.T) {
	storagetest.RunEventLog(t, func(t *testing.T) storage.RunEvents {
		return openT(t, filepath.Join(t.TempDir(), "mastra.db"))
	})
}

func TestEventLogMemory(t *testing.T) {
	storagetest.RunEventLog(t, func(t *testing.T) storage.RunEvents { return openT(t, Memory) })
}

// TestEventsAcrossStores: a Store following a log another Store (another
// process) of the same file appends to sees its events: indexes stay
// contiguous, and its WaitEvents returns (by its periodic check).
func TestEventsAcrossStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	a, b := openT(t, path), openT(t, path)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	waited := make(chan error, 1)
	go func() { waited <- b.WaitEvents(ctx, "run", -1) }()
	if first, err := a.AppendEvents(ctx, "run", storage.Event{Type: "chunk"}); err != nil || first != 0 {
		t.Fatalf("append through a: %d, %v", first, err)
	}
	if err := <-waited; err != nil {
		t.Fatalf("WaitEvents through b: %v", err)
	}
	if first, err := b.AppendEvents(ctx, "run", storage.Event{Type: "chunk"}); err != nil || first != 1 {
		t.Fatalf("append through b: %d, %v", first, err)
	}
	got, err := a.ReadEvents(ctx, "run", 0, 0)
	if err != nil || len(got) != 2 || got[1].Index != 1 {
		t.Fatalf("events read through the other store: %+v, %v", got, err)
	}
}

// BenchmarkAppendEvents appends one event per iteration (see
// storagetest.BenchAppendEvents), to a file (each append fsynced) and in
// memory.
func BenchmarkAppendEvents(b *testing.B) {
	for _, tc := range []struct{ name, dsn string }{{"file", ""}, {"memory", Memory}} {
		b.Run(tc.name, func(b *testing.B) {
			dsn := tc.dsn
			if dsn == "" {
				dsn = filepath.Join(b.TempDir(), "mastra.db")
			}
			s, err := Open(b.Context(), dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			storagetest.BenchAppendEvents(b, s)
		})
	}
}
