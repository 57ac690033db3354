package postgres

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/bgtasks/bgtaskstest"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
)

func TestBackgroundTasks(t *testing.T) {
	bgtaskstest.Run(t, func(t *testing.T) bgtasks.Store { return openT(t, pgtest.DSN(t)) })
}

// TestBackgroundTasksAcrossStores: claims through two Stores of one
// database (two processes) take each task once, within one global limit.
func TestBackgroundTasksAcrossStores(t *testing.T) {
	dsn := pgtest.DSN(t)
	bgtaskstest.RunShared(t, openT(t, dsn), openT(t, dsn))
}

// TestTwoManagersOneDatabase: two Managers, each on its own Store of one
// database (two processes), run 60 tasks between them: every task runs
// exactly once, and never more than the global limit run at once across
// both.
func TestTwoManagersOneDatabase(t *testing.T) {
	dsn := pgtest.DSN(t)
	ctx := context.Background()
	var mu sync.Mutex
	runs := map[string]int{}
	var now, high atomic.Int32
	var work func(tk bgtasks.Task) (any, error)
	var perManager [2]atomic.Int32
	workOf := func(i int) bgtasks.Resolver {
		return func(_ context.Context, tk bgtasks.Task) (bgtasks.Executor, bool) {
			return bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
				perManager[i].Add(1)
				return work(tk)
			}), true
		}
	}
	work = func(tk bgtasks.Task) (any, error) {
		n := now.Add(1)
		defer now.Add(-1)
		for m := high.Load(); n > m && !high.CompareAndSwap(m, n); m = high.Load() {
		}
		mu.Lock()
		runs[tk.ToolCallID]++
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		return tk.ToolCallID, nil
	}
	var managers []*bgtasks.Manager
	for i := range 2 {
		m := bgtasks.New(bgtasks.Config{
			Store: openT(t, dsn), GlobalConcurrency: 4, PerAgentConcurrency: 4,
			PollInterval: 5 * time.Millisecond, Owner: fmt.Sprintf("m%d", i), Resolve: workOf(i),
		})
		if err := m.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer m.Shutdown(ctx)
		managers = append(managers, m)
	}
	var ids []string
	for i := range 60 {
		res, err := managers[i%2].Enqueue(ctx, bgtasks.TaskPayload{RunID: "r", AgentID: fmt.Sprintf("a%d", i%3), ToolName: "w", ToolCallID: fmt.Sprintf("c%02d", i)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Task.ID)
	}
	for _, id := range ids {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		tk, err := managers[0].WaitForNextTask(wctx, []string{id})
		cancel()
		if err != nil || tk.Status != bgtasks.Completed || string(tk.Result) != `"`+tk.ToolCallID+`"` {
			t.Fatalf("task %s: %s %s, %v", id, tk.Status, tk.Result, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range 60 {
		if n := runs[fmt.Sprintf("c%02d", i)]; n != 1 {
			t.Errorf("task c%02d ran %d times", i, n)
		}
	}
	if high.Load() > 4 {
		t.Errorf("%d tasks ran at once across both managers, want at most 4", high.Load())
	}
	if perManager[0].Load() == 0 || perManager[1].Load() == 0 {
		t.Errorf("executions per manager: %d and %d, want both to run tasks", perManager[0].Load(), perManager[1].Load())
	}
	t.Logf("high-water mark %d across both managers; executions %d and %d", high.Load(), perManager[0].Load(), perManager[1].Load())
}
