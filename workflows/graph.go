package workflows

import (
	"encoding/json"
	"strconv"
	"sync"
)

// SerializedStepGraph is the workflow's graph as Mastra 1.71 serializes
// it (a workflow's serializedStepGraph: GET /api/workflows/:id's
// stepGraph, a run snapshot's serializedStepGraph), one entry per node
// in order:
//
//	{"type":"step","step":{"id","description"?,"canSuspend"}}
//	{"type":"workflow","id","workflowId","description"?,"serializedStepFlow":[...]}  (a nested workflow)
//	{"type":"parallel","steps":[<entry>...]}
//	{"type":"conditional","steps":[<entry>...],"serializedConditions":[{"id":"<step id>-condition","fn":""}...]}
//	{"type":"loop","step":<entry>,"serializedCondition":{"id","fn":""},"loopType":"dowhile"|"dountil"}
//	{"type":"foreach","step":<entry>,"opts":{"concurrency":n}}
//	{"type":"mapping","id","mapConfig":""}
//	{"type":"sleep","id","duration":<ms>}
//
// A step's canSuspend tells whether it has a suspend or resume schema.
// Mastra shows the source text of conditions and mapping functions in
// fn and mapConfig; Go functions have none to show, so they are empty.
// A committed workflow's bytes are computed once and shared: do not
// modify them.
func (w *Workflow) SerializedStepGraph() json.RawMessage {
	if !w.committed {
		return w.appendGraph(nil)
	}
	w.graphOnce.Do(func() { w.graph = w.appendGraph(nil) })
	return w.graph
}

// graphCache is embedded in Workflow: the serialized graph, made once.
type graphCache struct {
	graphOnce sync.Once
	graph     json.RawMessage
}

func (w *Workflow) appendGraph(b []byte) []byte {
	b = append(b, '[')
	for i, n := range w.nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNode(b, n)
	}
	return append(b, ']')
}

func appendNode(b []byte, n *node) []byte {
	switch n.kind {
	case kindStep:
		return appendStepEntry(b, n.steps[0])
	case kindParallel, kindBranch:
		b = append(b, `{"type":`...)
		b = strconv.AppendQuote(b, string(n.kind))
		b = append(b, `,"steps":[`...)
		for i, s := range n.steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStepEntry(b, s)
		}
		b = append(b, ']')
		if n.kind == kindBranch {
			b = append(b, `,"serializedConditions":[`...)
			for i, s := range n.steps {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendCondition(b, s)
			}
			b = append(b, ']')
		}
		return append(b, '}')
	case kindDoWhile, kindDoUntil:
		b = append(b, `{"type":"loop","step":`...)
		b = appendStepEntry(b, n.steps[0])
		b = append(b, `,"serializedCondition":`...)
		b = appendCondition(b, n.steps[0])
		b = append(b, `,"loopType":`...)
		b = strconv.AppendQuote(b, string(n.kind))
		return append(b, '}')
	case kindForeach:
		b = append(b, `{"type":"foreach","step":`...)
		b = appendStepEntry(b, n.steps[0])
		b = append(b, `,"opts":{"concurrency":`...)
		b = strconv.AppendInt(b, int64(n.concurrency), 10)
		return append(b, "}}"...)
	case kindMap:
		b = append(b, `{"type":"mapping","id":`...)
		b = appendJSON(b, n.id)
		return append(b, `,"mapConfig":""}`...)
	case kindSleep:
		b = append(b, `{"type":"sleep","id":`...)
		b = appendJSON(b, n.id)
		b = append(b, `,"duration":`...)
		b = strconv.AppendInt(b, n.sleep.Milliseconds(), 10)
		return append(b, '}')
	}
	return append(b, "null"...)
}

// appendStepEntry appends a step's entry: a step, or a nested workflow.
func appendStepEntry(b []byte, s *Step) []byte {
	if nested := s.nested; nested != nil {
		b = append(b, `{"type":"workflow","id":`...)
		b = appendJSON(b, s.ID())
		b = append(b, `,"workflowId":`...)
		b = appendJSON(b, nested.cfg.ID)
		if d := s.Description(); d != "" {
			b = append(b, `,"description":`...)
			b = appendJSON(b, d)
		}
		b = append(b, `,"serializedStepFlow":`...)
		b = append(b, nested.SerializedStepGraph()...)
		return append(b, '}')
	}
	b = append(b, `{"type":"step","step":{"id":`...)
	b = appendJSON(b, s.ID())
	if d := s.Description(); d != "" {
		b = append(b, `,"description":`...)
		b = appendJSON(b, d)
	}
	b = append(b, `,"canSuspend":`...)
	b = strconv.AppendBool(b, s.CanSuspend())
	return append(b, "}}"...)
}

func appendCondition(b []byte, s *Step) []byte {
	b = append(b, `{"id":`...)
	b = appendJSON(b, s.ID()+"-condition")
	return append(b, `,"fn":""}`...)
}

// CanSuspend reports whether the step declares a suspend or a resume
// schema (Mastra's canSuspend).
func (s *Step) CanSuspend() bool { return s.SuspendSchema() != nil || s.ResumeSchema() != nil }

// stepPath is the execution path of a top-level step (Mastra's
// executionPath of its entry): [node position], or [node position, index
// in the node] for a step of a parallel or conditional node; nil when
// the workflow has no such step.
func (w *Workflow) stepPath(id string) []int {
	for i, n := range w.nodes {
		for j, s := range n.steps {
			if s.ID() != id {
				continue
			}
			if n.kind == kindParallel || n.kind == kindBranch {
				return []int{i, j}
			}
			return []int{i}
		}
	}
	return nil
}
