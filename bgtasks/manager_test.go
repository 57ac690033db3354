package bgtasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage"
)

// start returns a started Manager of cfg, shut down at the test's end.
func start(t *testing.T, cfg bgtasks.Config) *bgtasks.Manager {
	t.Helper()
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 10 * time.Millisecond
	}
	m := bgtasks.New(cfg)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	})
	return m
}

func payload(agent, call string) bgtasks.TaskPayload {
	return bgtasks.TaskPayload{RunID: "run-1", AgentID: agent, ToolName: "tool", ToolCallID: call, Args: []byte(`{"q":1}`)}
}

func enqueue(t *testing.T, m *bgtasks.Manager, p bgtasks.TaskPayload, ex bgtasks.ExecutorFunc) bgtasks.Task {
	t.Helper()
	res, err := m.Enqueue(context.Background(), p, &bgtasks.Hooks{Executor: ex})
	if err != nil {
		t.Fatal(err)
	}
	return res.Task
}

// wait waits for the task to finish.
func wait(t *testing.T, m *bgtasks.Manager, id string) bgtasks.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := m.WaitForNextTask(ctx, []string{id})
	if err != nil {
		t.Fatalf("waiting for %s: %v", id, err)
	}
	return got
}

// waitStatus waits until the task has status s.
func waitStatus(t *testing.T, m *bgtasks.Manager, id string, s bgtasks.Status) bgtasks.Task {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := m.GetTask(context.Background(), id)
		if err == nil && got.Status == s {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: status %q, want %q", id, got.Status, s)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// blocker is an executor that runs until released or its ctx ends.
type blocker struct {
	release chan struct{}
	started chan string
}

func newBlocker() *blocker {
	return &blocker{release: make(chan struct{}), started: make(chan string, 100)}
}

func (b *blocker) run(ctx context.Context, call *bgtasks.Call) (any, error) {
	b.started <- call.Task.ID
	select {
	case <-b.release:
		return "done", nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestEnqueueRunsAndCompletes(t *testing.T) {
	m := start(t, bgtasks.Config{})
	var gotArgs string
	tk := enqueue(t, m, payload("a", "c1"), func(ctx context.Context, call *bgtasks.Call) (any, error) {
		gotArgs = string(call.Args)
		return map[string]string{"data": "hello"}, nil
	})
	if tk.Status != bgtasks.Pending || tk.ID == "" || tk.Timeout != bgtasks.DefaultTimeout {
		t.Errorf("Enqueue = %+v", tk)
	}
	done := wait(t, m, tk.ID)
	if done.Status != bgtasks.Completed || string(done.Result) != `{"data":"hello"}` || gotArgs != `{"q":1}` {
		t.Errorf("done = %s %s (args %s)", done.Status, done.Result, gotArgs)
	}
	if done.StartedAt.IsZero() || done.CompletedAt.IsZero() || done.Owner != "" {
		t.Errorf("done = %+v", done)
	}
}

func TestFailedToolAndNoExecutor(t *testing.T) {
	m := start(t, bgtasks.Config{})
	tk := enqueue(t, m, payload("a", "c1"), func(context.Context, *bgtasks.Call) (any, error) {
		return nil, errors.New("Tool broke")
	})
	if got := wait(t, m, tk.ID); got.Status != bgtasks.Failed || got.Error == nil || got.Error.Message != "Tool broke" {
		t.Errorf("failed task = %+v", got)
	}
	res, err := m.Enqueue(context.Background(), payload("a", "c2"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := wait(t, m, res.Task.ID); got.Status != bgtasks.Failed || got.Error.Message != `No executor registered for tool "tool". Register the tool on Mastra (so workers can resolve it cross-process) or run the task in the same process as the producer.` {
		t.Errorf("task without executor = %+v", got)
	}
}

func TestConcurrencyLimitsQueue(t *testing.T) {
	m := start(t, bgtasks.Config{GlobalConcurrency: 3, PerAgentConcurrency: 2})
	b := newBlocker()
	var tasks []bgtasks.Task
	for i, agent := range []string{"a1", "a1", "a2", "a2"} {
		tasks = append(tasks, enqueue(t, m, payload(agent, string(rune('0'+i))), b.run))
	}
	for range 3 {
		<-b.started
	}
	ctx := context.Background()
	running, _ := m.ListTasks(ctx, bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Running}})
	pending, _ := m.ListTasks(ctx, bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Pending}})
	if running.Total != 3 || pending.Total != 1 || pending.Tasks[0].ID != tasks[3].ID {
		t.Fatalf("running %d, pending %d; want 3 and the last one", running.Total, pending.Total)
	}
	b.release <- struct{}{} // one ends: the pending one starts
	if id := <-b.started; id != tasks[3].ID {
		t.Errorf("started %s, want the queued %s", id, tasks[3].ID)
	}
	close(b.release)
	for _, tk := range tasks {
		if got := wait(t, m, tk.ID); got.Status != bgtasks.Completed {
			t.Errorf("task %s: %s", tk.ID, got.Status)
		}
	}
}

func TestPerAgentLimitAndOverride(t *testing.T) {
	m := start(t, bgtasks.Config{PerAgentConcurrency: 2, AgentConcurrency: map[string]int{"solo": 1}})
	b := newBlocker()
	for i := range 3 {
		enqueue(t, m, payload("x", string(rune('0'+i))), b.run)
		enqueue(t, m, payload("solo", string(rune('a'+i))), b.run)
	}
	for range 3 {
		<-b.started
	}
	ctx := context.Background()
	x, _ := m.ListTasks(ctx, bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Running}, AgentID: "x"})
	solo, _ := m.ListTasks(ctx, bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Running}, AgentID: "solo"})
	if x.Total != 2 || solo.Total != 1 {
		t.Errorf("running: x %d (want 2), solo %d (want 1)", x.Total, solo.Total)
	}
	close(b.release)
}

