package reconnecttest

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
)

// benchDeltas is how many text deltas a benchmarked run streams.
const benchDeltas = 100

// BenchStreamEventLog measures what a streamed run costs per chunk with
// its event log in events (nil: the agent's in-memory log): each
// iteration streams a one-step run of 100 text deltas to its end, which
// includes the log's last append. It reports ns/chunk (the run's time
// over the chunks it yielded). The agent has no other storage, so the
// difference between logs is the log's.
func BenchStreamEventLog(b *testing.B, events storage.RunEvents) {
	m := mock.New(mock.Step{TextChunks: strings.Split(strings.Repeat("word ", benchDeltas), " ")[:benchDeltas]}).RepeatLast()
	a, err := agent.New(agent.Config{ID: "bench-agent", Model: m, Events: events, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	chunks := 0
	b.ReportAllocs()
	for b.Loop() {
		for _, err := range a.Stream(ctx, "go") {
			if err != nil {
				b.Fatal(err)
			}
			chunks++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(chunks), "ns/chunk")
}

// Discard is a run event log that keeps nothing: with it, a run pays
// for encoding and handing over its events, not for storing them.
type Discard struct{}

// AppendEvents implements storage.RunEvents; it keeps nothing.
func (Discard) AppendEvents(context.Context, string, ...storage.Event) (int64, error) { return 0, nil }

// ReadEvents implements storage.RunEvents; it has nothing.
func (Discard) ReadEvents(context.Context, string, int64, int) ([]storage.Event, error) {
	return nil, nil
}

// WaitEvents implements storage.RunEvents: nothing comes, so it waits
// for ctx's end.
func (Discard) WaitEvents(ctx context.Context, _ string, _ int64) error {
	<-ctx.Done()
	return ctx.Err()
}

// DeleteEvents implements storage.RunEvents; it has nothing to delete.
func (Discard) DeleteEvents(context.Context, storage.OldEvents) (int, error) { return 0, nil }
