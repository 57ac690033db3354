package bgtasks_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// gatedStore holds each CreateTask, once the task is stored, until gate
// is closed, telling created when it holds one.
type gatedStore struct {
	bgtasks.Store
	created chan struct{}
	gate    chan struct{}
}

func (s gatedStore) CreateTask(ctx context.Context, t bgtasks.Task) error {
	err := s.Store.CreateTask(ctx, t)
	s.created <- struct{}{}
	<-s.gate
	return err
}

// TestNoExecutionAfterShutdown: an Enqueue that was under way when
// Shutdown began and ended starts no execution after it: its task is
// left Pending for the next Manager.
func TestNoExecutionAfterShutdown(t *testing.T) {
	store := gatedStore{bgtasks.NewMemoryStore(), make(chan struct{}, 1), make(chan struct{})}
	m := bgtasks.New(bgtasks.Config{Store: store, Backpressure: bgtasks.Reject, PollInterval: 10 * time.Millisecond})
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Bool
	type result struct {
		res bgtasks.EnqueueResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := m.Enqueue(context.Background(), payload("a", "c1"), &bgtasks.Hooks{
			Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) {
				ran.Store(true)
				return 1, nil
			}),
		})
		done <- result{res, err}
	}()
	<-store.created
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(store.gate)
	r := <-done
	if r.err != nil {
		return // refused: nothing runs
	}
	time.Sleep(50 * time.Millisecond)
	if ran.Load() {
		t.Error("a task's executor ran after Shutdown returned")
	}
	got, err := store.GetTask(context.Background(), r.res.Task.ID)
	if err != nil || got.Status != bgtasks.Pending || got.Owner != "" {
		t.Errorf("task after Shutdown = %s owner %q, %v; want pending, unowned", got.Status, got.Owner, err)
	}
}
