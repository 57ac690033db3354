package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gomastra/mastra/internal/reconnecttest"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

// BenchmarkStreamEventLog measures a streamed run's cost per chunk with
// its event log on PostgreSQL (see reconnecttest.BenchStreamEventLog;
// the root module's benchmark of the same name has the other logs). The
// scratch cluster runs with fsync off.
func BenchmarkStreamEventLog(b *testing.B) {
	b.Run("postgres", func(b *testing.B) {
		reconnecttest.BenchStreamEventLog(b, openStore(b, pgtest.DSN(b)))
	})
}

// BenchmarkReplicaEventLatency measures how soon a follower on one
// replica sees an event another replica appends: each iteration, the
// follower (its own Store) waits with WaitEvents; the other Store appends
// one event; the time from the start of the append to the follower
// having read the event is one sample. It reports the samples' median
// and 99th percentile (µs) and the append's own median (append-µs): the
// rest is the notification's way through the database and the read.
func BenchmarkReplicaEventLatency(b *testing.B) {
	dsn := pgtest.DSN(b)
	writer, follower := openStore(b, dsn), openStore(b, dsn)
	ctx := context.Background()
	runID := "latency"
	seen, followed := make(chan time.Time), make(chan struct{})
	go func() {
		defer close(followed)
		follow(ctx, b, follower, runID, seen)
	}()
	var latency, appends []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := writer.AppendEvents(ctx, runID, storage.Event{Type: "chunk", Data: []byte(`{"n":1}`)}); err != nil {
			b.Fatal(err)
		}
		appends = append(appends, time.Since(start))
		select {
		case t := <-seen:
			latency = append(latency, t.Sub(start))
		case <-followed:
			b.Fatal("the follower stopped")
		}
	}
	if _, err := writer.AppendEvents(ctx, runID, storage.Event{Type: storage.EventEnd}); err != nil {
		b.Fatal(err)
	}
	<-followed
	b.ReportMetric(quantileMicros(latency, 0.5), "median-µs")
	b.ReportMetric(quantileMicros(latency, 0.99), "p99-µs")
	b.ReportMetric(quantileMicros(appends, 0.5), "append-µs")
}

// follow reads the run's events as they come, sending the time it read
// each on seen, until the log ends.
func follow(ctx context.Context, b *testing.B, s storage.RunEvents, runID string, seen chan<- time.Time) {
	next := int64(0)
	for {
		if err := s.WaitEvents(ctx, runID, next-1); err != nil {
			b.Error(err)
			return
		}
		events, err := s.ReadEvents(ctx, runID, next, 0)
		if err != nil {
			b.Error(err)
			return
		}
		now := time.Now()
		for _, e := range events {
			if e.Type == storage.EventEnd {
				return
			}
			seen <- now
			next = e.Index + 1
		}
	}
}

// quantileMicros is the q-quantile of ds, in microseconds.
func quantileMicros(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[int(q*float64(len(s)-1))].Nanoseconds()) / 1e3
}
