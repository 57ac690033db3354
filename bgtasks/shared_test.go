package bgtasks_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage/sqlite"
)

// TestCancelFromAnotherProcess: a Manager cancels a task another Manager
// of the same SQLite file runs; the running execution's context ends at
// that Manager's next lease renewal, and the task stays cancelled.
func TestCancelFromAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	open := func() bgtasks.Store {
		s, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	stopped := make(chan error, 1)
	runner := start(t, bgtasks.Config{Store: open(), Lease: 150 * time.Millisecond, Owner: "runner"})
	tk := enqueue(t, runner, payload("a", "c1"), func(ctx context.Context, _ *bgtasks.Call) (any, error) {
		<-ctx.Done()
		stopped <- context.Cause(ctx)
		return "late", nil
	})
	waitStatus(t, runner, tk.ID, bgtasks.Running)
	other := start(t, bgtasks.Config{Store: open(), Owner: "other"})
	if err := other.Cancel(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the execution went on after its task was cancelled elsewhere")
	}
	time.Sleep(20 * time.Millisecond)
	got, err := other.GetTask(context.Background(), tk.ID)
	if err != nil || got.Status != bgtasks.Cancelled || got.Result != nil {
		t.Errorf("task = %s %s, %v; want cancelled without a result", got.Status, got.Result, err)
	}
}
