package workflows

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gomastra/mastra/storage"
)

// Snapshot is a run's state as Mastra keeps it in storage (its
// WorkflowRunState): what Mastra's server shows of a run in
// GET /api/workflows/:id/runs (a run's snapshot) and
// GET /api/workflows/:id/runs/:runId (parts of it). It is a copy: the run
// goes on without changing it. Its JSON is Mastra's, keys in Mastra's
// order:
//
//	{"runId","status","value","context":{"input",<step id>:<step result>...},
//	 "activePaths","stepExecutionPath","activeStepsPath","serializedStepGraph",
//	 "suspendedPaths","waitingPaths","resumeLabels","result"?,"error"?,
//	 "requestContext","timestamp","tracingContext"?}
//
// A run that has not started yet (a pending run) has Mastra's initial
// snapshot: status "pending", an empty context, no paths. Step records
// are Mastra's (StepResult, without the fields only gomastra's own
// snapshot keeps). Waiting paths and resume labels are always empty
// (gomastra has neither), tracingContext is {} on a suspended run's
// snapshot only, as on Mastra's without tracing.
type Snapshot struct {
	RunID      string
	WorkflowID string
	// ResourceID is the resource the run belongs to ("" for none).
	ResourceID string
	// Status is the run's status: "pending", "running", "suspended",
	// "success", "failed" or "canceled". Callers may change it (Mastra's
	// cancel route marks a stored run canceled whatever it was).
	Status string
	// CreatedAt is when the run was made; UpdatedAt when its state last
	// moved on (the snapshot's timestamp).
	CreatedAt, UpdatedAt time.Time

	input, value, result json.RawMessage
	err                  *ErrorInfo
	steps                map[string]*mastraStep
	order, path          []string
	active               []int
	activeSteps          []stepAt
	suspendedPaths       []stepAt
	requestContext       map[string]any
	graph                json.RawMessage
	pending, tracing     bool
}

// stepAt is a step id and its execution path.
type stepAt struct {
	id   string
	path []int
}

// Snapshot returns the run's state now, as Mastra's snapshot.
func (r *Run) Snapshot() *Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	status := r.state.Status
	if r.unsaved {
		status = StatusRunning
	}
	return r.wf.snapshot(r.state, status, r.resourceID, r.created, r.updated)
}

// StoredSnapshot is [Run.Snapshot] for a run of the workflow as its
// storage holds it (a storage.Run its ListRuns returned): its snapshot
// with its deltas folded in.
func (w *Workflow) StoredSnapshot(st *storage.Run) (*Snapshot, error) {
	rs, err := decodeRun(st.Snapshot, st.Deltas)
	if err != nil {
		return nil, fmt.Errorf("workflows: %s: run %s: reading its snapshot: %w", w.cfg.ID, st.RunID, err)
	}
	if rs.RunID == "" {
		rs.RunID = st.RunID
	}
	status := rs.Status
	if status == "" {
		status = st.Status
	}
	return w.snapshot(rs, status, st.ResourceID, st.CreatedAt, st.UpdatedAt), nil
}

// snapshot copies what Mastra's snapshot shows of s (the caller holds
// the run's lock, if any).
func (w *Workflow) snapshot(s *runState, status, resourceID string, created, updated time.Time) *Snapshot {
	snap := &Snapshot{RunID: s.RunID, WorkflowID: w.cfg.ID, ResourceID: resourceID, Status: status,
		CreatedAt: created, UpdatedAt: updated, graph: w.SerializedStepGraph()}
	if status == "" || status == StatusPending {
		snap.Status, snap.pending = StatusPending, true
		return snap
	}
	snap.input, snap.value, snap.err, snap.requestContext = s.Input, s.State, s.Error, s.RequestContext
	snap.result = s.Result // a success's (kept when it is marked canceled)
	snap.steps = make(map[string]*mastraStep, len(s.Steps))
	for k, v := range s.Steps {
		snap.steps[k] = v.public(false)
	}
	snap.order = append([]string(nil), s.Order...)
	snap.path = append([]string(nil), s.Path...)
	if n := len(w.nodes); n > 0 {
		snap.active = []int{min(s.Position, n-1)}
	}
	if status == StatusRunning {
		for _, id := range s.Order {
			if rec := s.Steps[id]; rec != nil && rec.Status == StatusRunning {
				if p := w.stepPath(id); p != nil {
					snap.activeSteps = append(snap.activeSteps, stepAt{id, p})
				}
			}
		}
	}
	if status == StatusSuspended {
		snap.tracing = true
		for _, p := range s.Suspended {
			if at := w.stepPath(p[0]); at != nil {
				snap.suspendedPaths = append(snap.suspendedPaths, stepAt{p[0], at})
			}
		}
	}
	return snap
}

