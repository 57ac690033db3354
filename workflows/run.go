package workflows

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// Run statuses.
const (
	StatusRunning   = "running"
	StatusSuspended = "suspended"
	StatusSuccess   = "success"
	StatusFailed    = "failed"
	StatusCanceled  = "canceled"
)

// StepResult is one step's record in a run (Mastra's step result). Its
// own JSON is the form gomastra's snapshots store; Result and Snapshot
// show it as Mastra does (see public).
type StepResult struct {
	StartedAt      int64           `json:"startedAt"`
	Status         string          `json:"status"`
	Payload        json.RawMessage `json:"payload,omitempty"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	SuspendedAt    int64           `json:"suspendedAt,omitempty"`
	ResumePayload  json.RawMessage `json:"resumePayload,omitempty"`
	ResumedAt      int64           `json:"resumedAt,omitempty"`
	Output         json.RawMessage `json:"output,omitempty"`
	Error          *ErrorInfo      `json:"error,omitempty"`
	EndedAt        int64           `json:"endedAt,omitempty"`
	// Metadata holds a loop's iteration count.
	Metadata map[string]any `json:"metadata,omitempty"`
	// Items are a foreach step's iterations, in the array's order.
	Items []*StepResult `json:"items,omitempty"`
	// ResumeSchema is a suspended step's resume schema (JSON text). It is
	// kept in the run's snapshot (a workflow tool's suspension carries
	// it) but is not part of Mastra's step result.
	ResumeSchema string `json:"resumeSchema,omitempty"`
	// SuspendedRunID is the nested run of a suspended nested workflow
	// (kept in the snapshot only, as ResumeSchema).
	SuspendedRunID string `json:"suspendedRunId,omitempty"`
}

// mastraStep is a step record as Mastra shows it, keys in its order:
// payload, startedAt, status, then what the step's end added
// (resumePayload and resumedAt for a resumed step, metadata, output or
// error, suspendPayload and suspendedAt, endedAt).
type mastraStep struct {
	Payload        json.RawMessage `json:"payload,omitempty"`
	StartedAt      int64           `json:"startedAt"`
	Status         string          `json:"status"`
	ResumePayload  json.RawMessage `json:"resumePayload,omitempty"`
	ResumedAt      int64           `json:"resumedAt,omitempty"`
	Metadata       map[string]any  `json:"metadata,omitempty"`
	Output         json.RawMessage `json:"output,omitempty"`
	Error          *ErrorInfo      `json:"error,omitempty"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	SuspendedAt    int64           `json:"suspendedAt,omitempty"`
	EndedAt        int64           `json:"endedAt,omitempty"`
	Items          []*mastraStep   `json:"items,omitempty"`
}

// public is the record as Mastra shows it (without the payload when
// dropPayload).
func (s *StepResult) public(dropPayload bool) *mastraStep {
	m := &mastraStep{Payload: s.Payload, StartedAt: s.StartedAt, Status: s.Status, ResumePayload: s.ResumePayload,
		ResumedAt: s.ResumedAt, Metadata: s.Metadata, Output: s.Output, Error: s.Error, SuspendPayload: s.SuspendPayload,
		SuspendedAt: s.SuspendedAt, EndedAt: s.EndedAt}
	if dropPayload {
		m.Payload = nil
	}
	if len(s.Items) > 0 {
		m.Items = make([]*mastraStep, len(s.Items))
		for i, it := range s.Items {
			if it != nil {
				m.Items[i] = it.public(false)
			}
		}
	}
	return m
}

// Result is how a run ended (Mastra's run result). Its JSON has Mastra's
// keys and order: status, steps (the input first, then each step in the
// order it ran), input, stepExecutionPath, then result, error or
// suspended and suspendPayload, then runId.
type Result struct {
	Status string
	Result json.RawMessage
	Error  *ErrorInfo
	// Steps are the step records by id; Order their ids in run order.
	Steps map[string]*StepResult
	Order []string
	Input json.RawMessage
	State json.RawMessage
	// StepExecutionPath lists the sequential steps that ran.
	StepExecutionPath []string
	// Suspended lists the paths of the suspended steps ([step id], or
	// [nested workflow id, step id]); SuspendPayload their payloads by
	// step id.
	Suspended      [][]string
	SuspendPayload map[string]json.RawMessage
	RunID          string
}