func TestBackpressureRejectAndFallback(t *testing.T) {
	for _, mode := range []bgtasks.Backpressure{bgtasks.Reject, bgtasks.FallbackSync} {
		t.Run(string(mode), func(t *testing.T) {
			m := start(t, bgtasks.Config{GlobalConcurrency: 1, PerAgentConcurrency: 1, Backpressure: mode})
			b := newBlocker()
			defer close(b.release)
			enqueue(t, m, payload("a", "c1"), b.run)
			<-b.started
			res, err := m.Enqueue(context.Background(), payload("a", "c2"), &bgtasks.Hooks{Executor: bgtasks.ExecutorFunc(b.run)})
			if mode == bgtasks.Reject {
				if !errors.Is(err, bgtasks.ErrConcurrencyLimit) || !strings.Contains(err.Error(), `cannot enqueue task for tool "tool"`) {
					t.Errorf("Enqueue over the limit: %v", err)
				}
			} else if err != nil || !res.FallbackToSync {
				t.Errorf("Enqueue over the limit = %+v, %v; want FallbackToSync", res, err)
			}
			all, _ := m.ListTasks(context.Background(), bgtasks.Filter{})
			if all.Total != 1 {
				t.Errorf("%d task records, want 1 (the refused one not kept)", all.Total)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	m := start(t, bgtasks.Config{})
	p := payload("a", "c1")
	p.Timeout = 50 * time.Millisecond
	tk := enqueue(t, m, p, func(ctx context.Context, _ *bgtasks.Call) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	got := wait(t, m, tk.ID)
	if got.Status != bgtasks.TimedOut || got.Error == nil || got.Error.Message != "Task timed out after 50ms" {
		t.Errorf("timed out task = %s %+v", got.Status, got.Error)
	}
}

func TestRetries(t *testing.T) {
	m := start(t, bgtasks.Config{DefaultRetries: bgtasks.RetryConfig{RetryDelay: time.Millisecond}})
	var calls atomic.Int32
	three := 3
	p := payload("a", "c1")
	p.MaxRetries = &three
	tk := enqueue(t, m, p, func(context.Context, *bgtasks.Call) (any, error) {
		if calls.Add(1) < 3 {
			return nil, errors.New("Transient error")
		}
		return "success", nil
	})
	if got := wait(t, m, tk.ID); got.Status != bgtasks.Completed || string(got.Result) != `"success"` || calls.Load() != 3 || got.RetryCount != 2 {
		t.Errorf("got %s %s after %d calls, retryCount %d", got.Status, got.Result, calls.Load(), got.RetryCount)
	}
	calls.Store(0)
	two := 2
	p.MaxRetries = &two
	tk = enqueue(t, m, p, func(context.Context, *bgtasks.Call) (any, error) {
		calls.Add(1)
		return nil, errors.New("Always fails")
	})
	if got := wait(t, m, tk.ID); got.Status != bgtasks.Failed || calls.Load() != 3 {
		t.Errorf("got %s after %d calls, want failed after 3", got.Status, calls.Load())
	}
}

func TestCancel(t *testing.T) {
	m := start(t, bgtasks.Config{PerAgentConcurrency: 1})
	ctx := context.Background()
	b := newBlocker()
	running := enqueue(t, m, payload("a", "c1"), b.run)
	pending := enqueue(t, m, payload("a", "c2"), b.run)
	<-b.started
	if err := m.Cancel(ctx, pending.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.GetTask(ctx, pending.ID); got.Status != bgtasks.Cancelled {
		t.Errorf("pending task after Cancel: %s", got.Status)
	}
	if err := m.Cancel(ctx, running.ID); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, m, running.ID); got.Status != bgtasks.Cancelled || got.CompletedAt.IsZero() {
		t.Errorf("running task after Cancel: %+v", got)
	}
	done := enqueue(t, m, payload("a", "c3"), func(context.Context, *bgtasks.Call) (any, error) { return "done", nil })
	wait(t, m, done.ID)
	if err := m.Cancel(ctx, done.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.GetTask(ctx, done.ID); got.Status != bgtasks.Completed {
		t.Errorf("Cancel of a completed task made it %s", got.Status)
	}
	if err := m.Cancel(ctx, "nope"); err == nil || err.Error() != "Task not found: nope" || !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Cancel unknown: %v", err)
	}
	select {
	case id := <-b.started:
		t.Errorf("cancelled pending task %s ran", id)
	default:
	}
}

func TestSuspendResume(t *testing.T) {
	m := start(t, bgtasks.Config{GlobalConcurrency: 1})
	ctx := context.Background()
	var calls atomic.Int32
	tk := enqueue(t, m, payload("a", "c1"), func(_ context.Context, call *bgtasks.Call) (any, error) {
		calls.Add(1)
		if call.ResumeData == nil {
			call.Suspend(map[string]string{"awaiting": "approval"})
			return "ignored", nil
		}
		var d struct{ User string }
		json.Unmarshal(call.ResumeData, &d)
		return map[string]string{"approvedBy": d.User}, nil
	})
	got := waitStatus(t, m, tk.ID, bgtasks.Suspended)
	if string(got.SuspendPayload) != `{"awaiting":"approval"}` || got.Result != nil {
		t.Errorf("suspended = %+v", got)
	}
	// A suspended task frees its slot: another runs meanwhile.
	other := enqueue(t, m, payload("a", "c2"), func(context.Context, *bgtasks.Call) (any, error) { return 1, nil })
	wait(t, m, other.ID)
	if err := m.Resume(ctx, other.ID, nil); err == nil || err.Error() != "Cannot resume task in status 'completed'" {
		t.Errorf("Resume of a completed task: %v", err)
	}
	if err := m.Resume(ctx, tk.ID, map[string]string{"user": "alice"}); err != nil {
		t.Fatal(err)
	}
	got = wait(t, m, tk.ID)
	if got.Status != bgtasks.Completed || string(got.Result) != `{"approvedBy":"alice"}` || got.SuspendPayload != nil || calls.Load() != 2 {
		t.Errorf("resumed = %s %s %s after %d calls", got.Status, got.Result, got.SuspendPayload, calls.Load())
	}
}

func TestCancelSuspended(t *testing.T) {
	m := start(t, bgtasks.Config{})
	tk := enqueue(t, m, payload("a", "c1"), func(_ context.Context, call *bgtasks.Call) (any, error) {
		return nil, call.Suspend(nil)
	})
	waitStatus(t, m, tk.ID, bgtasks.Suspended)
	if err := m.Cancel(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, m, tk.ID); got.Status != bgtasks.Cancelled {
		t.Errorf("got %s", got.Status)
	}
}

func TestCallbacks(t *testing.T) {
	var mu sync.Mutex
	var log []string
	note := func(s string) func(bgtasks.Task) {
		return func(tk bgtasks.Task) { mu.Lock(); log = append(log, s+":"+string(tk.Status)); mu.Unlock() }
	}
	m := start(t, bgtasks.Config{OnTaskComplete: note("global"), OnTaskFailed: note("global")})
	ok, err := m.Enqueue(context.Background(), payload("a", "c1"), &bgtasks.Hooks{
		Executor:   bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return 1, nil }),
		OnComplete: note("task"),
	})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, m, ok.Task.ID)
	bad, _ := m.Enqueue(context.Background(), payload("a", "c2"), &bgtasks.Hooks{
		Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return nil, errors.New("oops") }),
		OnFailed: note("task"),
	})
	wait(t, m, bad.Task.ID)
	time.Sleep(10 * time.Millisecond) // the callbacks follow the record
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(log) // each task's callbacks run after its record is written
	if strings.Join(log, " ") != "global:completed global:failed task:completed task:failed" {
		t.Errorf("callbacks: %v", log)
	}
}

