package server

import (
	"testing"

	"github.com/gomastra/mastra/workflows"
)

// TestRunRegistryBegin: a run begins once in a server; the registry
// forgets it when it stops (storage has it), and a record another one
// replaced is not forgotten in its stead.
func TestRunRegistryBegin(t *testing.T) {
	wf := approvalWorkflow()
	g := newRunRegistry()
	rec := &runRecord{workflowID: wf.ID(), run: wf.CreateRun(workflows.WithRunID("a"))}
	if !g.begin(rec) {
		t.Fatal("begin a refused")
	}
	if g.begin(&runRecord{workflowID: wf.ID(), run: wf.CreateRun(workflows.WithRunID("a"))}) {
		t.Fatal("a second begin of a went through")
	}
	resumed := &runRecord{workflowID: wf.ID(), run: wf.CreateRun(workflows.WithRunID("a"))}
	g.track(resumed)
	g.end(rec) // replaced: stays
	if got, ok := g.lookup(wf.ID(), "a"); !ok || got != resumed {
		t.Fatalf("after the replaced record ended: %v %v", got, ok)
	}
	g.end(resumed)
	if _, ok := g.lookup(wf.ID(), "a"); ok {
		t.Error("a run that stopped executing is still known")
	}
}