// repeatedPayloads are the steps of the execution path whose payload is
// the output of the step before them (the run's input for the first),
// which Mastra's result leaves out of their records (fmtReturnValue):
// the payload is there only where it says something.
func (res *Result) repeatedPayloads() map[string]bool {
	drop := map[string]bool{}
	prev := res.Input
	for _, id := range res.StepExecutionPath {
		rec := res.Steps[id]
		if rec == nil {
			continue
		}
		if jsonEqual(rec.Payload, prev) {
			drop[id] = true
		}
		if rec.Status == StatusSuccess {
			prev = rec.Output
		}
	}
	return drop
}

// jsonEqual reports whether two JSON texts hold equal values (absent
// equals absent only).
func jsonEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// MarshalJSON encodes the result in Mastra's key order. Step records are
// Mastra's: a record's payload is left out where it is the previous
// step's output, and the resume schema a suspended step's snapshot keeps
// is not shown.
func (res *Result) MarshalJSON() ([]byte, error) {
	b := []byte(`{"status":`)
	b = appendJSON(b, res.Status)
	b = append(b, `,"steps":{"input":`...)
	b = append(b, orNull(res.Input)...)
	drop := res.repeatedPayloads()
	for _, k := range res.Order {
		if rec, ok := res.Steps[k]; ok {
			b = append(b, ',')
			b = appendJSON(b, k)
			b = append(b, ':')
			b = appendJSON(b, rec.public(drop[k]))
		}
	}
	b = append(b, `},"input":`...)
	b = append(b, orNull(res.Input)...)
	b = append(b, `,"stepExecutionPath":`...)
	b = appendJSON(b, orEmpty(res.StepExecutionPath))
	switch res.Status {
	case StatusSuccess:
		b = append(b, `,"result":`...)
		b = append(b, orNull(res.Result)...)
	case StatusFailed:
		b = append(b, `,"error":`...)
		b = appendJSON(b, res.Error)
	case StatusSuspended:
		b = append(b, `,"suspended":`...)
		b = appendJSON(b, res.Suspended)
		b = append(b, `,"suspendPayload":`...)
		b = appendJSON(b, res.SuspendPayload)
	}
	if len(res.State) > 0 {
		b = append(b, `,"state":`...)
		b = append(b, res.State...)
	}
	b = append(b, `,"runId":`...)
	b = appendJSON(b, res.RunID)
	return append(b, '}'), nil
}

