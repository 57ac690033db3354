package serve_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/workflows"
)

type n struct {
	N int `json:"n"`
}

// TestRunRecoversInterruptedRuns: a workflow run left "running" in the
// SQLite file (its process stuck, as if dead) is finished by the next
// Run at start.
func TestRunRecoversInterruptedRuns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "mastra.db")
	ctx := context.Background()
	var secondRuns atomic.Int32
	newWorkflow := func(store storage.Runs, stuck bool) *workflows.Workflow {
		step1 := workflows.NewStep(workflows.StepConfig[n, n]{ID: "one", Execute: func(_ workflows.StepContext, in n) (n, error) { return n{N: in.N + 1}, nil }})
		step2 := workflows.NewStep(workflows.StepConfig[n, n]{ID: "two", Execute: func(c workflows.StepContext, in n) (n, error) {
			if stuck {
				<-c.Done()
				return in, c.Err()
			}
			secondRuns.Add(1)
			return n{N: in.N * 10}, nil
		}})
		w := workflows.New(workflows.Config{ID: "wf", Storage: store}).Then(step1).Then(step2)
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	first, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	stuckCtx, unstick := context.WithCancel(ctx)
	defer unstick()
	stuck := newWorkflow(first, true)
	stuckRun := stuck.CreateRun()
	go func() { _, _ = stuckRun.Start(stuckCtx, n{N: 1}, nil) }()
	for { // wait until step one's result is stored
		r, err := first.GetRun(ctx, stuckRun.ID())
		if err == nil && r.Status == storage.RunRunning && stepOneSaved(stuck, r) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}

	runCtx, stop := context.WithCancel(ctx)
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(runCtx, serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: db, Recover: true, Ready: func(a string) { ready <- a }},
			func(string) string { return "" }, slog.New(slog.DiscardHandler),
			func(_ context.Context, env serve.Env) (*mastra.Mastra, error) {
				return mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"wf": newWorkflow(env.Storage, false)}}), nil
			})
	}()
	<-ready
	for { // the recovery runs in the background: wait for the run to finish
		if r, err := first.GetRun(ctx, stuckRun.ID()); err != nil || storage.Finished(r.Status) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if secondRuns.Load() != 1 {
		t.Errorf("step two ran %d times in the recovering process", secondRuns.Load())
	}
}

// stepOneSaved reports whether the saved run (its snapshot and the
// changes after it) holds step one's result.
func stepOneSaved(w *workflows.Workflow, r *storage.Run) bool {
	snap, err := w.StoredSnapshot(r)
	return err == nil && strings.Contains(string(snap.StepsJSON()), `"status":"success","output":{"n":2}`)
}
