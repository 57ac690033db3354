package bgtasks_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/storage/sqlite"
)

var crashChild = crashtest.Harness{Test: "TestCrashChild", EnvVar: "BGTASKS_CRASH_CHILD"}

type crashEnv struct {
	DB    string
	Log   string
	Tasks int
}

const crashLease = 300 * time.Millisecond

// crashResolver runs every task as a 30ms piece of work that logs
// "<who>-start:<toolCallId>" and "<who>-end:<toolCallId>".
func crashResolver(who, log string) bgtasks.Resolver {
	return func(_ context.Context, t bgtasks.Task) (bgtasks.Executor, bool) {
		return bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
			crashtest.LogLine(log, who+"-start:"+t.ToolCallID)
			select {
			case <-time.After(30 * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			crashtest.LogLine(log, who+"-end:"+t.ToolCallID)
			return "done " + t.ToolCallID, nil
		}), true
	}
}

// TestCrashChild is the child of TestKilledProcessTasksFinishOnce: it
// enqueues the tasks on the SQLite file and runs them until killed.
func TestCrashChild(t *testing.T) {
	var env crashEnv
	crashChild.Payload(t, &env)
	store, err := sqlite.Open(context.Background(), env.DB)
	if err != nil {
		t.Fatal(err)
	}
	m := bgtasks.New(bgtasks.Config{
		Store: store, GlobalConcurrency: 4, PerAgentConcurrency: 4, Lease: crashLease,
		PollInterval: 50 * time.Millisecond, Owner: "child", Resolve: crashResolver("child", env.Log),
	})
	for i := range env.Tasks {
		retries := i % 2 // odd tasks have a retry
		if _, err := m.Enqueue(context.Background(), bgtasks.TaskPayload{
			RunID: "run", AgentID: "agent", ToolName: "work", ToolCallID: fmt.Sprintf("c%02d", i), MaxRetries: &retries,
		}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	fmt.Println("STARTED")
	select {} // until killed
}

// TestKilledProcessTasksFinishOnce: a process running background tasks
// on a SQLite file is killed (SIGKILL) in the middle of them; a new
// Manager over the same file brings every task to a terminal state, once:
// the tasks the dead process completed are not run again, the ones it
// was running are taken up after their lease (run again when they have a
// retry, else failed as Mastra fails them), the pending ones run, and no
// task is executed twice by the new Manager.
func TestKilledProcessTasksFinishOnce(t *testing.T) {
	dir := t.TempDir()
	env := crashEnv{DB: filepath.Join(dir, "mastra.db"), Log: filepath.Join(dir, "exec.log"), Tasks: 40}
	child := crashChild.Start(t, env)
	child.Await(t, "STARTED")
	waitLog(t, env.Log, "child-end:", 8)
	child.Kill(t)

	ctx := context.Background()
	store, err := sqlite.Open(ctx, env.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	atKill, _, err := store.ListTasks(ctx, bgtasks.Filter{})
	if err != nil || len(atKill) != env.Tasks {
		t.Fatalf("%d tasks at the kill, %v", len(atKill), err)
	}
	before := map[string]bgtasks.Task{}
	count := map[bgtasks.Status]int{}
	for _, tk := range atKill {
		before[tk.ToolCallID] = tk
		count[tk.Status]++
	}
	t.Logf("at the kill: %v", count)
	if count[bgtasks.Running] == 0 || count[bgtasks.Completed] == 0 || count[bgtasks.Pending] == 0 {
		t.Fatalf("killed at %v: want completed, running and pending tasks", count)
	}

	var mu sync.Mutex
	finished := map[string]int{}
	note := func(tk bgtasks.Task) { mu.Lock(); finished[tk.ToolCallID]++; mu.Unlock() }
	m := bgtasks.New(bgtasks.Config{
		Store: store, GlobalConcurrency: 4, PerAgentConcurrency: 4, Lease: crashLease, PollInterval: 50 * time.Millisecond,
		Owner: "parent", Resolve: crashResolver("parent", env.Log), OnTaskComplete: note, OnTaskFailed: note,
	})
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer m.Shutdown(ctx)
	after := waitAllTerminal(t, store, env.Tasks)
	mu.Lock()
	defer mu.Unlock()
	checkAfterCrash(t, env.Log, before, after, finished)
}

// checkAfterCrash checks each task's end after the crash against its
// state at the kill (before), the new Manager's executions in the log,
// and how many times it finished in the new Manager.
func checkAfterCrash(t *testing.T, log string, before map[string]bgtasks.Task, after []bgtasks.Task, finished map[string]int) {
	t.Helper()
	runs := map[string]int{}
	for _, w := range crashtest.LogLines(t, log) {
		if id, ok := strings.CutPrefix(w, "parent-start:"); ok {
			runs[id]++
		}
	}
	for _, tk := range after {
		id, was := tk.ToolCallID, before[tk.ToolCallID]
		if runs[id] > 1 {
			t.Errorf("%s executed %d times by the new manager", id, runs[id])
		}
		switch was.Status {
		case bgtasks.Completed, bgtasks.Failed:
			if runs[id] != 0 || finished[id] != 0 || tk.Status != was.Status || tk.Version != was.Version {
				t.Errorf("%s, %s at the kill, was run again (%d) or changed: %s", id, was.Status, runs[id], tk.Status)
			}
		case bgtasks.Running:
			want := bgtasks.Completed
			if was.MaxRetries == 0 {
				want = bgtasks.Failed
			}
			if tk.Status != want || finished[id] != 1 {
				t.Errorf("%s, running at the kill (retries %d): %s, finished %d times; want %s once", id, was.MaxRetries, tk.Status, finished[id], want)
			}
			if want == bgtasks.Failed && (tk.Error == nil || tk.Error.Message != "Worker process terminated before task completed" || runs[id] != 0) {
				t.Errorf("%s: failed with %+v after %d runs", id, tk.Error, runs[id])
			}
		case bgtasks.Pending:
			if tk.Status != bgtasks.Completed || runs[id] != 1 || finished[id] != 1 {
				t.Errorf("%s, pending at the kill: %s after %d runs", id, tk.Status, runs[id])
			}
		}
		if tk.Status == bgtasks.Completed && string(tk.Result) != `"done `+id+`"` {
			t.Errorf("%s: result %s", id, tk.Result)
		}
	}
}

// waitLog waits until the log holds n words starting with prefix.
func waitLog(t *testing.T, path, prefix string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		got := 0
		for _, w := range crashtest.LogLines(t, path) {
			if strings.HasPrefix(w, prefix) {
				got++
			}
		}
		if got >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the log never had %d %q", n, prefix)
}

// waitAllTerminal waits until the store's n tasks are all finished and
// returns them.
func waitAllTerminal(t *testing.T, store bgtasks.Store, n int) []bgtasks.Task {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		all, _, err := store.ListTasks(context.Background(), bgtasks.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		done := 0
		for _, tk := range all {
			if tk.Status.Terminal() {
				done++
			}
		}
		if done == n && len(all) == n {
			return all
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d tasks finished", done, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