func appendJSON(b []byte, v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// runState is a run's snapshot: all it takes to go on. Storage holds it
// whole as of the run's first save (or a resume's compaction), then the
// changes made since (runChange, see journal); decodeRun folds them back.
type runState struct {
	WorkflowID string                 `json:"workflowId"`
	RunID      string                 `json:"runId"`
	Status     string                 `json:"status"`
	Input      json.RawMessage        `json:"input"`
	State      json.RawMessage        `json:"state,omitempty"`
	Steps      map[string]*StepResult `json:"steps"`
	Position   int                    `json:"position"`
	Prev       json.RawMessage        `json:"prev"`
	Iteration  int                    `json:"iteration,omitempty"`
	LoopInput  json.RawMessage        `json:"loopInput,omitempty"`
	// LogNext is, for a run launched elsewhere (Advance), the index in
	// its log after the chunks of the nodes before Position.
	LogNext        int64           `json:"logNext,omitempty"`
	Suspended      [][]string      `json:"suspended,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *ErrorInfo      `json:"error,omitempty"`
	RequestContext map[string]any  `json:"requestContext,omitempty"`
	// Resume is the resume under way (cleared once its step has run).
	Resume *resumeTarget `json:"resume,omitempty"`
	// Order lists step ids in the order they first ran; Path the
	// sequential ones (Mastra's stepExecutionPath).
	Order []string `json:"order,omitempty"`
	Path  []string `json:"path,omitempty"`
}

// Run is one run of a workflow (Mastra's createRun).
type Run struct {
	wf *Workflow
	id string

	mu      sync.Mutex
	state   *runState
	journal journal
	created time.Time
	// updated is when the run's state last moved on (its snapshot's
	// timestamp).
	updated    time.Time
	resourceID string

	rc     *tools.RequestContext
	emitMu sync.Mutex
	emit   func(stream.Chunk) bool
	cancel context.CancelCauseFunc
	// executing is set while execute runs the graph (cancel ends it).
	executing bool
	// unsaved is set while a suspension's snapshot is being saved: the
	// run reports itself running until it can be resumed.
	unsaved bool
	// log appends the current execution's chunks to the run's event log
	// (set under emitMu); unlogged runs (nested workflows' inner runs)
	// have none.
	log      *runLog
	unlogged bool
	// advance is the Advance under way (see Advance), nil otherwise.
	advance *advanceState
}

// RunOption configures a run.
type RunOption func(*Run)

// WithRunID sets the run's id (default: a new UUID).
func WithRunID(id string) RunOption { return func(r *Run) { r.id = id } }

// WithResourceID sets the resource the run belongs to (Mastra's
// createRun({resourceId})): it is stored with the run's snapshot, so a
// run loaded from storage keeps it.
func WithResourceID(id string) RunOption { return func(r *Run) { r.resourceID = id } }

// WithRequestContext gives the run's steps a request context.
func WithRequestContext(rc *tools.RequestContext) RunOption { return func(r *Run) { r.rc = rc } }

// CreateRun makes a run of the workflow, which must be committed.
func (w *Workflow) CreateRun(opts ...RunOption) *Run {
	now := time.Now().UTC()
	r := &Run{wf: w, id: newID(), created: now, updated: now}
	for _, o := range opts {
		o(r)
	}
	if r.rc == nil {
		r.rc = tools.NewRequestContext(nil)
	}
	r.state = &runState{WorkflowID: w.cfg.ID, RunID: r.id, Steps: map[string]*StepResult{}}
	r.journal = r.newJournal()
	return r
}

// ID returns the run's id.
func (r *Run) ID() string { return r.id }

// ResourceID returns the resource the run belongs to ("" for none).
func (r *Run) ResourceID() string { return r.resourceID }

// store is where the workflow keeps snapshots.
func (w *Workflow) store() storage.Runs {
	if w.cfg.Storage != nil {
		return w.cfg.Storage
	}
	return w.local
}

// runInputSchema is the schema a run's input is checked against before
// anything runs: Config.InputSchema, else the input schema of the first
// step when the first node hands the input to it as it is (a step, a
// loop, the steps of a parallel node), as Mastra checks the input against
// the workflow's own input schema.
func (w *Workflow) runInputSchema() schema.Schema {
	if w.cfg.InputSchema != nil {
		return w.cfg.InputSchema
	}
	if len(w.nodes) == 0 || len(w.nodes[0].steps) == 0 {
		return nil
	}
	switch w.nodes[0].kind {
	case kindStep, kindParallel, kindDoWhile, kindDoUntil:
		return w.nodes[0].steps[0].InputSchema()
	}
	return nil
}

// Start runs the workflow on input (with initialState, which may be nil)
// to its end or its first suspension. A nil input is no input at all
// (Mastra's undefined): the input schema must accept that; pass
// json.RawMessage("null") for a JSON null.
func (r *Run) Start(ctx context.Context, input, initialState any) (*Result, error) {
	return r.drain(r.Stream(ctx, input, initialState))
}

// Stream is Start yielding Mastra's workflow-* chunks as the run goes.
// A run starts once: a run that has started (here, or in another process
// over the workflow's storage) is refused with an error matching
// ErrAlreadyStarted, before any chunk; so is the
// start that loses a race to start the same run id (see
// CreateStoredRun). A start refused, or whose input is refused, leaves a
// pending run pending.
func (r *Run) Stream(ctx context.Context, input, initialState any) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		if !r.wf.committed {
			yield(stream.Chunk{}, fmt.Errorf("workflows: %s: commit the workflow before running it", r.wf.cfg.ID))
			return
		}
		in, err := marshal(input)
		if s := r.wf.runInputSchema(); err == nil && s != nil {
			if input == nil {
				err = validateAbsent(s, "input data")
			} else {
				err = validate(s, in, "input data")
			}
		}
		var st json.RawMessage
		if err == nil && initialState != nil {
			st, err = marshal(initialState)
			if err == nil && r.wf.cfg.StateSchema != nil {
				err = validate(r.wf.cfg.StateSchema, st, "initial data")
			}
		}
		if err == nil && !r.startable() {
			err = errAlreadyStarted(r.id, errors.New("it is not pending"))
		}
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		r.mu.Lock()
		was := r.state.Status
		r.state.Input, r.state.Prev, r.state.State, r.state.Status = in, in, st, StatusRunning
		r.state.RequestContext = r.rc.Serialisable()
		r.mu.Unlock()
		if err := r.claimStart(ctx); err != nil {
			r.mu.Lock()
			r.state.Status = was
			r.mu.Unlock()
			yield(stream.Chunk{}, err)
			return
		}
		if l := r.launcherOf(); l != nil {
			r.launch(ctx, 0, func() error { return l.Launch(ctx, r.id) }, yield)
			return
		}
		r.execute(ctx, yield)
	}
}

// Cancel cancels the run (Mastra's run.cancel()). A run executing in
// this process stops: its steps' contexts end, and it ends with status
// canceled. A run that is not executing here but could go on (suspended,
// loaded from storage, or not started yet) is marked canceled at once
// and saved so, so that it can no longer be resumed. A run that has
// ended stays as it ended (see MarkCanceled).
func (r *Run) Cancel() { _ = r.CancelContext(context.Background()) }

// CancelContext is Cancel, returning the error of removing a canceled
// run's snapshot from storage.
func (r *Run) CancelContext(ctx context.Context) error {
	if l := r.launcherOf(); l != nil {
		return r.cancelLaunched(ctx, l)
	}
	r.mu.Lock()
	if r.executing {
		cancel := r.cancel
		r.mu.Unlock()
		cancel(errCanceled)
		return nil
	}
	switch r.state.Status {
	case "", StatusPending, StatusRunning, StatusSuspended:
	default:
		r.mu.Unlock()
		return nil
	}
	r.state.Status, r.state.Suspended, r.state.Resume = StatusCanceled, nil, nil
	r.mu.Unlock()
	return r.persist(ctx)
}

// MarkCanceled is CancelContext, except that a run that has ended
// (success or failed) is marked canceled too, as Mastra's cancel route
// shows such a run from then on: its status becomes canceled (its steps,
// result and error stay) and its stored snapshot says so. A run already
// canceled stays as it is.
func (r *Run) MarkCanceled(ctx context.Context) error {
	r.mu.Lock()
	st := r.state.Status
	ended := !r.executing && (st == StatusSuccess || st == StatusFailed)
	if ended {
		r.state.Status = StatusCanceled
	}
	r.mu.Unlock()
	if !ended {
		return r.CancelContext(ctx)
	}
	return r.persist(ctx)
}

var errCanceled = errors.New("workflows: run canceled")

// drain collects a stream into the run's result.
func (r *Run) drain(chunks iter.Seq2[stream.Chunk, error]) (*Result, error) {
	for _, err := range chunks {
		if err != nil {
			return nil, err
		}
	}
	return r.result(), nil
}

// result is the run's result now.
// Result is the run's result as it stands (its final one once Start,
// Stream, Resume or ResumeStream has ended): what Start returns, for a
// run that was streamed. Nil before the run has started.
func (r *Run) Result() *Result {
	r.mu.Lock()
	started := r.state != nil && r.state.Status != "" && r.state.Status != StatusPending
	r.mu.Unlock()
	if !started {
		return nil
	}
	return r.result()
}

func (r *Run) result() *Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.state
	res := &Result{Status: s.Status, Input: s.Input, State: s.State, Steps: map[string]*StepResult{}, RunID: r.id, Error: s.Error,
		Order: append([]string(nil), s.Order...), StepExecutionPath: append([]string(nil), s.Path...)}
	for k, v := range s.Steps {
		c := *v
		res.Steps[k] = &c
	}
	if s.Status == StatusSuccess {
		res.Result = s.Result
	}
	if s.Status == StatusSuspended {
		res.Suspended = s.Suspended
		res.SuspendPayload = map[string]json.RawMessage{}
		for _, p := range s.Suspended {
			if rec := s.Steps[p[0]]; rec != nil {
				res.SuspendPayload[p[0]] = rec.SuspendPayload
			}
		}
	}
	return res
}

// Status is the run's status. A run reports "suspended" only once its
// snapshot is saved, so a caller that sees it can resume the run.
func (r *Run) Status() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.unsaved {
		return StatusRunning
	}
	return r.state.Status
}

// LoadRun finds run runID of the workflow in its storage (after a
// restart, in another process), to resume it.
func (w *Workflow) LoadRun(ctx context.Context, runID string, opts ...RunOption) (*Run, error) {
	stored, err := w.store().GetRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (stored.Kind != storage.KindWorkflow || stored.Name != w.cfg.ID)) {
		return nil, fmt.Errorf("workflows: %s: no stored run %q: %w", w.cfg.ID, runID, storage.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("workflows: %s: %w", w.cfg.ID, err)
	}
	st, err := decodeRun(stored.Snapshot, stored.Deltas)
	if err != nil {
		return nil, fmt.Errorf("workflows: %s: run %s: reading its snapshot: %w", w.cfg.ID, runID, err)
	}
	r := w.CreateRun(append([]RunOption{WithRunID(runID)}, opts...)...)
	r.state, r.created, r.updated = st, stored.CreatedAt, stored.UpdatedAt
	if r.resourceID == "" {
		r.resourceID = stored.ResourceID
	}
	r.journal = r.continueJournal(stored, st)
	for k, v := range st.RequestContext {
		if !r.rc.Has(k) {
			_ = r.rc.Set(k, v)
		}
	}
	return r, nil
}

// ListRuns lists the workflow's stored runs with status ("" for all
// resumable ones: running and suspended), newest UpdatedAt first. Each
// is a snapshot and the changes saved since (storage.Run.Deltas), in the
// workflow's own JSON: StoredSnapshot shows one, LoadRun takes one up.
func (w *Workflow) ListRuns(ctx context.Context, status string) ([]storage.Run, error) {
	if status != "" {
		runs, _, err := w.store().ListRuns(ctx, storage.RunFilter{Kind: storage.KindWorkflow, Name: w.cfg.ID, Status: status})
		return runs, err
	}
	var all []storage.Run
	for _, st := range []string{StatusRunning, StatusSuspended} {
		runs, err := w.ListRuns(ctx, st)
		if err != nil {
			return nil, err
		}
		all = append(all, runs...)
	}
	slices.SortStableFunc(all, func(a, b storage.Run) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	return all, nil
}

// RunQuery selects a workflow's stored runs (the filters of Mastra's
// listWorkflowRuns). Zero fields match every run.
type RunQuery struct {
	Status, ResourceID string
	// From and To bound the runs' creation time, inclusive.
	From, To time.Time
	// Page (from 0) of PerPage runs; PerPage <= 0 is every run.
	Page, PerPage int
}

// StoredRuns lists the workflow's stored runs q selects — running,
// suspended and finished ones (kept for Config.FinishedRunRetention) —
// newest created first, and how many match in all: one query of its
// storage, whatever the runs' number. Each is a storage.Run as ListRuns
// returns them: StoredSnapshot shows one.
func (w *Workflow) StoredRuns(ctx context.Context, q RunQuery) ([]storage.Run, int, error) {
	runs, total, err := w.store().ListRuns(ctx, storage.RunFilter{Kind: storage.KindWorkflow, Name: w.cfg.ID,
		Status: q.Status, ResourceID: q.ResourceID, From: q.From, To: q.To, Page: q.Page, PerPage: q.PerPage, ByCreation: true})
	if err != nil {
		return nil, 0, fmt.Errorf("workflows: %s: listing stored runs: %w", w.cfg.ID, err)
	}
	return runs, total, nil
}

// marshal encodes a value for the run (json.RawMessage passes as is).
func marshal(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if raw == nil {
			return json.RawMessage("null"), nil
		}
		return raw, nil
	}
	return json.Marshal(v)
}

func nowMillis() int64 { return time.Now().UnixMilli() }
