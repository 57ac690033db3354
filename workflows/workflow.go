// Package workflows runs Mastra's workflows in Go: typed steps composed
// in sequence, in parallel, in branches, in loops and over lists, with
// mapping between steps, sleeps and nested workflows; runs that stream
// Mastra's workflow-* chunks, suspend for a person and resume by step,
// and keep their snapshots in storage so they resume after a restart.
//
// A workflow is built with [New] and the builder methods ([Workflow.Then],
// [Workflow.Parallel], [Workflow.Branch], [Workflow.DoWhile],
// [Workflow.DoUntil], [Workflow.Foreach], [Workflow.Map] and
// [Workflow.Sleep]) from steps made with [NewStep], [FromTool] or, to
// nest a committed workflow, [Workflow.AsStep]. [Workflow.Commit] checks
// that each step's input schema accepts what comes before it, and
// freezes the workflow. Each run ([Workflow.CreateRun]) is started with
// [Run.Start] or [Run.Stream] and, once suspended, resumed with
// [Run.Resume] or [Run.ResumeStream]. With [Config.Storage], snapshots
// of suspended runs outlive the process and [Workflow.LoadRun] finds a
// run again; finished runs are kept there too, for
// [Config.FinishedRunRetention], and [Workflow.StoredRuns] lists them.
//
// A workflow is also an agent tool, "workflow-<key>" ([Tool]). The
// package's Examples show these pieces at work.
package workflows

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// Config describes a workflow (Mastra's createWorkflow).
type Config struct {
	ID          string
	Description string
	// InputSchema and OutputSchema describe the run's input and result;
	// nil: the first step's input and the last step's output.
	InputSchema, OutputSchema schema.Schema
	// StateSchema validates the workflow state steps set.
	StateSchema schema.Schema
	// Storage keeps the snapshots of suspended runs (and of runs in
	// progress, found again after a crash), and of finished runs (as
	// Mastra keeps them: GET .../runs lists them); nil keeps them in this
	// process.
	Storage storage.Runs
	// FinishedRunRetention is how long a finished run (success, failed,
	// canceled) stays in storage after its last change: zero is
	// DefaultFinishedRunRetention (7 days), a negative duration keeps
	// finished runs until something deletes them. Expired runs are
	// removed by a sweep the workflow makes as its runs finish (one
	// indexed delete, at most once a minute or every 256 finishes).
	// Without Storage, the in-process store also keeps at most the
	// newest 1000 finished runs.
	FinishedRunRetention time.Duration
	// Events is the runs' event log: each run appends every chunk it
	// streams to its log (one log per run id, which a resume goes on
	// appending to), and ends the log when the run ends; Run.ObserveStream
	// reads it back, from any offset, and follows it live. Nil: Storage
	// when it implements storage.RunEvents (so that a process sharing
	// that database observes runs executing in another), else a log in
	// this process's memory, owned by the workflow.
	Events storage.RunEvents
	// EventRetention is how long a run's log stays once the run has
	// ended: zero is DefaultEventRetention (5 minutes), a negative
	// duration keeps ended logs until something deletes them. A log left
	// without an end (a suspended run, or a run whose process died) is
	// removed once nothing has been appended to it for the finished-run
	// retention (FinishedRunRetention, at least a day). Without Events
	// and a Storage that keeps events, the in-process log also keeps
	// about the newest 1000 ended logs only. The sweep that removes them is
	// the finished runs' one, and it removes the expired logs of every
	// run in Events, not only this workflow's.
	EventRetention time.Duration
}

// Workflow is a graph of steps. Build it with Then, Parallel, Branch,
// DoWhile, DoUntil, Foreach, Map and Sleep, then Commit it; a committed
// workflow is safe for concurrent runs.
type Workflow struct {
	cfg       Config
	nodes     []*node
	committed bool
	buildErr  error
	local     storage.Runs
	// localEvents is the runs' event log when neither Config.Events nor
	// Config.Storage gives one.
	localEvents *chunkLog
	endedLogs   endedRing          // when localEvents' newest logs ended
	registry    tools.RegistrySlot // what steps reach as ctx.Mastra()
	sweep       sweeper
	// launcher runs the runs elsewhere (UseLauncher), nil: here.
	launcher atomic.Pointer[Launcher]
	graphCache
}

