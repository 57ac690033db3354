package bgtasks_test

import (
	"context"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// TestStrayRunningTaskRecovered: a task Running under a Manager's name
// that it does not run (its claim succeeded in the store but failed on
// the way back, or its release failed) is not kept alive by that
// Manager's renewals: its lease lapses and it is recovered.
func TestStrayRunningTaskRecovered(t *testing.T) {
	m := start(t, bgtasks.Config{Lease: 90 * time.Millisecond, PollInterval: 5 * time.Millisecond})
	ctx := context.Background()
	stray := staleTask("stray", 0)
	stray.Status, stray.Owner, stray.LeaseUntil, stray.Producer = bgtasks.Pending, "", time.Time{}, "another-manager"
	if err := m.Store().CreateTask(ctx, stray); err != nil {
		t.Fatal(err)
	}
	claim := bgtasks.Claim{Owner: m.Owner(), LeaseUntil: time.Now().Add(90 * time.Millisecond), IDs: []string{"stray"}}
	if claimed, err := m.Store().ClaimTasks(ctx, claim); err != nil || len(claimed) != 1 {
		t.Fatalf("claim = %v, %v", claimed, err)
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	got, err := m.WaitForNextTask(wctx, []string{"stray"})
	if err != nil || got.Status != bgtasks.Failed {
		t.Errorf("stray task = %s, %v; want failed by recovery", got.Status, err)
	}
	if got.Error == nil || got.Error.Message != "Worker process terminated before task completed" {
		t.Errorf("stray task error = %+v", got.Error)
	}
}
