package server

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/storage"
)

// lockedBuffer is a log's output, written and read from two goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// brokenAfterFirst is a run event store whose reads give the first
// event only, then fail.
type brokenAfterFirst struct{ storage.RunEvents }

func (b brokenAfterFirst) ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if from > 0 {
		return nil, errors.New("disk on fire")
	}
	events, err := b.RunEvents.ReadEvents(ctx, runID, from, limit)
	return events[:min(len(events), 1)], err
}

// TestObserveLogsAnErrorAfterItsFirstFrame: an observe stream whose
// store fails once frames were sent ends, and the failure is logged, as
// a run's stream failure is.
func TestObserveLogsAnErrorAfterItsFirstFrame(t *testing.T) {
	var logs lockedBuffer
	f := newFixture(t, withAgent(func(c *agent.Config) { c.Events = brokenAfterFirst{storage.NewMemoryEvents()} }),
		withOptions(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}))
	if resp, body := f.do(t, "POST", "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?","runId":"run-broken"}`); resp.StatusCode != 200 {
		t.Fatalf("stream: %d %s", resp.StatusCode, body)
	}
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/observe", `{"runId":"run-broken"}`)
	if frames := sseFrames(string(body)); resp.StatusCode != 200 || len(frames) != 1 {
		t.Fatalf("observe: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), "disk on fire") {
		t.Errorf("the failure is not logged: %q", logs.String())
	}
}