// New returns an empty workflow.
func New(cfg Config) *Workflow {
	w := &Workflow{cfg: cfg, local: storage.NewMemoryRuns(), localEvents: newChunkLog()}
	if cfg.ID == "" {
		w.buildErr = errors.New("workflows: a workflow needs an ID")
	}
	return w
}

// ID returns the workflow's id.
func (w *Workflow) ID() string { return w.cfg.ID }

// Description returns the workflow's description.
func (w *Workflow) Description() string { return w.cfg.Description }

// nodeKind says what a node of the graph does.
type nodeKind string

const (
	kindStep     nodeKind = "step"
	kindParallel nodeKind = "parallel"
	kindBranch   nodeKind = "conditional"
	kindDoWhile  nodeKind = "dowhile"
	kindDoUntil  nodeKind = "dountil"
	kindForeach  nodeKind = "foreach"
	kindMap      nodeKind = "map"
	kindSleep    nodeKind = "sleep"
)

// node is one entry of the workflow's sequence.
type node struct {
	kind        nodeKind
	id          string
	steps       []*Step
	conds       []Condition
	cond        Condition
	concurrency int
	mapFn       func(ctx context.Context, m MapInput) (any, error)
	sleep       time.Duration
}

// Condition decides a branch or a loop from the previous output (a
// loop's: the step's latest output, and the iteration count from 1).
type Condition func(ctx context.Context, c ConditionInput) (bool, error)

// ConditionInput is what a condition sees.
type ConditionInput struct {
	// Output is the previous step's output (for loops, the looped
	// step's latest output) as JSON.
	Output    []byte
	Iteration int
	// State is the workflow state as JSON.
	State []byte
	// StepResult gives an earlier step's output by id.
	StepResult func(stepID string) ([]byte, bool)
}

// MapInput is what a Map function sees.
type MapInput struct {
	Output     []byte
	InitData   []byte
	State      []byte
	StepResult func(stepID string) ([]byte, bool)
}

// BranchCase is one case of Branch: when Condition holds, Step runs.
type BranchCase struct {
	Condition Condition
	Step      *Step
}

// When pairs a condition with the step it runs (for Branch).
func When(cond Condition, step *Step) BranchCase { return BranchCase{Condition: cond, Step: step} }

func (w *Workflow) add(n *node) *Workflow {
	if w.committed && w.buildErr == nil {
		w.buildErr = fmt.Errorf("workflows: %s: the workflow is committed; build a new one", w.cfg.ID)
	}
	w.nodes = append(w.nodes, n)
	return w
}

// Then runs step on the previous output.
func (w *Workflow) Then(step *Step) *Workflow {
	return w.add(&node{kind: kindStep, id: step.ID(), steps: []*Step{step}})
}

// Parallel runs steps at once on the previous output; the next step gets
// an object of their outputs keyed by step id.
func (w *Workflow) Parallel(steps ...*Step) *Workflow {
	return w.add(&node{kind: kindParallel, id: "parallel", steps: steps})
}

// Branch runs every case whose condition holds on the previous output,
// at once; the next step gets an object of their outputs keyed by step
// id (Mastra's .branch).
func (w *Workflow) Branch(cases ...BranchCase) *Workflow {
	n := &node{kind: kindBranch, id: "branch"}
	for _, c := range cases {
		n.steps = append(n.steps, c.Step)
		n.conds = append(n.conds, c.Condition)
	}
	return w.add(n)
}

// DoWhile runs step, then again on its own output while cond holds.
func (w *Workflow) DoWhile(step *Step, cond Condition) *Workflow {
	return w.add(&node{kind: kindDoWhile, id: step.ID(), steps: []*Step{step}, cond: cond})
}