func TestCleanup(t *testing.T) {
	m := start(t, bgtasks.Config{Cleanup: &bgtasks.CleanupConfig{CompletedTTL: time.Millisecond, FailedTTL: time.Hour, Interval: time.Hour}})
	ok := enqueue(t, m, payload("a", "c1"), func(context.Context, *bgtasks.Call) (any, error) { return 1, nil })
	bad := enqueue(t, m, payload("a", "c2"), func(context.Context, *bgtasks.Call) (any, error) { return nil, errors.New("x") })
	wait(t, m, ok.ID)
	wait(t, m, bad.ID)
	time.Sleep(5 * time.Millisecond)
	if err := m.Cleanup(context.Background()); err != nil {
		t.Fatal(err)
	}
	left, _ := m.ListTasks(context.Background(), bgtasks.Filter{})
	if left.Total != 1 || left.Tasks[0].ID != bad.ID {
		t.Errorf("after cleanup: %d tasks", left.Total)
	}
}

func TestShutdownRejectsEnqueue(t *testing.T) {
	m := bgtasks.New(bgtasks.Config{})
	m.Start(context.Background())
	m.Shutdown(context.Background())
	if _, err := m.Enqueue(context.Background(), payload("a", "c1"), nil); !errors.Is(err, bgtasks.ErrShuttingDown) {
		t.Errorf("Enqueue after Shutdown: %v", err)
	}
}

