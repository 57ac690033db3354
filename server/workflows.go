package server

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

var (
	errWorkflowNotFound = errorf(http.StatusNotFound, "Workflow not found")
	errRunNotFound      = errorf(http.StatusNotFound, "Workflow run not found")
)

// runRecord is what the server remembers of a workflow run it made: the
// run (until it is started: pending), its times, and its result once it
// has one.
type runRecord struct {
	workflowID string
	run        *workflows.Run
	resourceID string
	created    time.Time
	updated    time.Time
	started    bool
	result     *workflows.Result
	status     string
}

// runRegistry keeps the runs create-run made until they start (at most
// maxPending, oldest forgotten first) and the results of the runs the
// server ran (at most maxFinished, oldest forgotten first), so that
// GET .../runs/:runId can answer for runs that are no longer in storage
// (workflows delete a run's snapshot once it ends).
type runRegistry struct {
	mu      sync.Mutex
	pending runLRU
	known   runLRU
}

func newRunRegistry(maxPending, maxFinished int) *runRegistry {
	return &runRegistry{pending: newRunLRU(maxPending), known: newRunLRU(maxFinished)}
}

func runKey(workflowID, runID string) string { return workflowID + "\x00" + runID }

// runLRU holds at most limit run records by runKey, the oldest forgotten
// first. Its caller guards it.
type runLRU struct {
	limit int
	index map[string]*list.Element
	order *list.List
}

func newRunLRU(limit int) runLRU {
	return runLRU{limit: limit, index: map[string]*list.Element{}, order: list.New()}
}

// put adds rec under key (a record already there is replaced and becomes
// the newest), forgetting the oldest records beyond the limit.
func (c *runLRU) put(key string, rec *runRecord) {
	if e, ok := c.index[key]; ok {
		c.order.Remove(e)
	}
	c.index[key] = c.order.PushBack(rec)
	for c.order.Len() > c.limit {
		old := c.order.Remove(c.order.Front()).(*runRecord)
		delete(c.index, runKey(old.workflowID, old.run.ID()))
	}
}

// get returns the record under key.
func (c *runLRU) get(key string) (*runRecord, bool) {
	e, ok := c.index[key]
	if !ok {
		return nil, false
	}
	return e.Value.(*runRecord), true
}

// take removes the record under key and returns it.
func (c *runLRU) take(key string) (*runRecord, bool) {
	e, ok := c.index[key]
	if !ok {
		return nil, false
	}
	c.order.Remove(e)
	delete(c.index, key)
	return e.Value.(*runRecord), true
}

// addPending remembers a run made by create-run.
func (g *runRegistry) addPending(rec *runRecord) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending.put(runKey(rec.workflowID, rec.run.ID()), rec)
}

// begin starts tracking a run about to start: the pending record of
// create-run, if any, becomes the run's record (keeping its creation time
// and resource), atomically, so that of two starts of one run id only
// the first goes through (false: the run has been started already).
func (g *runRegistry) begin(workflowID string, run *workflows.Run, resourceID string) (*runRecord, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := runKey(workflowID, run.ID())
	if _, started := g.known.get(key); started {
		return nil, false
	}
	now := time.Now().UTC()
	rec := &runRecord{workflowID: workflowID, created: now}
	if pending, ok := g.pending.take(key); ok {
		rec = pending
	}
	rec.run, rec.started, rec.updated, rec.status = run, true, now, workflows.StatusRunning
	if resourceID != "" {
		rec.resourceID = resourceID
	}
	g.known.put(key, rec)
	return rec, true
}

// track remembers a run the server is running or has run (a resumed
// run: it replaces the run's earlier record).
func (g *runRegistry) track(rec *runRecord) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.known.put(runKey(rec.workflowID, rec.run.ID()), rec)
}

// finish records a run's outcome: its result when there is one (a
// streamed run has none: its status is the run's own), else the earlier
// result stays (a failed resume leaves the run as it was).
func (g *runRegistry) finish(rec *runRecord, res *workflows.Result) {
	status := rec.run.Status()
	g.mu.Lock()
	defer g.mu.Unlock()
	rec.updated = time.Now().UTC()
	rec.status = status
	if res != nil {
		rec.result, rec.status = res, res.Status
	}
}

// lookup returns the pending or known record of a run.
func (g *runRegistry) lookup(workflowID, runID string) (rec runRecord, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	key := runKey(workflowID, runID)
	if rec, found := g.known.get(key); found {
		return *rec, true
	}
	if rec, found := g.pending.get(key); found {
		return *rec, true
	}
	return runRecord{}, false
}

