package workflows

import (
	"time"

	"github.com/gomastra/mastra/schema"
)

// This file holds read-only accessors for describing a workflow (the HTTP
// API's workflow routes list its steps and schemas). They were added by the
// server package's author; nothing else in the package depends on them.

// GraphNode is one entry of a workflow's sequence, as [Workflow.Graph]
// describes it.
type GraphNode struct {
	// Kind is Mastra's step-graph type: "step", "parallel",
	// "conditional", "loop", "foreach", "mapping" or "sleep".
	Kind string
	// ID is the node's id: its step's id, or "parallel", "branch",
	// "mapping_<workflow id>_<n>" (n counting the workflow's mappings
	// from 0), "sleep_<n>" (n the node's position).
	ID string
	// LoopType is "dowhile" or "dountil" for loops, "" otherwise.
	LoopType string
	// Steps are the node's steps (none for mapping and sleep nodes).
	Steps []*Step
	// Concurrency is a foreach node's concurrency.
	Concurrency int
	// Duration is a sleep node's duration.
	Duration time.Duration
}

// Graph returns the workflow's sequence of nodes, in order. The slices
// are fresh copies; the steps are the workflow's own (immutable).
func (w *Workflow) Graph() []GraphNode {
	out := make([]GraphNode, 0, len(w.nodes))
	for _, n := range w.nodes {
		g := GraphNode{ID: n.id, Steps: append([]*Step(nil), n.steps...), Concurrency: n.concurrency, Duration: n.sleep}
		switch n.kind {
		case kindDoWhile, kindDoUntil:
			g.Kind, g.LoopType = "loop", string(n.kind)
		case kindMap:
			g.Kind = "mapping"
		default:
			g.Kind = string(n.kind)
		}
		out = append(out, g)
	}
	return out
}

// InputSchema returns the workflow's input schema: Config.InputSchema,
// else its first step's input schema (nil when neither is known).
func (w *Workflow) InputSchema() schema.Schema {
	if w.cfg.InputSchema != nil {
		return w.cfg.InputSchema
	}
	if len(w.nodes) > 0 && len(w.nodes[0].steps) > 0 {
		return w.nodes[0].steps[0].InputSchema()
	}
	return nil
}

// OutputSchema returns the workflow's output schema: Config.OutputSchema,
// else the schema of what its last node produces (nil when unknown).
func (w *Workflow) OutputSchema() schema.Schema {
	if w.cfg.OutputSchema != nil {
		return w.cfg.OutputSchema
	}
	prev := w.InputSchema()
	for _, n := range w.nodes {
		prev = outputOf(n, prev)
	}
	return prev
}

// StateSchema returns Config.StateSchema (nil when none).
func (w *Workflow) StateSchema() schema.Schema { return w.cfg.StateSchema }

// StateSchema returns the step's state schema, or nil.
func (s *Step) StateSchema() schema.Schema { return s.state }

// Nested returns the workflow a step made by [Workflow.AsStep] runs, nil
// for other steps.
func (s *Step) Nested() *Workflow { return s.nested }
