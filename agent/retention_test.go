package agent

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
)

// countingEvents counts the sweeps of a shared run event store.
type countingEvents struct {
	storage.RunEvents
	sweeps atomic.Int32
}

func (c *countingEvents) DeleteEvents(ctx context.Context, old storage.OldEvents) (int, error) {
	c.sweeps.Add(1)
	return c.RunEvents.DeleteEvents(ctx, old)
}

// TestKeptEndedLogsAreStillSweptAtAPace: with ended logs kept
// (a negative EventRetention), the idle logs are still swept at most
// once per half idle retention, not on every run's end.
func TestKeptEndedLogsAreStillSweptAtAPace(t *testing.T) {
	events := &countingEvents{RunEvents: storage.NewMemoryEvents()}
	m := mock.New(mock.Step{Text: "one"}, mock.Step{Text: "two"}, mock.Step{Text: "three"})
	a := newAgent(t, m, nil, func(c *Config) { c.Events, c.EventRetention = events, -1 })
	for _, id := range []string{"r1", "r2", "r3"} {
		collect(t, a, "hi", WithRunID(id))
	}
	deadline := time.Now().Add(5 * time.Second)
	for events.sweeps.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // let any other sweep begin
	if n := events.sweeps.Load(); n != 1 {
		t.Errorf("%d sweeps after 3 runs, want 1", n)
	}
}