// workflowAndBody reads the body, then resolves the path's workflow (a
// bad body is a 400 even for an unknown workflow).
func (s *Server) workflowAndBody(r *http.Request) (*workflows.Workflow, fields, error) {
	f, err := s.readFields(r)
	if err != nil {
		return nil, nil, err
	}
	wf, err := s.workflow(r)
	if err != nil {
		return nil, nil, err
	}
	return wf, f, nil
}

// workflow finds the path's workflow by registry key, then by id.
func (s *Server) workflow(r *http.Request) (*workflows.Workflow, error) {
	id := r.PathValue("workflowId")
	if w, err := s.m.GetWorkflow(id); err == nil {
		return w, nil
	}
	for _, key := range s.m.WorkflowKeys() {
		if w, err := s.m.GetWorkflow(key); err == nil && w.ID() == id {
			return w, nil
		}
	}
	return nil, errWorkflowNotFound
}

// GET /workflows: {key: workflow info}.
func (s *Server) listWorkflows(w http.ResponseWriter, r *http.Request) {
	o := newObject()
	for _, key := range s.m.WorkflowKeys() {
		wf, err := s.m.GetWorkflow(key)
		if err != nil {
			continue
		}
		b, err := workflowInfo(wf)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		o.raw(key, b)
	}
	writeRawJSON(w, http.StatusOK, o.bytes())
}

