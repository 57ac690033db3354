package agent

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// TestSharedStoreObserveAndAbortFromAnotherAgent: two agents of one id
// sharing a store stand for two processes: the second follows the
// first's run through the store's event log, and its abort (by thread,
// then again by id) stops the run promptly while a tool runs.
func TestSharedStoreObserveAndAbortFromAnotherAgent(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	g := newGate()
	newReplica := func() *Agent {
		a, err := New(Config{ID: "durable-slow", Model: slowModel(), Tools: tools.Set{"slow_add": g.tool()}, Storage: store,
			Memory: &MemoryOptions{}, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a, b := newReplica(), newReplica()
	h, err := a.Start(ctx, "add slowly", WithRunID("run-x-1"), WithMemory("thread-x", "user-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarted(t, g)
	if owner, err := b.OwnerOfRun(ctx, "run-x-1"); err != nil || owner != (RunOwner{ThreadID: "thread-x", ResourceID: "user-1"}) {
		t.Fatalf("owner seen by b: %+v %v", owner, err)
	}
	got := make(chan []RunEvent, 1)
	go func() {
		events, _ := observeAll(t, b, "run-x-1", 0)
		got <- events
	}()
	if ok, err := b.AbortThread(ctx, ThreadAbort{ThreadID: "thread-x", ResourceID: "user-1", ExpectedRunID: "other"}); ok || err != nil {
		t.Fatalf("abort of another run id: %v %v", ok, err)
	}
	if ok, err := b.AbortThread(ctx, ThreadAbort{ThreadID: "thread-x", ResourceID: "user-1"}); !ok || err != nil {
		t.Fatalf("abort from b: %v %v", ok, err)
	}
	select {
	case cause := <-g.cause:
		if !errors.Is(cause, ErrRunAborted) {
			t.Errorf("cause %v", cause)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the tool on a did not see b's abort")
	}
	if ok, err := b.AbortRun(ctx, "run-x-1"); err != nil {
		t.Fatalf("second abort: %v %v", ok, err)
	}
	waitDone(t, h)
	events := <-got
	want := []string{"start", "step-start", "tool-call-input-streaming-start", "tool-call-delta",
		"tool-call-input-streaming-end", "tool-call", "tool-result", "step-finish", "finish"}
	if d := cmp.Diff(want, eventLabels(events)); d != "" {
		t.Fatalf("events b read (-want +got):\n%s", d)
	}
	if p, ok := events[len(events)-1].Chunk.Payload.(stream.FinishPayload); !ok || p.StepResult.Reason != "abort" {
		t.Errorf("finish: %+v", events[len(events)-1].Chunk)
	}
	if ok, _ := b.AbortRun(ctx, "run-x-1"); ok {
		t.Error("abort of the ended run: true")
	}
}