// MarshalJSON encodes the snapshot as Mastra stores it.
func (s *Snapshot) MarshalJSON() ([]byte, error) {
	b := []byte(`{"runId":`)
	b = appendJSON(b, s.RunID)
	b = append(b, `,"status":`...)
	b = appendJSON(b, s.Status)
	if s.pending {
		b = append(b, `,"value":{},"context":{},"activePaths":[],"activeStepsPath":{},"serializedStepGraph":`...)
		b = append(b, orEmptyArray(s.graph)...)
		b = append(b, `,"suspendedPaths":{},"resumeLabels":{},"waitingPaths":{},"timestamp":`...)
		b = strconv.AppendInt(b, s.UpdatedAt.UnixMilli(), 10)
		return append(b, '}'), nil
	}
	b = append(b, `,"value":`...)
	if len(s.value) == 0 || string(s.value) == "null" {
		b = append(b, "{}"...)
	} else {
		b = append(b, s.value...)
	}
	b = append(b, `,"context":`...)
	b = s.appendContext(b, true)
	b = append(b, `,"activePaths":`...)
	b = appendJSON(b, orEmptyInts(s.active))
	b = append(b, `,"stepExecutionPath":`...)
	b = appendJSON(b, orEmpty(s.path))
	b = append(b, `,"activeStepsPath":`...)
	b = appendStepsAt(b, s.activeSteps)
	b = append(b, `,"serializedStepGraph":`...)
	b = append(b, orEmptyArray(s.graph)...)
	b = append(b, `,"suspendedPaths":`...)
	b = appendStepsAt(b, s.suspendedPaths)
	b = append(b, `,"waitingPaths":{},"resumeLabels":{}`...)
	if len(s.result) > 0 {
		b = append(b, `,"result":`...)
		b = append(b, s.result...)
	}
	if s.err != nil {
		b = append(b, `,"error":`...)
		b = appendJSON(b, s.err)
	}
	b = append(b, `,"requestContext":`...)
	if len(s.requestContext) == 0 {
		b = append(b, "{}"...)
	} else {
		b = appendJSON(b, s.requestContext)
	}
	b = append(b, `,"timestamp":`...)
	b = strconv.AppendInt(b, s.UpdatedAt.UnixMilli(), 10)
	if s.tracing {
		b = append(b, `,"tracingContext":{}`...)
	}
	return append(b, '}'), nil
}

// StepsJSON is the run's step records by step id, in the order the
// steps first ran, without the input: the "steps" of Mastra's
// GET /api/workflows/:id/runs/:runId.
func (s *Snapshot) StepsJSON() json.RawMessage { return s.appendContext(nil, false) }

// Input is the run's input (nil when there is none: a pending run, or a
// run started without one).
func (s *Snapshot) Input() json.RawMessage { return s.input }

// Result is a successful run's result (nil otherwise).
func (s *Snapshot) Result() json.RawMessage { return s.result }

// Error is a failed run's error (nil otherwise).
func (s *Snapshot) Error() *ErrorInfo { return s.err }

// State is the run's workflow state (nil when it has none).
func (s *Snapshot) State() json.RawMessage {
	if string(s.value) == "null" {
		return nil
	}
	return s.value
}

// SerializedStepGraph is the workflow's serialized step graph.
func (s *Snapshot) SerializedStepGraph() json.RawMessage { return orEmptyArray(s.graph) }

// ActiveStepsPath is {step id: execution path} of the steps running now.
func (s *Snapshot) ActiveStepsPath() json.RawMessage { return appendStepsAt(nil, s.activeSteps) }

// SuspendedPaths is {step id: execution path} of the suspended steps.
func (s *Snapshot) SuspendedPaths() json.RawMessage { return appendStepsAt(nil, s.suspendedPaths) }

// appendContext appends {"input"?, <step id>: <record>...} (withInput)
// or the records alone.
func (s *Snapshot) appendContext(b []byte, withInput bool) []byte {
	b = append(b, '{')
	first := true
	if withInput && len(s.input) > 0 {
		b = append(b, `"input":`...)
		b = append(b, s.input...)
		first = false
	}
	for _, k := range s.order {
		rec, ok := s.steps[k]
		if !ok {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSON(b, k)
		b = append(b, ':')
		b = appendJSON(b, rec)
	}
	return append(b, '}')
}

func appendStepsAt(b []byte, steps []stepAt) []byte {
	b = append(b, '{')
	for i, st := range steps {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSON(b, st.id)
		b = append(b, ':')
		b = appendJSON(b, st.path)
	}
	return append(b, '}')
}

func orEmptyInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func orEmptyArray(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("[]")
	}
	return raw
}
