package server

import (
	"testing"

	"github.com/gomastra/mastra/workflows"
)

// TestRunRegistryLimits: create-run's pending runs and the server's known
// runs are each kept up to their limit, the oldest forgotten first; a
// record put again becomes the newest; a started pending run moves to the
// known ones, and a run starts once.
func TestRunRegistryLimits(t *testing.T) {
	wf := approvalWorkflow()
	g := newRunRegistry(2, 2)
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
	rec, ok := g.begin(wf.ID(), wf.CreateRun(workflows.WithRunID("a")), "")
	if !ok || rec.resourceID != "res-a" || !rec.started {
		t.Fatalf("begin a: ok %v record %+v, want the pending record, started", ok, rec)
	}
	if _, ok := g.begin(wf.ID(), wf.CreateRun(workflows.WithRunID("a")), ""); ok {
		t.Fatal("a second begin of a went through")
	}
	if _, ok := g.pending.get(runKey(wf.ID(), "a")); ok {
		t.Fatal("a started run is still pending")
	}
	for _, id := range []string{"d", "e"} {
		if _, ok := g.begin(wf.ID(), wf.CreateRun(workflows.WithRunID(id)), ""); !ok {
			t.Fatalf("begin %s refused", id)
		}
	}
	if has("a") || !has("c") || !has("d") || !has("e") {
		t.Fatalf("a %v c %v d %v e %v, want a forgotten (known holds 2), c pending, d and e known", has("a"), has("c"), has("d"), has("e"))
	}
}
