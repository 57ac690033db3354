package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/storage/storagetest"
)

func TestEventLog(t *testing.T) {
	storagetest.RunEventLog(t, func(t *testing.T) storage.RunEvents { return openT(t, pgtest.DSN(t)) })
}

// TestEventsAcrossReplicas: a Store (a replica, another process) waiting
// on a run's log wakes when another Store of the database appends to it,
// well before its periodic check, through LISTEN/NOTIFY; and the two
// Stores' appends to one log get contiguous indexes.
func TestEventsAcrossReplicas(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openT(t, dsn), openT(t, dsn)
	ctx, cancel := context.WithTimeout(t.Context(), eventPoll/2) // a wake by the poll would be too late
	defer cancel()
	for i := range 3 {
		waited := make(chan error, 1)
		go func() { waited <- b.WaitEvents(ctx, "run", int64(i)-1) }()
		time.Sleep(20 * time.Millisecond) // let b wait (the test passes either way)
		if first, err := a.AppendEvents(ctx, "run", storage.Event{Type: "chunk"}); err != nil || first != int64(i) {
			t.Fatalf("append %d through a: %d, %v", i, first, err)
		}
		if err := <-waited; err != nil {
			t.Fatalf("WaitEvents %d through b: %v (no notification?)", i, err)
		}
	}
	if first, err := b.AppendEvents(ctx, "run", storage.Event{Type: storage.EventEnd}); err != nil || first != 3 {
		t.Fatalf("end through b: %d, %v", first, err)
	}
	if _, err := a.AppendEvents(ctx, "run", storage.Event{Type: "late"}); err == nil {
		t.Fatal("append through a after b ended the log: no error")
	}
}

// BenchmarkAppendEvents appends one event per iteration (see
// storagetest.BenchAppendEvents). The scratch cluster runs with fsync
// off.
func BenchmarkAppendEvents(b *testing.B) {
	s, err := Open(b.Context(), pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storagetest.BenchAppendEvents(b, s)
}
