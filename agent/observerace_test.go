package agent_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
)

// staleOnce is a run event log whose first read from index from (with a
// limit) answers nothing, as a read made just before the run's last
// appends does when they land before the reader's next read.
type staleOnce struct {
	storage.RunEvents
	from  int64
	stale atomic.Bool
}

func (s *staleOnce) ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if from == s.from && limit > 0 && s.stale.CompareAndSwap(true, false) {
		return nil, nil
	}
	return s.RunEvents.ReadEvents(ctx, runID, from, limit)
}

// TestObserveReadsEventsAppendedWhileItChecksTheOffset: a reader whose
// first read at its offset raced the run's last appends (read nothing,
// then the run appended its remaining events and ended) still reads
// those events: the offset is below the ended log's count, so the
// reading is not over.
func TestObserveReadsEventsAppendedWhileItChecksTheOffset(t *testing.T) {
	events := &staleOnce{RunEvents: storage.NewMemoryEvents(), from: 3}
	a, err := agent.New(reconnectConfig(events))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, err := range a.Stream(ctx, "hi", agent.WithRunID("run-race-1")) {
		if err != nil {
			t.Fatal(err)
		}
	}
	all := observed(ctx, t, a, "run-race-1", 0)
	events.stale.Store(true)
	rest := observed(ctx, t, a, "run-race-1", 3)
	if len(rest) != len(all)-3 || rest[0].Index != 3 || rest[len(rest)-1].Type != agent.RunEventFinish {
		t.Fatalf("from offset 3 of %d events: read %d", len(all), len(rest))
	}
}

func reconnectConfig(events storage.RunEvents) agent.Config {
	return agent.Config{ID: "race-agent", Model: mock.New(mock.Step{Text: "one two three four five six"}), Events: events}
}

func observed(ctx context.Context, t *testing.T, a *agent.Agent, runID string, offset int64) []agent.RunEvent {
	t.Helper()
	var out []agent.RunEvent
	for e, err := range a.Observe(ctx, runID, offset) {
		if err != nil {
			t.Fatalf("observe %s from %d: %v", runID, offset, err)
		}
		out = append(out, e)
	}
	return out
}
