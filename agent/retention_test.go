package agent

import (
	"context"
	"errors"
	"fmt"
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

// TestMemoryLogKeepsTheNewestEndedLogs: the in-process log keeps at most
// maxEndedMemoryLogs ended logs, dropping the oldest first, and never a
// running one.
func TestMemoryLogKeepsTheNewestEndedLogs(t *testing.T) {
	m := newMemoryLog()
	running := m.publisher("running", RunOwner{})
	running.publish(RunEvent{Type: RunEventChunk})
	for i := range maxEndedMemoryLogs + 5 {
		p := m.publisher(fmt.Sprintf("run-%d", i), RunOwner{})
		p.publish(RunEvent{Type: RunEventChunk})
		p.close(eventEnd)
	}
	if len(m.logs) != maxEndedMemoryLogs+1 || len(m.ended) != maxEndedMemoryLogs {
		t.Fatalf("kept %d logs, %d ended; want %d and %d", len(m.logs), len(m.ended), maxEndedMemoryLogs+1, maxEndedMemoryLogs)
	}
	for _, id := range []string{"run-0", "run-4"} {
		if _, err := m.owner(t.Context(), id); !errors.Is(err, ErrRunNotFound) {
			t.Errorf("%s: %v, want it dropped", id, err)
		}
	}
	for _, id := range []string{"running", "run-5", fmt.Sprintf("run-%d", maxEndedMemoryLogs+4)} {
		if _, err := m.owner(t.Context(), id); err != nil {
			t.Errorf("%s: %v, want it kept", id, err)
		}
	}
}
