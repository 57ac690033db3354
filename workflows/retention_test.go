package workflows

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// TestFinishedRunRetention: a finished run is kept in storage, with its
// status and result, until it is older than Config.FinishedRunRetention;
// a later run's finish sweeps it away, and leaves the suspended runs,
// however old, and the newer finished ones.
func TestFinishedRunRetention(t *testing.T) {
	ctx := context.Background()
	store := storage.NewMemoryRuns()
	w := mustCommit(t, New(Config{ID: "inc", Storage: store, FinishedRunRetention: 50 * time.Millisecond}).Then(addStep("a", 1)))
	waiting := approveWf(t, store)
	old := w.CreateRun(WithRunID("old"))
	if res, err := old.Start(ctx, num{N: 1}, nil); err != nil || res.Status != StatusSuccess {
		t.Fatalf("old run: %v %+v", err, res)
	}
	if _, err := waiting.CreateRun(WithRunID("waiting")).Start(ctx, num{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := w.LoadRun(ctx, "old")
	if err != nil || kept.Status() != StatusSuccess || string(kept.Result().Result) != `{"n":2}` {
		t.Fatalf("the finished run as stored: %v", err)
	}
	time.Sleep(80 * time.Millisecond)
	if _, err := w.CreateRun(WithRunID("new")).Start(ctx, num{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.LoadRun(ctx, "old"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the expired run: %v, want it removed", err)
	}
	for _, id := range []string{"new", "waiting"} {
		if _, err := store.GetRun(ctx, id); err != nil {
			t.Errorf("run %s: %v, want it kept", id, err)
		}
	}
	runs, total, err := w.StoredRuns(ctx, RunQuery{Status: StatusSuccess})
	if err != nil || total != 1 || runs[0].RunID != "new" {
		t.Errorf("stored successes: %v %d %+v", err, total, runs)
	}
}
