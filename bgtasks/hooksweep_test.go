package bgtasks

import (
	"context"
	"testing"
	"time"
)

// TestHooksDroppedWhenAnotherManagerFinishes: the hooks Enqueue was
// given are dropped when another Manager sharing the store ends the task
// (here: cancels it while this one runs it), not kept for as long as
// this Manager lives.
func TestHooksDroppedWhenAnotherManagerFinishes(t *testing.T) {
	store := NewMemoryStore()
	runner := New(Config{Store: store, Owner: "runner", Lease: 60 * time.Millisecond, PollInterval: 5 * time.Millisecond})
	other := New(Config{Store: store, Owner: "other", PollInterval: 5 * time.Millisecond})
	for _, m := range []*Manager{runner, other} {
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer m.Shutdown(context.Background())
	}
	started := make(chan struct{})
	block := ExecutorFunc(func(ctx context.Context, _ *Call) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	res, err := runner.Enqueue(context.Background(), TaskPayload{ToolName: "tool", AgentID: "a"}, &Hooks{Executor: block})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := other.Cancel(context.Background(), res.Task.ID); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); runner.hooksOf(res.Task.ID) != nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the runner still keeps the hooks of a task another manager cancelled")
		}
	}
}
