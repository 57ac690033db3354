package aisdk

import (
	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/stream"
)

// workflowRun is what is known of one workflow run a workflow-<key> tool
// started: its name and its steps (in the order they started), as a
// data-tool-workflow part shows them.
type workflowRun struct {
	name  any
	steps jsObject // step id -> jsObject{name, status, input, output, suspendPayload, resumePayload}
}

// workflowSnapshot applies one chunk of a workflow run and emits the
// run's data-tool-workflow snapshot when the chunk changed it (plus a
// data-tool-workflow-step part when a step ended or suspended). Step
// outputs show in the step parts, and in the snapshot once the run
// finished. Data chunks the workflow's steps wrote are passed on.
func (c *Converter) workflowSnapshot(ch stream.Chunk) {
	if c.workflows == nil {
		c.workflows = map[string]*workflowRun{}
	}
	p := payloadObject(ch.Payload)
	w := c.workflows[ch.RunID]
	switch ch.Type {
	case stream.TypeWorkflowStart:
		w = &workflowRun{name: field(p, "workflowId"), steps: jsObject{}}
		c.workflows[ch.RunID] = w
		c.emit(w.part(ch.RunID, "running", false, nil))
	case stream.TypeWorkflowStepStart:
		if w == nil {
			w = &workflowRun{name: "", steps: jsObject{}}
			c.workflows[ch.RunID] = w
		}
		id := str(p, "id")
		w.steps = w.steps.set(id, jsObject{
			{"name", id},
			{"status", field(p, "status")},
			{"input", get(p, "payload")},
			{"output", nil},
			{"suspendPayload", nil},
			{"resumePayload", nil},
		})
		c.emit(w.part(ch.RunID, "running", false, nil))
	case stream.TypeWorkflowStepResult, stream.TypeWorkflowStepSuspended:
		if w == nil {
			return
		}
		id := str(p, "id")
		step := w.step(id).set("status", field(p, "status"))
		status := "running"
		if ch.Type == stream.TypeWorkflowStepResult {
			step = step.set("output", get(p, "output"))
		} else {
			status = "suspended"
			step = step.set("suspendPayload", get(p, "suspendPayload")).
				set("resumePayload", get(p, "resumePayload")).
				set("output", nil)
		}
		w.steps = w.steps.set(id, step)
		c.emit(w.part(ch.RunID, status, false, nil))
		c.emit(Part{Type: PartToolWorkflowStep, ID: ch.RunID + ":" + id, idFirst: true, Data: jsObject{
			{"name", w.name}, {"status", status}, {"stepId", id}, {"step", stepView(step, true)},
		}})
	case stream.TypeWorkflowFinish:
		if w == nil {
			return
		}
		c.emit(w.part(ch.RunID, field(p, "workflowStatus"), true, get(p, "output")))
	case stream.TypeWorkflowStepOutput:
		if out, ok := asChunk(get(p, "output")); ok && out.IsData() {
			c.emit(Part{Type: out.Type, Data: out.Data, ID: out.ID})
		}
	}
}

// step returns a copy of the step's record (empty for an unknown step).
func (w *workflowRun) step(id string) jsObject {
	if s, ok := w.steps.get(id); ok {
		if o, ok := s.(jsObject); ok {
			return o.clone()
		}
	}
	return jsObject{}
}

// part is the run's data-tool-workflow part.
func (w *workflowRun) part(runID string, status any, withOutputs bool, output any) Part {
	steps := make(jsObject, 0, len(w.steps))
	for _, m := range w.steps {
		s, _ := m.val.(jsObject)
		steps = append(steps, member{m.key, stepView(s, withOutputs)})
	}
	return Part{Type: PartToolWorkflow, ID: runID, idFirst: true, Data: jsObject{
		{"name", w.name}, {"status", status}, {"steps", steps}, {"output", output},
	}}
}

// stepView is a step record as a part shows it: its output only when
// withOutput (null otherwise).
func stepView(s jsObject, withOutput bool) jsObject {
	out := make(jsObject, 0, 6)
	for _, k := range []string{"name", "status", "input", "output", "suspendPayload", "resumePayload"} {
		v, ok := s.get(k)
		switch {
		case k == "output" && !withOutput:
			v, ok = nil, true
		case !ok:
			v = jsjson.Undefined{}
		}
		out = append(out, member{k, v})
	}
	return out
}

// field is a payload member, JavaScript's undefined when absent.
func field(o jsObject, key string) any {
	if v, ok := o.get(key); ok {
		return v
	}
	return jsjson.Undefined{}
}
