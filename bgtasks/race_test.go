package bgtasks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// claimingStore claims every pending task for another Manager right
// after each CreateTask, as a dispatcher polling at that moment does.
type claimingStore struct{ bgtasks.Store }

func (s claimingStore) CreateTask(ctx context.Context, t bgtasks.Task) error {
	if err := s.Store.CreateTask(ctx, t); err != nil {
		return err
	}
	_, err := s.Store.ClaimTasks(ctx, bgtasks.Claim{Owner: "other", LeaseUntil: time.Now().Add(time.Minute)})
	return err
}

// TestRejectEnqueueKeepsTasksOthersClaimed: an Enqueue under the Reject
// or FallbackSync backpressure claims its new task itself; a dispatcher
// must not claim it in between (the Enqueue would then drop a task that
// runs).
func TestRejectEnqueueKeepsTasksOthersClaimed(t *testing.T) {
	for _, mode := range []bgtasks.Backpressure{bgtasks.Reject, bgtasks.FallbackSync} {
		store := claimingStore{bgtasks.NewMemoryStore()}
		m := start(t, bgtasks.Config{Store: store, Backpressure: mode})
		res, err := m.Enqueue(context.Background(), payload("a", "c1"), &bgtasks.Hooks{
			Executor: bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) { return 1, nil }),
		})
		if err != nil || res.FallbackToSync {
			t.Fatalf("%s: Enqueue with free slots = %+v, %v", mode, res, err)
		}
		if got := wait(t, m, res.Task.ID); got.Status != bgtasks.Completed {
			t.Errorf("%s: task %s", mode, got.Status)
		}
	}
}

// failingClaimStore fails every claim.
type failingClaimStore struct{ bgtasks.Store }

func (failingClaimStore) ClaimTasks(context.Context, bgtasks.Claim) ([]bgtasks.Task, error) {
	return nil, errors.New("connection reset")
}

// TestRejectEnqueueFailedClaimKeepsNoTask: an Enqueue under the Reject
// or FallbackSync backpressure whose claim fails answers the error and
// keeps no record: its task does not run later, elsewhere, behind the
// back of a caller told it failed.
func TestRejectEnqueueFailedClaimKeepsNoTask(t *testing.T) {
	for _, mode := range []bgtasks.Backpressure{bgtasks.Reject, bgtasks.FallbackSync} {
		mem := bgtasks.NewMemoryStore()
		m := start(t, bgtasks.Config{Store: failingClaimStore{mem}, Backpressure: mode})
		if _, err := m.Enqueue(context.Background(), payload("a", "c1"), nil); err == nil {
			t.Fatalf("%s: Enqueue with a failing claim succeeded", mode)
		}
		if left, _, _ := mem.ListTasks(context.Background(), bgtasks.Filter{}); len(left) != 0 {
			t.Errorf("%s: Enqueue failed but left %d task(s): %+v", mode, len(left), left[0])
		}
	}
}
