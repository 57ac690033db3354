package workflows_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// replicaOf is a workflow "inc" over store, counting its step's runs in
// ran: what each process over that storage has.
func replicaOf(t *testing.T, store storage.Runs, ran *atomic.Int32) *workflows.Workflow {
	t.Helper()
	inc := workflows.NewStep(workflows.StepConfig[num, num]{ID: "inc", Execute: func(_ workflows.StepContext, in num) (num, error) {
		ran.Add(1)
		return num{N: in.N + 1}, nil
	}})
	w := workflows.New(workflows.Config{ID: "inc", Storage: store}).Then(inc)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestStoredRunStartsOnce: a run CreateStoredRun made is stored pending,
// with its resource and creation time; processes over the storage load
// it, and of their concurrent starts exactly one runs it, the others
// being refused (ErrAlreadyStarted); a start of a run
// that has finished is refused the same way. Retention leaves it while
// it is pending. A start whose input is refused leaves it pending.
func TestStoredRunStartsOnce(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemoryRuns()
	var ran atomic.Int32
	a := replicaOf(t, store, &ran)
	made, err := a.CreateStoredRun(ctx, workflows.WithRunID("p1"), workflows.WithResourceID("res-1"))
	if err != nil {
		t.Fatal(err)
	}
	if made.Snapshot().Status != workflows.StatusPending || made.Result() != nil {
		t.Fatalf("a run made: %s", made.Snapshot().Status)
	}
	created := made.Snapshot().CreatedAt
	if n, err := store.DeleteFinishedRuns(ctx, storage.FinishedRuns{Kind: storage.KindWorkflow, Keep: 1, Before: time.Now().Add(time.Hour)}); err != nil || n != 0 {
		t.Fatalf("the retention sweep removed %d (%v), want 0", n, err)
	}
	if again, err := a.CreateStoredRun(ctx, workflows.WithRunID("p1")); err != nil || again.ResourceID() != "res-1" {
		t.Fatalf("making p1 again: %v, %v", again, err)
	}
	time.Sleep(2 * time.Millisecond)

	if _, err := made.Start(ctx, "not a number", nil); err == nil {
		t.Fatal("an input the schema refuses started the run")
	}
	runs := make([]*workflows.Run, 4)
	for i := range runs {
		if runs[i], err = replicaOf(t, store, &ran).LoadRun(ctx, "p1"); err != nil {
			t.Fatal(err)
		}
		if runs[i].Snapshot().Status != workflows.StatusPending {
			t.Fatalf("p1 loaded: %s", runs[i].Snapshot().Status)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(runs))
	for i, run := range runs {
		wg.Go(func() { _, errs[i] = run.Start(ctx, num{N: 1}, nil) })
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, workflows.ErrAlreadyStarted) || !errors.Is(err, storage.ErrConflict):
			t.Errorf("a start that lost: %v", err)
		}
	}
	if won != 1 || ran.Load() != 1 {
		t.Fatalf("%d starts went through, the step ran %d times: %v", won, ran.Load(), errs)
	}
	done, err := a.LoadRun(ctx, "p1")
	if err != nil {
		t.Fatal(err)
	}
	snap := done.Snapshot()
	if snap.Status != workflows.StatusSuccess || !snap.CreatedAt.Equal(created) || snap.ResourceID != "res-1" {
		t.Errorf("p1 once run: %s created %v (want %v) resource %q", snap.Status, snap.CreatedAt, created, snap.ResourceID)
	}
	if _, err := done.Start(ctx, num{N: 1}, nil); !errors.Is(err, workflows.ErrAlreadyStarted) {
		t.Errorf("a start of a finished run: %v", err)
	}
}
