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
// maxWantedEndedLogs ended logs a reader may come back to and
// maxDeliveredEndedLogs others, dropping the oldest first, and never a
// running one.
func TestMemoryLogKeepsTheNewestEndedLogs(t *testing.T) {
	m := newMemoryLog()
	running := m.publisher("running", RunOwner{})
	running.publish(RunEvent{Type: RunEventChunk})
	for i := range maxWantedEndedLogs + 5 {
		for _, kind := range []string{"wanted", "delivered"} {
			p := m.publisher(fmt.Sprintf("%s-%d", kind, i), RunOwner{})
			p.publish(RunEvent{Type: RunEventChunk})
			p.close(eventEnd, kind == "wanted")
		}
	}
	if len(m.logs) != maxWantedEndedLogs+maxDeliveredEndedLogs+1 || len(m.wanted) != maxWantedEndedLogs || len(m.delivered) != maxDeliveredEndedLogs {
		t.Fatalf("kept %d logs, %d wanted, %d delivered; want %d, %d and %d", len(m.logs), len(m.wanted), len(m.delivered),
			maxWantedEndedLogs+maxDeliveredEndedLogs+1, maxWantedEndedLogs, maxDeliveredEndedLogs)
	}
	last := maxWantedEndedLogs + 4
	for _, id := range []string{"wanted-0", "wanted-4", "delivered-0", fmt.Sprintf("delivered-%d", last-maxDeliveredEndedLogs)} {
		if _, err := m.owner(t.Context(), id); !errors.Is(err, ErrRunNotFound) {
			t.Errorf("%s: %v, want it dropped", id, err)
		}
	}
	for _, id := range []string{"running", "wanted-5", fmt.Sprintf("wanted-%d", last), fmt.Sprintf("delivered-%d", last-maxDeliveredEndedLogs+1)} {
		if _, err := m.owner(t.Context(), id); err != nil {
			t.Errorf("%s: %v, want it kept", id, err)
		}
	}
}

// TestMemoryLogKeepsAnObservedLog: a log read while its run ran is one a
// reader may come back to, whatever its run's own reader saw.
func TestMemoryLogKeepsAnObservedLog(t *testing.T) {
	m := newMemoryLog()
	observed := m.publisher("observed", RunOwner{})
	observed.publish(RunEvent{Type: RunEventChunk})
	if _, err := m.read(t.Context(), "observed", 0, 0); err != nil {
		t.Fatal(err)
	}
	observed.close(eventEnd, false)
	for i := range maxDeliveredEndedLogs + 1 {
		p := m.publisher(fmt.Sprintf("delivered-%d", i), RunOwner{})
		p.close(eventEnd, false)
	}
	if _, err := m.owner(t.Context(), "observed"); err != nil {
		t.Fatalf("observed: %v, want it kept", err)
	}
	if _, err := m.owner(t.Context(), "delivered-0"); !errors.Is(err, ErrRunNotFound) {
		t.Fatalf("delivered-0: %v, want it dropped", err)
	}
}
