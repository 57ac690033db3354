package bgtasks_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// downStore fails every write while down, as a database that is
// unreachable does; reads still answer.
type downStore struct {
	bgtasks.Store
	down *atomic.Bool
}

func (s downStore) UpdateTask(ctx context.Context, t bgtasks.Task) (bgtasks.Task, error) {
	if s.down.Load() {
		return bgtasks.Task{}, errors.New("connection refused")
	}
	return s.Store.UpdateTask(ctx, t)
}

func (s downStore) RenewLeases(ctx context.Context, owner string, ids []string, until time.Time) ([]string, error) {
	if s.down.Load() {
		return nil, errors.New("connection refused")
	}
	return s.Store.RenewLeases(ctx, owner, ids, until)
}

// TestOutcomeKeptThroughLongOutage: when the store cannot be written for
// longer than a lease, the Manager's own recovery does not fail the task
// whose outcome it still holds ("Worker process terminated"): the real
// outcome is written once the store is back.
func TestOutcomeKeptThroughLongOutage(t *testing.T) {
	var down atomic.Bool
	m := start(t, bgtasks.Config{Store: downStore{bgtasks.NewMemoryStore(), &down}, Lease: 90 * time.Millisecond, PollInterval: 5 * time.Millisecond})
	tk := enqueue(t, m, payload("a", "c1"), func(context.Context, *bgtasks.Call) (any, error) {
		down.Store(true)
		time.AfterFunc(400*time.Millisecond, func() { down.Store(false) })
		return "ok", nil
	})
	if got := wait(t, m, tk.ID); got.Status != bgtasks.Completed || string(got.Result) != `"ok"` {
		t.Errorf("task = %s %s %+v; want completed with its result", got.Status, got.Result, got.Error)
	}
}
