package server

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/workflows"
)

// TestRunRegistryLimits: create-run's pending runs are kept up to their
// limit, the oldest forgotten first; a record put again becomes the
// newest; a started pending run becomes an executing one, which starts
// once, and which the registry forgets when it stops (storage has it),
// unless it never started (it is pending again).
func TestRunRegistryLimits(t *testing.T) {
	wf := approvalWorkflow()
	g := newRunRegistry(2)
	pend := func(id string) {
		g.addPending(&runRecord{workflowID: wf.ID(), run: wf.CreateRun(workflows.WithRunID(id)), resourceID: "res-" + id})
	}
	has := func(id string) bool {
		_, ok := g.lookup(wf.ID(), id)
		return ok
	}
	pend("a")
	pend("b")
	pend("a") // a is now the newest
	pend("c") // b goes
	if !has("a") || has("b") || !has("c") {
		t.Fatalf("pending: a %v b %v c %v, want a and c", has("a"), has("b"), has("c"))
	}
	run := wf.CreateRun(workflows.WithRunID("a"))
	rec, ok := g.begin(wf.ID(), run, "")
	if !ok || rec.resourceID != "res-a" || !rec.started {
		t.Fatalf("begin a: ok %v record %+v, want the pending record, started", ok, rec)
	}
	if _, ok := g.begin(wf.ID(), wf.CreateRun(workflows.WithRunID("a")), ""); ok {
		t.Fatal("a second begin of a went through")
	}
	if _, ok := g.pending.get(runKey(wf.ID(), "a")); ok {
		t.Fatal("a started run is still pending")
	}
	if _, err := run.Start(context.Background(), wfIn{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	g.end(rec)
	if has("a") {
		t.Error("a run that stopped executing is still known")
	}
	refused, ok := g.begin(wf.ID(), wf.CreateRun(workflows.WithRunID("d")), "")
	if !ok {
		t.Fatal("begin d refused")
	}
	g.end(refused) // it never started: pending again
	if got, ok := g.lookup(wf.ID(), "d"); !ok || got.started {
		t.Errorf("a run that never started: known %v, %+v, want pending", ok, got)
	}
}
