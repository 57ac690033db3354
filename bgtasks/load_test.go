package bgtasks_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage/sqlite"
)

// highWater counts the executions running at once and keeps the most.
type highWater struct {
	now, max atomic.Int32
}

func (h *highWater) enter() {
	n := h.now.Add(1)
	for {
		m := h.max.Load()
		if n <= m || h.max.CompareAndSwap(m, n) {
			return
		}
	}
}

func (h *highWater) leave() { h.now.Add(-1) }

// runDeferred enqueues n tasks spread over 4 agents on m, each working
// for work, and waits for all of them; it returns the high-water marks,
// global and of each agent.
func runDeferred(tb testing.TB, m *bgtasks.Manager, n int, work time.Duration) (global int32, perAgent map[string]int32, done []bgtasks.Task) {
	ctx := context.Background()
	var all highWater
	agents := map[string]*highWater{}
	for i := range 4 {
		agents[fmt.Sprintf("agent-%d", i)] = &highWater{}
	}
	ids := make([]string, n)
	for i := range n {
		agent := fmt.Sprintf("agent-%d", i%4)
		ex := bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
			all.enter()
			agents[agent].enter()
			defer all.leave()
			defer agents[agent].leave()
			time.Sleep(work)
			return map[string]int{"n": i}, nil
		})
		res, err := m.Enqueue(ctx, bgtasks.TaskPayload{RunID: "run", AgentID: agent, ToolName: "work", ToolCallID: fmt.Sprint(i)}, &bgtasks.Hooks{Executor: ex})
		if err != nil {
			tb.Fatal(err)
		}
		ids[i] = res.Task.ID
	}
	var wg sync.WaitGroup
	done = make([]bgtasks.Task, n)
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t, err := m.WaitForNextTask(ctx, []string{id})
			if err != nil {
				tb.Error(err)
			}
			done[i] = t
		}()
	}
	wg.Wait()
	perAgent = map[string]int32{}
	for a, h := range agents {
		perAgent[a] = h.max.Load()
	}
	return all.max.Load(), perAgent, done
}

// TestTwoHundredDeferredTasks: 200 tasks under a global concurrency of
// 8 (and Mastra's 5 per agent): never more than 8 run at once, nor more
// than 5 of one agent, and all 200 complete with their results.
func TestTwoHundredDeferredTasks(t *testing.T) {
	m := start(t, bgtasks.Config{GlobalConcurrency: 8})
	global, perAgent, done := runDeferred(t, m, 200, 2*time.Millisecond)
	if global > 8 || global < 2 {
		t.Errorf("high-water mark %d, want at most 8 (and some concurrency)", global)
	}
	for a, n := range perAgent {
		if n > 5 {
			t.Errorf("agent %s: %d at once, want at most 5", a, n)
		}
	}
	for i, tk := range done {
		if tk.Status != bgtasks.Completed || string(tk.Result) != fmt.Sprintf(`{"n":%d}`, i) {
			t.Errorf("task %d: %s %s", i, tk.Status, tk.Result)
		}
	}
	t.Logf("high-water mark: %d running at once; per agent %v", global, perAgent)
}

// BenchmarkTwoHundredDeferredTasks runs 200 tasks of 1ms under a global
// concurrency of 8 per iteration, in memory, and reports the high-water
// mark of executions running at once.
func BenchmarkTwoHundredDeferredTasks(b *testing.B) {
	m := bgtasks.New(bgtasks.Config{GlobalConcurrency: 8})
	m.Start(context.Background())
	defer m.Shutdown(context.Background())
	var high int32
	for b.Loop() {
		g, _, _ := runDeferred(b, m, 200, time.Millisecond)
		high = max(high, g)
	}
	b.ReportMetric(float64(high), "max-running")
}

// BenchmarkTwoHundredDeferredTasksSQLite is BenchmarkTwoHundredDeferredTasks
// on a SQLite file (WAL, synchronous=FULL): every claim and outcome is a
// durable write.
func BenchmarkTwoHundredDeferredTasksSQLite(b *testing.B) {
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "mastra.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	m := bgtasks.New(bgtasks.Config{Store: store, GlobalConcurrency: 8})
	m.Start(context.Background())
	defer m.Shutdown(context.Background())
	var high int32
	for b.Loop() {
		g, _, _ := runDeferred(b, m, 200, time.Millisecond)
		high = max(high, g)
	}
	b.ReportMetric(float64(high), "max-running")
}