// TestShutdownReleasesTasks: a Shutdown whose ctx ends aborts the
// executions and puts their tasks back to Pending for the next Manager.
func TestShutdownReleasesTasks(t *testing.T) {
	store := bgtasks.NewMemoryStore()
	m := bgtasks.New(bgtasks.Config{Store: store, PollInterval: 10 * time.Millisecond})
	m.Start(context.Background())
	b := newBlocker()
	tk := enqueue(t, m, payload("a", "c1"), b.run)
	<-b.started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := m.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown: %v", err)
	}
	got, _ := store.GetTask(context.Background(), tk.ID)
	if got.Status != bgtasks.Pending || got.RetryCount != 0 || got.Owner != "" {
		t.Errorf("released task = %+v", got)
	}
	m2 := start(t, bgtasks.Config{Store: store, Resolve: func(context.Context, bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return "again", nil }), true
	}})
	if got := wait(t, m2, tk.ID); got.Status != bgtasks.Completed || string(got.Result) != `"again"` {
		t.Errorf("taken up = %s %s", got.Status, got.Result)
	}
}

// TestTimeoutOfAnExecutorIgnoringCtx: a task whose executor does not
// stop at its deadline is timed out at the deadline all the same; its
// slot is free and its late result is not recorded.
func TestTimeoutOfAnExecutorIgnoringCtx(t *testing.T) {
	m := start(t, bgtasks.Config{GlobalConcurrency: 1})
	release := make(chan struct{})
	defer close(release)
	p := payload("a", "c1")
	p.Timeout = 20 * time.Millisecond
	stuck := enqueue(t, m, p, func(context.Context, *bgtasks.Call) (any, error) {
		<-release
		return "late", nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := m.WaitForNextTask(ctx, []string{stuck.ID})
	if err != nil || got.Status != bgtasks.TimedOut || got.Error.Message != "Task timed out after 20ms" {
		t.Fatalf("stuck task = %s, %v; want timed out at its deadline", got.Status, err)
	}
	next := enqueue(t, m, payload("a", "c2"), func(context.Context, *bgtasks.Call) (any, error) { return 1, nil })
	if got := wait(t, m, next.ID); got.Status != bgtasks.Completed {
		t.Errorf("the next task: %s", got.Status)
	}
}

// TestRejectBeforeStart: under Reject, a task enqueued before Start is
// queued (no slot can be known yet) and runs at Start, without delay.
func TestRejectBeforeStart(t *testing.T) {
	m := bgtasks.New(bgtasks.Config{Backpressure: bgtasks.Reject, PollInterval: 5 * time.Millisecond})
	res, err := m.Enqueue(context.Background(), payload("a", "c1"), &bgtasks.Hooks{
		Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return 1, nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := m.GetTask(context.Background(), res.Task.ID); got.Status != bgtasks.Pending {
		t.Fatalf("before Start the task is %s, want pending", got.Status)
	}
	m.Start(context.Background())
	defer m.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if got, err := m.WaitForNextTask(ctx, []string{res.Task.ID}); err != nil || got.Status != bgtasks.Completed {
		t.Errorf("after Start: %s, %v", got.Status, err)
	}
}

func TestWaitForNoTasks(t *testing.T) {
	m := start(t, bgtasks.Config{})
	if _, err := m.WaitForNextTask(context.Background(), nil); err == nil {
		t.Error("WaitForNextTask of no tasks did not fail")
	}
}
