package bgtasks_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// slowStore is a store whose lease renewals and completions are slow,
// as a loaded database's are.
type slowStore struct{ bgtasks.Store }

func (s slowStore) RenewLeases(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	ids, err := s.Store.RenewLeases(ctx, owner, ids, until)
	time.Sleep(200 * time.Millisecond)
	return ids, err
}

func (s slowStore) UpdateTask(ctx context.Context, t bgtasks.Task) (bgtasks.Task, error) {
	if t.Status == bgtasks.Completed {
		time.Sleep(150 * time.Millisecond)
	}
	return s.Store.UpdateTask(ctx, t)
}

// TestOwnFinishingTaskNotRecovered: a Manager whose lease renewals are
// late does not take its own task, finishing right then, for the task of
// a dead process: the task completes.
func TestOwnFinishingTaskNotRecovered(t *testing.T) {
	m := start(t, bgtasks.Config{Store: slowStore{bgtasks.NewMemoryStore()}, GlobalConcurrency: 6, PerAgentConcurrency: 6, Lease: 60 * time.Millisecond, PollInterval: 5 * time.Millisecond})
	var tasks []bgtasks.Task
	for i := range 6 {
		tasks = append(tasks, enqueue(t, m, payload("a", string(rune('0'+i))), func(context.Context, *bgtasks.Call) (any, error) {
			time.Sleep(time.Duration(100+40*i) * time.Millisecond)
			return "done", nil
		}))
	}
	for _, tk := range tasks {
		if got := wait(t, m, tk.ID); got.Status != bgtasks.Completed {
			t.Errorf("task %s = %s %+v", tk.ToolCallID, got.Status, got.Error)
		}
	}
}

// flakyStore fails the first writes of an outcome, as a database whose
// connection drops does.
type flakyStore struct {
	bgtasks.Store
	failures *atomic.Int32
}

func (s flakyStore) UpdateTask(ctx context.Context, t bgtasks.Task) (bgtasks.Task, error) {
	if t.Status == bgtasks.Completed && s.failures.Add(-1) >= 0 {
		return bgtasks.Task{}, errors.New("connection reset")
	}
	return s.Store.UpdateTask(ctx, t)
}

// TestOutcomeWriteRetried: an outcome whose write fails for a moment is
// written again.
func TestOutcomeWriteRetried(t *testing.T) {
	var failures atomic.Int32
	failures.Store(2)
	m := start(t, bgtasks.Config{Store: flakyStore{bgtasks.NewMemoryStore(), &failures}})
	tk := enqueue(t, m, payload("a", "c1"), func(context.Context, *bgtasks.Call) (any, error) { return "ok", nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if got, err := m.WaitForNextTask(ctx, []string{tk.ID}); err != nil || got.Status != bgtasks.Completed {
		t.Errorf("task = %s, %v", got.Status, err)
	}
}

// TestOutcomeWriteRetriedAfterOutage: an outcome whose every write fails
// for longer than the immediate retries is written once the store is
// back, at a later lease renewal: the task does not stay Running (its
// lease renewed, its slot held) for as long as the Manager lives.
func TestOutcomeWriteRetriedAfterOutage(t *testing.T) {
	var failures atomic.Int32
	failures.Store(8)
	m := start(t, bgtasks.Config{Store: flakyStore{bgtasks.NewMemoryStore(), &failures}, Lease: 90 * time.Millisecond})
	tk := enqueue(t, m, payload("a", "c1"), func(context.Context, *bgtasks.Call) (any, error) { return "ok", nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if got, err := m.WaitForNextTask(ctx, []string{tk.ID}); err != nil || got.Status != bgtasks.Completed || string(got.Result) != `"ok"` {
		t.Errorf("task = %s %s, %v; want completed with its result", got.Status, got.Result, err)
	}
}