// GET /workflows/{workflowId}.
func (s *Server) getWorkflow(w http.ResponseWriter, r *http.Request) {
	wf, err := s.workflow(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := workflowInfo(wf)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeRawJSON(w, http.StatusOK, b)
}

func newRunID() string { return uuid.New() }

// POST /workflows/{workflowId}/create-run?runId=: body {resourceId?,
// runId?}; {runId}. The run is kept (see Options.MaxPendingRuns) until a
// start route takes it.
func (s *Server) createRun(w http.ResponseWriter, r *http.Request) {
	wf, f, err := s.workflowAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := &validator{f: f}
	resourceID, _ := v.str("resourceId", false)
	bodyRunID, _ := v.str("runId", false)
	if err := v.err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	runID := r.URL.Query().Get("runId")
	if runID == "" {
		runID = bodyRunID
	}
	if runID == "" {
		runID = newRunID()
	}
	if _, ok := s.runs.lookup(wf.ID(), runID); !ok {
		now := time.Now().UTC()
		s.runs.addPending(&runRecord{workflowID: wf.ID(), run: wf.CreateRun(workflows.WithRunID(runID)),
			resourceID: resourceID, created: now, updated: now, status: "pending"})
	}
	writeRawJSON(w, http.StatusOK, newObject().str("runId", runID).bytes())
}

// startRequest is a parsed start body.
type startRequest struct {
	wf           *workflows.Workflow
	rec          *runRecord
	input, state any
}

// startBody reads {inputData, initialState?, requestContext?,
// resourceId?} and takes (or makes) the run ?runId= names. With
// existing, as Mastra's /start route, ?runId= is required and must name a
// run create-run made (400 / 404 otherwise).
func (s *Server) startBody(r *http.Request, existing bool) (*startRequest, error) {
	if existing && r.URL.Query().Get("runId") == "" {
		return nil, invalidQuery(issue{Field: "runId", Message: expected("string", nil)})
	}
	wf, f, err := s.workflowAndBody(r)
	if err != nil {
		return nil, err
	}
	v := &validator{f: f}
	rc := v.requestContext(authResource(r))
	resourceID, _ := v.str("resourceId", false)
	// Input and state pass on as the client's JSON (no float64 round
	// trip: large integers keep their digits).
	var input, state any
	if raw, ok := f["inputData"]; ok {
		input = raw
	}
	if raw, ok := f["initialState"]; ok {
		state = raw
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if auth := authResource(r); auth != "" {
		resourceID = auth
	}
	runID := r.URL.Query().Get("runId")
	if runID == "" {
		runID = newRunID()
	}
	if _, ok := s.runs.lookup(wf.ID(), runID); existing && !ok {
		return nil, errRunNotFound
	}
	// A fresh Run each start: the request context is the start's.
	rec, ok := s.runs.begin(wf.ID(), wf.CreateRun(workflows.WithRunID(runID), workflows.WithRequestContext(rc)), resourceID)
	if !ok {
		return nil, errorf(http.StatusConflict, "Workflow run "+runID+" has already been started")
	}
	return &startRequest{wf: wf, rec: rec, input: input, state: state}, nil
}

// POST /workflows/{workflowId}/start-async?runId=: runs the workflow to
// its end or first suspension; the run's result.
func (s *Server) startAsync(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := req.rec.run.Start(r.Context(), req.input, req.state)
	s.runs.finish(req.rec, res)
	s.writeResult(w, r, res, err)
}

func (s *Server) writeResult(w http.ResponseWriter, r *http.Request, res *workflows.Result, err error) {
	if err != nil {
		s.writeRunError(w, r, err)
		return
	}
	b, err := res.MarshalJSON()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeRawJSON(w, http.StatusOK, unescapeJS(b))
}

// POST /workflows/{workflowId}/start?runId=: starts the run create-run
// made (400 without runId, 404 for a run it did not make) in the
// background (under the server's background context) and answers
// {"message":"Workflow run started"} at once.
func (s *Server) startNoWait(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.runInBackground(w, r, `{"message":"Workflow run started"}`, func(ctx context.Context) {
		res, err := req.rec.run.Start(ctx, req.input, req.state)
		if err != nil {
			s.log.Warn("workflow run failed to start", "workflow", req.wf.ID(), "runId", req.rec.run.ID(), "error", err)
		}
		s.runs.finish(req.rec, res)
	})
}

// runInBackground hands fn to the server's background (see goBackground)
// and answers message, or the error when the server is shutting down.
func (s *Server) runInBackground(w http.ResponseWriter, r *http.Request, message string, fn func(ctx context.Context)) {
	if err := s.goBackground(fn); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeRawJSON(w, http.StatusOK, []byte(message))
}

// POST /workflows/{workflowId}/stream?runId=: the run's chunks, as
// "\x1E"-separated JSON records (Mastra's format, which
// @mastra/client-js reads), or as SSE when the request accepts
// text/event-stream.
func (s *Server) streamWorkflow(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer func() { s.runs.finish(req.rec, req.rec.run.Result()) }()
	s.writeStream(w, r, req.rec.run.Stream(r.Context(), req.input, req.state), workflowFormat(r))
}

func workflowFormat(r *http.Request) streamFormat {
	if wantsSSE(r) {
		return formatSSE
	}
	return formatRecords
}

// resumeRequest is a parsed resume body.
type resumeRequest struct {
	rec  *runRecord
	opts workflows.ResumeOptions
}

// resumeBody reads ?runId= (required) and {step?, resumeData?,
// requestContext?, forEachIndex?}, and loads the suspended run from the
// workflow's storage (404 when there is none). The run's record replaces
// the earlier one only once the resume has gone through (of concurrent
// resumes, the one that wins), see resumed.
func (s *Server) resumeBody(r *http.Request) (*resumeRequest, error) {
	wf, f, err := s.workflowAndBody(r)
	if err != nil {
		return nil, err
	}
	runID := r.URL.Query().Get("runId")
	if runID == "" {
		return nil, invalidQuery(issue{Field: "runId", Message: expected("string", nil)})
	}
	v := &validator{f: f}
	rc := v.requestContext(authResource(r))
	var opts workflows.ResumeOptions
	if raw, ok := f["step"]; ok {
		switch jsType(raw) {
		case "string":
			var st string
			_ = json.Unmarshal(raw, &st)
			opts.Step = []string{st}
		case "array":
			if steps, ok := v.strings("step"); ok {
				opts.Step = steps
			}
		default:
			v.add("step", "Invalid input")
		}
	}
	if raw, ok := f["resumeData"]; ok {
		opts.Data = raw
	}
	if n, ok := v.number("forEachIndex"); ok {
		i := int(n)
		opts.ForEachIndex = &i
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	if err := s.checkWorkflowRunOwner(r, wf, runID); err != nil {
		return nil, err
	}
	run, err := wf.LoadRun(r.Context(), runID, workflows.WithRequestContext(rc))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errRunNotFound
	}
	if err != nil {
		return nil, err
	}
	rec, ok := s.runs.lookup(wf.ID(), runID)
	if !ok {
		rec = runRecord{workflowID: wf.ID(), created: time.Now().UTC()}
	}
	rec.run, rec.started, rec.status, rec.updated = run, true, workflows.StatusRunning, time.Now().UTC()
	return &resumeRequest{rec: &rec, opts: opts}, nil
}

// checkWorkflowRunOwner refuses a run the server knows to belong to
// another resource than the authenticated one.
func (s *Server) checkWorkflowRunOwner(r *http.Request, wf *workflows.Workflow, runID string) error {
	auth := authResource(r)
	if auth == "" {
		return nil
	}
	if rec, ok := s.runs.lookup(wf.ID(), runID); ok && rec.resourceID != "" && rec.resourceID != auth {
		return errorf(http.StatusForbidden, "Access denied: workflow run belongs to a different resource")
	}
	return nil
}

// POST /workflows/{workflowId}/resume-async?runId=: the run's result.
func (s *Server) resumeAsync(w http.ResponseWriter, r *http.Request) {
	req, err := s.resumeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := req.rec.run.Resume(r.Context(), req.opts)
	if err == nil {
		s.runs.track(req.rec)
		s.runs.finish(req.rec, res)
	}
	s.writeResult(w, r, res, err)
}

// POST /workflows/{workflowId}/resume?runId=: resumes in the background;
// {"message":"Workflow run resumed"}.
func (s *Server) resumeNoWait(w http.ResponseWriter, r *http.Request) {
	req, err := s.resumeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.runInBackground(w, r, `{"message":"Workflow run resumed"}`, func(ctx context.Context) {
		res, err := req.rec.run.Resume(ctx, req.opts)
		if err != nil {
			s.log.Warn("workflow run failed to resume", "workflowId", req.rec.workflowID, "runId", req.rec.run.ID(), "error", err)
			return
		}
		s.runs.track(req.rec)
		s.runs.finish(req.rec, res)
	})
}

// POST /workflows/{workflowId}/resume-stream?runId=: the resumed run's
// chunks (records, or SSE on request).
func (s *Server) resumeStreamWorkflow(w http.ResponseWriter, r *http.Request) {
	req, err := s.resumeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	tracked := false
	seq := req.rec.run.ResumeStream(r.Context(), req.opts)
	s.writeStream(w, r, func(yield func(stream.Chunk, error) bool) {
		for c, err := range seq {
			if err == nil && !tracked {
				tracked = true
				s.runs.track(req.rec)
			}
			if !yield(c, err) {
				return
			}
		}
	}, workflowFormat(r))
	if tracked {
		s.runs.finish(req.rec, req.rec.run.Result())
	}
}

// GET /workflows/{workflowId}/runs/{runId}: {runId, workflowName,
// resourceId?, createdAt, updatedAt, status, result?, error?, payload,
// steps?}. Runs this server made or ran come from its own records; other
// runs (suspended or left running, e.g. by another process) from the
// workflow's storage; 404 otherwise.
func (s *Server) getWorkflowRun(w http.ResponseWriter, r *http.Request) {
	wf, err := s.workflow(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	runID := r.PathValue("runId")
	if err := s.checkWorkflowRunOwner(r, wf, runID); err != nil {
		s.writeError(w, r, err)
		return
	}
	if rec, ok := s.runs.lookup(wf.ID(), runID); ok {
		s.writeRunRecord(w, r, wf, &rec)
		return
	}
	stored, err := wf.ListRuns(r.Context(), "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, st := range stored {
		if st.RunID != runID {
			continue
		}
		// The snapshot is the workflow's own JSON; these are the fields
		// a run's answer shows.
		var snap struct {
			Status string                           `json:"status"`
			Input  json.RawMessage                  `json:"input"`
			Steps  map[string]*workflows.StepResult `json:"steps"`
			Result json.RawMessage                  `json:"result"`
			Error  *workflows.ErrorInfo             `json:"error"`
			Order  []string                         `json:"order"`
		}
		if err := json.Unmarshal(st.Snapshot, &snap); err != nil {
			s.writeError(w, r, err)
			return
		}
		res := &workflows.Result{Status: snap.Status, Input: snap.Input, Steps: snap.Steps, Order: snap.Order, Result: snap.Result, Error: snap.Error, RunID: runID}
		if res.Status == "" {
			res.Status = st.Status
		}
		rec := runRecord{workflowID: wf.ID(), resourceID: st.ResourceID, created: st.CreatedAt, updated: st.UpdatedAt, result: res, status: res.Status}
		s.writeRunRecord(w, r, wf, &rec)
		return
	}
	s.writeError(w, r, errRunNotFound)
}

func (s *Server) writeRunRecord(w http.ResponseWriter, r *http.Request, wf *workflows.Workflow, rec *runRecord) {
	status := rec.status
	if rec.run != nil && rec.started {
		if st := rec.run.Status(); st != "" {
			status = st
		}
	}
	if status == "" {
		status = "pending"
	}
	runID := ""
	if rec.run != nil {
		runID = rec.run.ID()
	} else if rec.result != nil {
		runID = rec.result.RunID
	}
	o := newObject().str("runId", runID).str("workflowName", wf.ID())
	if rec.resourceID != "" {
		o.str("resourceId", rec.resourceID)
	}
	o.str("createdAt", isoTime(rec.created)).str("updatedAt", isoTime(rec.updated)).str("status", status)
	if res := rec.result; res != nil {
		full, err := res.MarshalJSON()
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		parsed, err := parseOrdered(full)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		for _, k := range []string{"result", "error"} {
			if v := parsed.get(k); v != nil {
				o.raw(k, v.appendTo(nil))
			}
		}
		if v := parsed.get("input"); v != nil {
			o.raw("payload", v.appendTo(nil))
		}
		if v := parsed.get("steps"); v != nil {
			o.raw("steps", v.appendTo(nil))
		}
	}
	writeRawJSON(w, http.StatusOK, unescapeJS(o.bytes()))
}
