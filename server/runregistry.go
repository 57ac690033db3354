package server

import (
	"sync"

	"github.com/gomastra/mastra/workflows"
)

// runRecord is a workflow run executing in this server.
type runRecord struct {
	workflowID string
	run        *workflows.Run
}

// runRegistry keeps what storage does not: the workflow runs executing
// in this server until they stop (their live state, and the right to
// cancel them). Everything else about a run — pending, suspended or
// finished, made here, before a restart or by another replica — is in
// the workflow's storage. It is safe for concurrent use.
type runRegistry struct {
	mu     sync.Mutex
	active map[string]*runRecord
}

func newRunRegistry() *runRegistry {
	return &runRegistry{active: map[string]*runRecord{}}
}

func runKey(workflowID, runID string) string { return workflowID + "\x00" + runID }

// begin starts tracking a run about to start, so that of two starts of
// one run id in this server only the first goes through (false: the run
// is executing already).
func (g *runRegistry) begin(rec *runRecord) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := runKey(rec.workflowID, rec.run.ID())
	if _, started := g.active[key]; started {
		return false
	}
	g.active[key] = rec
	return true
}

// end stops tracking a run that has stopped executing here (ended,
// suspended, or refused before it started: storage has it as it is).
func (g *runRegistry) end(rec *runRecord) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := runKey(rec.workflowID, rec.run.ID())
	if g.active[key] == rec {
		delete(g.active, key)
	}
}

// track records a run a resume is executing here (it replaces any
// earlier record of the run).
func (g *runRegistry) track(rec *runRecord) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active[runKey(rec.workflowID, rec.run.ID())] = rec
}

// lookup returns the record of a run executing here.
func (g *runRegistry) lookup(workflowID, runID string) (*runRecord, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	rec, ok := g.active[runKey(workflowID, runID)]
	return rec, ok
}
