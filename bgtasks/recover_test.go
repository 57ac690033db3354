package bgtasks_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// staleTask is a task a dead Manager ("dead") left Running, its lease
// lapsed.
func staleTask(id string, maxRetries int) bgtasks.Task {
	now := time.Now().UTC()
	return bgtasks.Task{
		ID: id, Status: bgtasks.Running, ToolName: "tool", ToolCallID: "c-" + id, Args: json.RawMessage(`{}`),
		AgentID: "a", RunID: "r", CreatedAt: now.Add(-time.Minute), StartedAt: now.Add(-time.Minute),
		MaxRetries: maxRetries, Timeout: time.Minute, Owner: "dead", LeaseUntil: now.Add(-time.Second),
	}
}

func TestRecoveryAtStart(t *testing.T) {
	ctx := context.Background()
	store := bgtasks.NewMemoryStore()
	suspended := staleTask("suspended", 1)
	suspended.Status, suspended.Owner, suspended.SuspendPayload = bgtasks.Suspended, "", json.RawMessage(`{"checkpoint":1}`)
	done := staleTask("done", 1)
	done.Status, done.Owner, done.Result = bgtasks.Completed, "", json.RawMessage(`"first"`)
	alive := staleTask("alive", 0)
	alive.Owner, alive.LeaseUntil = "alive", time.Now().Add(time.Hour)
	for _, tk := range []bgtasks.Task{staleTask("retry", 1), staleTask("noretry", 0), suspended, done, alive} {
		if err := store.CreateTask(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	var runs atomic.Int32
	m := start(t, bgtasks.Config{Store: store, Resolve: func(_ context.Context, tk bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) {
			runs.Add(1)
			return "recovered " + tk.ID, nil
		}), true
	}})
	if got := wait(t, m, "retry"); got.Status != bgtasks.Completed || string(got.Result) != `"recovered retry"` || got.RetryCount != 1 {
		t.Errorf("task with a retry left = %s %s (retries %d)", got.Status, got.Result, got.RetryCount)
	}
	if got := wait(t, m, "noretry"); got.Status != bgtasks.Failed || got.Error.Message != "Worker process terminated before task completed" {
		t.Errorf("task without retries = %s %+v", got.Status, got.Error)
	}
	time.Sleep(30 * time.Millisecond) // a few polls
	if got, _ := m.GetTask(ctx, "suspended"); got.Status != bgtasks.Suspended || string(got.SuspendPayload) != `{"checkpoint":1}` {
		t.Errorf("suspended task = %s", got.Status)
	}
	if got, _ := m.GetTask(ctx, "done"); got.Status != bgtasks.Completed || string(got.Result) != `"first"` {
		t.Errorf("completed task = %s %s", got.Status, got.Result)
	}
	if got, _ := m.GetTask(ctx, "alive"); got.Status != bgtasks.Running || got.Owner != "alive" {
		t.Errorf("task of a live manager = %s %s", got.Status, got.Owner)
	}
	if runs.Load() != 1 {
		t.Errorf("%d executions, want 1", runs.Load())
	}
}

// TestRecoveryOfOwnTasks: a Manager restarted with its Owner takes up
// its Running tasks at once, without waiting for their leases.
func TestRecoveryOfOwnTasks(t *testing.T) {
	store := bgtasks.NewMemoryStore()
	tk := staleTask("mine", 1)
	tk.Owner, tk.LeaseUntil = "me", time.Now().Add(time.Hour)
	store.CreateTask(context.Background(), tk)
	m := start(t, bgtasks.Config{Store: store, Owner: "me", Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return 1, nil }), true
	}})
	if got := wait(t, m, "mine"); got.Status != bgtasks.Completed {
		t.Errorf("got %s", got.Status)
	}
}

// TestLapsedLeaseTakenOver: a Manager that stops renewing (its process
// hangs) loses its task to another Manager after the lease, and its own
// late result is not recorded.
func TestLapsedLeaseTakenOver(t *testing.T) {
	store := bgtasks.NewMemoryStore()
	release := make(chan struct{})
	slowCfg := bgtasks.Config{Store: store, Lease: time.Hour, PollInterval: time.Hour}
	slow := start(t, slowCfg)
	tk := enqueue(t, slow, payload("a", "c1"), func(ctx context.Context, _ *bgtasks.Call) (any, error) {
		<-release
		return "late", nil
	})
	got := waitStatus(t, slow, tk.ID, bgtasks.Running)
	// Its lease lapses (as if it had stopped renewing).
	got.LeaseUntil = time.Now().Add(-time.Second)
	if _, err := store.UpdateTask(context.Background(), got); err != nil {
		t.Fatal(err)
	}
	fresh := start(t, bgtasks.Config{Store: store, Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return "fresh", nil }), true
	}})
	final := wait(t, fresh, tk.ID)
	close(release)
	time.Sleep(20 * time.Millisecond)
	if after, _ := store.GetTask(context.Background(), tk.ID); final.Status != bgtasks.Failed || after.Status != bgtasks.Failed || after.Error.Message != "Worker process terminated before task completed" {
		t.Errorf("task = %s then %s %s", final.Status, after.Status, after.Result)
	}
}

// TestOwnExecutorTasksStayWithTheirProducer: a task enqueued with an
// executor of its own is left to its Manager by another Manager of the
// store that cannot resolve one, and taken by one that can.
func TestOwnExecutorTasksStayWithTheirProducer(t *testing.T) {
	store := bgtasks.NewMemoryStore()
	producer := bgtasks.New(bgtasks.Config{Store: store, Owner: "producer", PollInterval: 5 * time.Millisecond})
	res, err := producer.Enqueue(context.Background(), payload("a", "c1"), &bgtasks.Hooks{
		Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return "mine", nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	other := start(t, bgtasks.Config{Store: store, Owner: "other"})
	time.Sleep(30 * time.Millisecond) // several polls of the other Manager
	if got, _ := store.GetTask(context.Background(), res.Task.ID); got.Status != bgtasks.Pending {
		t.Fatalf("a Manager without an executor took the task: %s", got.Status)
	}
	if err := producer.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer producer.Shutdown(context.Background())
	if got := wait(t, other, res.Task.ID); got.Status != bgtasks.Completed || string(got.Result) != `"mine"` {
		t.Errorf("task = %s %s", got.Status, got.Result)
	}
	gone := bgtasks.New(bgtasks.Config{Store: store, Owner: "gone"}) // enqueues, never runs
	res2, _ := gone.Enqueue(context.Background(), payload("a", "c2"), &bgtasks.Hooks{
		Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return "mine", nil }),
	})
	resolver := start(t, bgtasks.Config{Store: store, Owner: "resolver", Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return "resolved", nil }), true
	}})
	if got := wait(t, resolver, res2.Task.ID); got.Status != bgtasks.Completed || string(got.Result) != `"resolved"` {
		t.Errorf("second task = %s %s", got.Status, got.Result)
	}
}
