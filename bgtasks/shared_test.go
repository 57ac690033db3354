package bgtasks_test

import (
	"context"
	"iter"
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
	runner := start(t, bgtasks.Config{Store: open(), Lease: 600 * time.Millisecond, Owner: "runner"})
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

// TestStreamSeesOtherProcesses: a Manager's Stream yields the changes of
// tasks another Manager of the same SQLite file runs, each state once.
func TestStreamSeesOtherProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mastra.db")
	open := func() bgtasks.Store {
		s, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	runner := start(t, bgtasks.Config{Store: open(), Owner: "runner"})
	watcher := start(t, bgtasks.Config{Store: open(), Owner: "watcher", PollInterval: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var events []bgtasks.Event
	next, stop := iter.Pull2(watcher.Stream(ctx, bgtasks.StreamFilter{RunID: "run-1"}))
	defer stop()
	until := func(typ string) {
		t.Helper()
		for {
			e, err, ok := next()
			if !ok || err != nil {
				t.Fatalf("the stream ended before %s: %v (%s)", typ, err, types(events))
			}
			events = append(events, e)
			if e.Type == typ {
				return
			}
		}
	}
	tk := enqueue(t, runner, payload("a", "c1"), func(_ context.Context, call *bgtasks.Call) (any, error) {
		if call.ResumeData == nil {
			return nil, call.Suspend("wait")
		}
		return "resumed", nil
	})
	until(bgtasks.TypeSuspended)
	if err := watcher.Resume(context.Background(), tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	until(bgtasks.TypeCompleted)
	got := map[string]int{}
	for _, e := range events {
		if e.Task.ID != tk.ID {
			t.Errorf("event of task %s", e.Task.ID)
		}
		got[e.Type]++
	}
	if got[bgtasks.TypeSuspended] != 1 || got[bgtasks.TypeCompleted] != 1 || got[bgtasks.TypeRunning] > 1 || got[bgtasks.TypeResumed] > 1 {
		t.Errorf("the watcher's events of the other process's task: %s", types(events))
	}
	if last := events[len(events)-1]; string(last.Task.Result) != `"resumed"` {
		t.Errorf("completed with %s", last.Task.Result)
	}
}