// DoUntil runs step, then again on its own output until cond holds.
func (w *Workflow) DoUntil(step *Step, cond Condition) *Workflow {
	return w.add(&node{kind: kindDoUntil, id: step.ID(), steps: []*Step{step}, cond: cond})
}

// Foreach runs step on each element of the previous output (an array),
// at most concurrency at a time (at least 1); the next step gets the
// outputs in the array's order.
func (w *Workflow) Foreach(step *Step, concurrency int) *Workflow {
	if concurrency < 1 {
		concurrency = 1
	}
	return w.add(&node{kind: kindForeach, id: step.ID(), steps: []*Step{step}, concurrency: concurrency})
}

// Map turns the previous output (with the run's input, state and earlier
// results) into the next step's input (Mastra's .map).
func (w *Workflow) Map(fn func(ctx context.Context, m MapInput) (any, error)) *Workflow {
	maps := 0
	for _, n := range w.nodes {
		if n.kind == kindMap {
			maps++
		}
	}
	// Mastra's id for the workflow's n-th mapping (from 0).
	return w.add(&node{kind: kindMap, id: fmt.Sprintf("mapping_%s_%d", w.cfg.ID, maps), mapFn: fn})
}

// Sleep waits d (or until the run's context ends); the previous output
// passes through.
func (w *Workflow) Sleep(d time.Duration) *Workflow {
	return w.add(&node{kind: kindSleep, id: fmt.Sprintf("sleep_%d", len(w.nodes)), sleep: d})
}

// Commit checks the workflow and freezes it: it has steps, step ids are
// unique, and each step's input schema accepts what comes before it
// (the workflow's input, or the previous step's output); a mismatch is
// an error naming both. Map and Sleep pass values the check cannot see.
func (w *Workflow) Commit() error {
	if w.buildErr != nil {
		return w.buildErr
	}
	if len(w.nodes) == 0 {
		return fmt.Errorf("workflows: %s: no steps", w.cfg.ID)
	}
	seen := map[string]bool{}
	var prev schema.Schema = w.cfg.InputSchema
	prevName := "the workflow's input"
	for _, n := range w.nodes {
		for _, s := range n.steps {
			if s == nil {
				return fmt.Errorf("workflows: %s: a nil step", w.cfg.ID)
			}
			if seen[s.ID()] && n.kind != kindDoWhile && n.kind != kindDoUntil {
				return fmt.Errorf("workflows: %s: step id %q is used twice", w.cfg.ID, s.ID())
			}
			seen[s.ID()] = true
		}
		switch n.kind {
		case kindStep, kindParallel, kindBranch, kindDoWhile, kindDoUntil:
			for _, s := range n.steps {
				if err := connects(prev, s.InputSchema()); err != nil {
					return fmt.Errorf("workflows: %s: step %q cannot take %s: %w", w.cfg.ID, s.ID(), prevName, err)
				}
			}
		case kindForeach:
			if err := connects(itemsOf(prev), n.steps[0].InputSchema()); err != nil {
				return fmt.Errorf("workflows: %s: foreach step %q cannot take the elements of %s: %w", w.cfg.ID, n.steps[0].ID(), prevName, err)
			}
		}
		prev, prevName = outputOf(n, prev), "the output of "+describe(n)
	}
	if err := connects(prev, w.cfg.OutputSchema); err != nil {
		return fmt.Errorf("workflows: %s: the workflow's output schema does not accept %s: %w", w.cfg.ID, prevName, err)
	}
	w.committed = true
	return nil
}

// step finds a step of the workflow by id (nil if none).
func (w *Workflow) step(id string) *Step {
	for _, n := range w.nodes {
		for _, s := range n.steps {
			if s.ID() == id {
				return s
			}
		}
	}
	return nil
}

func describe(n *node) string {
	if n.kind == kindStep {
		return "step " + fmt.Sprintf("%q", n.id)
	}
	return string(n.kind) + " " + fmt.Sprintf("%q", n.id)
}
