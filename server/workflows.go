package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

var (
	errWorkflowNotFound = errorf(http.StatusNotFound, "Workflow not found")
	errRunNotFound      = errorf(http.StatusNotFound, "Workflow run not found")
)

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

// errNotSuspended is Mastra's answer to resuming a run that is not
// suspended (one that has ended, or has not started).
var errNotSuspended = errorf(http.StatusInternalServerError, "This workflow run was not suspended")

// GET /workflows?partial=: {key: workflow info}; with partial=true each
// workflow's info without its steps' schemas (Mastra's partial info).
func (s *Server) listWorkflows(w http.ResponseWriter, r *http.Request) {
	partial := r.URL.Query().Get("partial") == "true"
	o := newObject()
	for _, key := range s.m.WorkflowKeys() {
		wf, err := s.m.GetWorkflow(key)
		if err != nil {
			continue
		}
		var b []byte
		if partial {
			b = partialWorkflowInfo(wf)
		} else if b, err = workflowInfo(wf); err != nil {
			s.writeError(w, r, err)
			return
		}
		o.Raw(key, b)
	}
	wire.WriteJSON(w, http.StatusOK, o.Bytes())
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
	wire.WriteJSON(w, http.StatusOK, b)
}

func newRunID() string { return uuid.New() }

// POST /workflows/{workflowId}/create-run?runId=: body {resourceId?,
// runId?}; {runId}. The run is stored, pending (Mastra's createRun), in
// the workflow's storage, where a start route of any server over that
// storage takes it; a run of that id stored already is left as it is.
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
	if _, err := wf.CreateStoredRun(r.Context(), workflows.WithRunID(runID), workflows.WithResourceID(resourceID)); err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, newObject().Str("runId", runID).Bytes())
}

// errAlreadyStarted answers a start of a run that has started: one
// executing here, or one in storage (suspended, finished, or another
// replica's). It is the text of workflows.ErrAlreadyStarted's errors.
func errAlreadyStarted(runID string) error {
	return errorf(http.StatusConflict, "Workflow run "+runID+" has already been started")
}

// startRequest is a parsed start body.
type startRequest struct {
	wf           *workflows.Workflow
	rec          *runRecord
	input, state any
}

// startMode says what a start route requires of ?runId=.
type startMode int

const (
	// startAny: start-async; ?runId= is optional (a new id otherwise).
	startAny startMode = iota
	// startStreamed: stream; ?runId= is required.
	startStreamed
	// startCreated: start; ?runId= is required and must name a run
	// create-run made (404 otherwise).
	startCreated
)

// startBody reads {inputData, initialState?, requestContext?,
// resourceId?} and takes (or makes) the run ?runId= names, as mode says.
// An absent inputData is no input at all (the workflow's input schema
// decides).
func (s *Server) startBody(r *http.Request, mode startMode) (*startRequest, error) {
	if mode != startAny && r.URL.Query().Get("runId") == "" {
		return nil, invalidQuery(wire.Issue{Field: "runId", Message: zodmsg.Expected("string", nil)})
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
	run, err := s.runToStart(r, wf, runID, mode, rc, resourceID)
	if err != nil {
		return nil, err
	}
	rec := &runRecord{workflowID: wf.ID(), run: run}
	if !s.runs.begin(rec) {
		return nil, errAlreadyStarted(runID)
	}
	return &startRequest{wf: wf, rec: rec, input: input, state: state}, nil
}

// runToStart is the run a start route starts: the pending run create-run
// stored (403 for another resource's than the authenticated one; a
// resourceID given replaces the one it was made with), else, unless mode
// is startCreated (404), a new run. A run stored that is not pending has
// started: 409.
func (s *Server) runToStart(r *http.Request, wf *workflows.Workflow, runID string, mode startMode, rc *tools.RequestContext, resourceID string) (*workflows.Run, error) {
	opts := []workflows.RunOption{workflows.WithRunID(runID), workflows.WithRequestContext(rc)}
	run, err := wf.LoadRun(r.Context(), runID, opts...)
	switch {
	case errors.Is(err, storage.ErrNotFound) && mode == startCreated:
		return nil, errRunNotFound
	case errors.Is(err, storage.ErrNotFound):
		// A fresh Run each start: the request context is the start's.
		return wf.CreateRun(append(opts, workflows.WithResourceID(resourceID))...), nil
	case err != nil:
		return nil, err
	case run.Status() != workflows.StatusPending:
		return nil, errAlreadyStarted(runID)
	}
	if err := checkRunOwner(r, run.ResourceID()); err != nil {
		return nil, err
	}
	if resourceID != "" && resourceID != run.ResourceID() {
		return wf.LoadRun(r.Context(), runID, append(opts, workflows.WithResourceID(resourceID))...)
	}
	return run, nil
}

// POST /workflows/{workflowId}/start-async?runId=: runs the workflow to
// its end or first suspension; the run's result. Input the workflow's
// input schema refuses is 400.
func (s *Server) startAsync(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, startAny)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := req.rec.run.Start(r.Context(), req.input, req.state)
	s.runs.end(req.rec)
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
	wire.WriteJSON(w, http.StatusOK, wire.UnescapeJS(b))
}

// POST /workflows/{workflowId}/start?runId=: starts the run create-run
// made (400 without runId, 404 for a run it did not make) in the
// background (under the server's background context) and answers
// {"message":"Workflow run started"} at once.
func (s *Server) startNoWait(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, startCreated)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.runInBackground(w, r, `{"message":"Workflow run started"}`, func(ctx context.Context) {
		if _, err := req.rec.run.Start(ctx, req.input, req.state); err != nil {
			s.log.Warn("workflow run failed to start", "workflow", req.wf.ID(), "runId", req.rec.run.ID(), "error", storage.ErrorDetail(err))
		}
		s.runs.end(req.rec)
	})
}

// runInBackground hands fn to the server's background (see goBackground)
// and answers message, or the error when the server is shutting down.
func (s *Server) runInBackground(w http.ResponseWriter, r *http.Request, message string, fn func(ctx context.Context)) {
	if err := s.goBackground(fn); err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, []byte(message))
}

// POST /workflows/{workflowId}/stream?runId=: the run's chunks, as
// "\x1E"-separated JSON records (Mastra's format, which
// @mastra/client-js reads), or as SSE when the request accepts
// text/event-stream. ?runId= is required, as Mastra's. The run executes
// in the server's background: a client that goes away detaches, the run
// goes on (POST .../observe follows it again, from any record).
func (s *Server) streamWorkflow(w http.ResponseWriter, r *http.Request) {
	req, err := s.startBody(r, startStreamed)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	seq, err := s.detachedChunks(r, func(ctx context.Context) chunkSeq {
		return req.rec.run.Stream(ctx, req.input, req.state)
	}, func() { s.runs.end(req.rec) })
	if err != nil {
		s.runs.end(req.rec)
		s.writeError(w, r, err)
		return
	}
	s.writeStream(w, r, seq, workflowFormat(r))
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

// resumeWait bounds how long a resume waits for a run of this server
// that is still running to suspend (Mastra waits 2 s for its snapshot to
// say suspended), polling every resumePoll.
const (
	resumeWait = 2 * time.Second
	resumePoll = 25 * time.Millisecond
)

// resumeBody reads ?runId= (required) and {step?, resumeData?,
// requestContext?, forEachIndex?}, and loads the suspended run from the
// workflow's storage: 404 for a run neither storage nor this server
// knows, 403 for another resource's, 500 "This workflow run was not
// suspended" for a run that has ended, that has not started (pending),
// or that this server is still running after resumeWait. The run's record
// replaces the earlier one only once the resume has gone through (of
// concurrent resumes, the one that wins), see resumeRun.
func (s *Server) resumeBody(r *http.Request) (*resumeRequest, error) {
	wf, f, err := s.workflowAndBody(r)
	if err != nil {
		return nil, err
	}
	runID := r.URL.Query().Get("runId")
	if runID == "" {
		return nil, invalidQuery(wire.Issue{Field: "runId", Message: zodmsg.Expected("string", nil)})
	}
	v := &validator{f: f}
	rc := v.requestContext(authResource(r))
	var opts workflows.ResumeOptions
	if raw, ok := f["step"]; ok {
		switch zodmsg.TypeOf(raw) {
		case "string":
			var st string
			_ = json.Unmarshal(raw, &st)
			opts.Step = strings.Split(st, ".")
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
	// A run executing here may be about to suspend: it is waited for.
	active, known := s.runs.lookup(wf.ID(), runID)
	if known {
		if err := checkRunOwner(r, active.run.ResourceID()); err != nil {
			return nil, err
		}
		if !s.awaitSuspension(r.Context(), active.run) {
			return nil, errNotSuspended
		}
	}
	run, err := wf.LoadRun(r.Context(), runID, workflows.WithRequestContext(rc))
	switch {
	case errors.Is(err, storage.ErrNotFound) && known:
		return nil, errNotSuspended // it has not saved itself yet
	case errors.Is(err, storage.ErrNotFound):
		return nil, errRunNotFound
	case err != nil:
		return nil, err
	}
	if err := checkRunOwner(r, run.ResourceID()); err != nil {
		return nil, err
	}
	return &resumeRequest{rec: &runRecord{workflowID: wf.ID(), run: run}, opts: opts}, nil
}

// awaitSuspension waits (at most resumeWait) for a run this server is
// running to stop running, and reports whether it did.
func (s *Server) awaitSuspension(ctx context.Context, run *workflows.Run) bool {
	if run.Status() != workflows.StatusRunning {
		return true
	}
	deadline := time.NewTimer(resumeWait)
	defer deadline.Stop()
	tick := time.NewTicker(resumePoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return run.Status() != workflows.StatusRunning
		case <-tick.C:
			if run.Status() != workflows.StatusRunning {
				return true
			}
		}
	}
}

// checkRunOwner refuses a run of another resource than the
// authenticated one (Mastra's validateRunOwnership).
func checkRunOwner(r *http.Request, resourceID string) error {
	if auth := authResource(r); auth != "" && resourceID != "" && resourceID != auth {
		return errorf(http.StatusForbidden, "Access denied: workflow run belongs to a different resource")
	}
	return nil
}

// resumeChunks resumes the run; once the resume has gone through (its
// first chunk), the run's record is the server's record of the run until
// it stops executing.
func (s *Server) resumeChunks(ctx context.Context, req *resumeRequest) chunkSeq {
	seq := req.rec.run.ResumeStream(ctx, req.opts)
	return func(yield func(stream.Chunk, error) bool) {
		tracked := false
		defer func() {
			if tracked {
				s.runs.end(req.rec)
			}
		}()
		for c, err := range seq {
			if err == nil && !tracked {
				tracked = true
				s.runs.track(req.rec)
			}
			if !yield(c, err) {
				return
			}
		}
	}
}

// resumeRun resumes the run to its end or next suspension.
func (s *Server) resumeRun(ctx context.Context, req *resumeRequest) (*workflows.Result, error) {
	for _, err := range s.resumeChunks(ctx, req) {
		if err != nil {
			return nil, err
		}
	}
	return req.rec.run.Result(), nil
}

// POST /workflows/{workflowId}/resume-async?runId=: the run's result.
func (s *Server) resumeAsync(w http.ResponseWriter, r *http.Request) {
	req, err := s.resumeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.resumeRun(r.Context(), req)
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
		if _, err := s.resumeRun(ctx, req); err != nil {
			s.log.Warn("workflow run failed to resume", "workflowId", req.rec.workflowID, "runId", req.rec.run.ID(), "error", storage.ErrorDetail(err))
		}
	})
}

// POST /workflows/{workflowId}/resume-stream?runId=: the resumed run's
// chunks (records, or SSE on request). As with stream, a client that
// goes away detaches; the resumed run goes on.
func (s *Server) resumeStreamWorkflow(w http.ResponseWriter, r *http.Request) {
	req, err := s.resumeBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	seq, err := s.detachedChunks(r, func(ctx context.Context) chunkSeq { return s.resumeChunks(ctx, req) }, func() {})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeStream(w, r, seq, workflowFormat(r))
}

// findRun returns the run's snapshot: the run as it is now when it is
// executing here, else from the workflow's storage (pending, suspended
// and finished runs, this server's, another replica's or from before a
// restart); errRunNotFound when neither knows it.
func (s *Server) findRun(ctx context.Context, wf *workflows.Workflow, runID string) (*workflows.Snapshot, error) {
	if rec, ok := s.runs.lookup(wf.ID(), runID); ok {
		return rec.run.Snapshot(), nil
	}
	run, err := wf.LoadRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errRunNotFound
	}
	if err != nil {
		return nil, err
	}
	return run.Snapshot(), nil
}

// runResultFields are the fields ?fields= may name (Mastra's
// VALID_WORKFLOW_RESULT_FIELDS).
var runResultFields = []string{"result", "error", "payload", "steps", "activeStepsPath", "serializedStepGraph"}

// GET /workflows/{workflowId}/runs/{runId}?fields=&withNestedWorkflows=:
// Mastra's workflow run: {runId, workflowName, resourceId?, createdAt,
// updatedAt, status, initialState?, result?, error?, payload?, steps,
// activeStepsPath, serializedStepGraph, suspendedPaths, resumeLabels,
// waitingPaths}, the steps' records without the run's input (which is
// payload). ?fields=a,b keeps the metadata, status and the fields named
// (of runResultFields). Runs executing here are shown as they are now,
// the others as the workflow's storage has them (which keeps finished
// runs for workflows.Config.FinishedRunRetention); 404 otherwise.
func (s *Server) getWorkflowRun(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var fields []string
	var issues []wire.Issue
	if raw := q.Get("fields"); raw != "" {
		for _, f := range strings.Split(raw, ",") {
			f = strings.TrimSpace(f)
			if !slices.Contains(runResultFields, f) {
				issues = append(issues, wire.Issue{Field: "fields", Message: "Invalid field name. Available fields: " + strings.Join(runResultFields, ", ")})
				break
			}
			fields = append(fields, f)
		}
	}
	if nested, ok := q["withNestedWorkflows"]; ok && nested[0] != "true" && nested[0] != "false" {
		issues = append(issues, wire.Issue{Field: "withNestedWorkflows", Message: `Invalid option: expected one of "true"|"false"`})
	}
	if len(issues) > 0 {
		s.writeError(w, r, invalidQuery(issues...))
		return
	}
	wf, err := s.workflow(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	snap, err := s.findRun(r.Context(), wf, r.PathValue("runId"))
	if err == nil {
		err = checkRunOwner(r, snap.ResourceID)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, http.StatusOK, wire.UnescapeJS(runJSON(wf, snap, fields)))
}

// runJSON is Mastra's workflow run (see getWorkflowRun) of snap.
func runJSON(wf *workflows.Workflow, snap *workflows.Snapshot, fields []string) []byte {
	all := len(fields) == 0
	want := func(f string) bool { return all || slices.Contains(fields, f) }
	o := newObject().Str("runId", snap.RunID).Str("workflowName", wf.ID())
	if snap.ResourceID != "" {
		o.Str("resourceId", snap.ResourceID)
	}
	o.Str("createdAt", isoTime(snap.CreatedAt)).Str("updatedAt", isoTime(snap.UpdatedAt)).Str("status", snap.Status)
	if st := snap.State(); len(st) > 0 && string(st) != "{}" && zodmsg.TypeOf(st) == "object" {
		o.Raw("initialState", st)
	}
	if res := snap.Result(); len(res) > 0 && want("result") {
		o.Raw("result", res)
	}
	if e := snap.Error(); e != nil && want("error") {
		o.Value("error", e) // left out when it cannot be encoded
	}
	if in := snap.Input(); len(in) > 0 && want("payload") {
		o.Raw("payload", in)
	}
	if want("steps") {
		o.Raw("steps", snap.StepsJSON())
	}
	if want("activeStepsPath") {
		o.Raw("activeStepsPath", snap.ActiveStepsPath())
	}
	if want("serializedStepGraph") {
		o.Raw("serializedStepGraph", snap.SerializedStepGraph())
	}
	if all {
		o.Raw("suspendedPaths", snap.SuspendedPaths())
		o.Raw("resumeLabels", []byte("{}"))
		o.Raw("waitingPaths", []byte("{}"))
	}
	return o.Bytes()
}

// runStatuses are the statuses ?status= may name (Mastra's
// workflowRunStatusSchema).
var runStatuses = []string{"running", "waiting", "suspended", "success", "failed", "canceled", "pending", "bailed", "tripwire", "paused", "skipped"}

// runListQuery is GET .../runs's parsed query.
type runListQuery struct {
	page, perPage, offset, limit             int
	hasPage, hasPerPage, hasOffset, hasLimit bool
	from, to                                 time.Time
	resourceID, status                       string
}

// parseRunListQuery reads ?page, perPage, offset, limit (integers >= 0),
// fromDate, toDate (dates), resourceId and status, with Mastra's issues.
func parseRunListQuery(r *http.Request) (runListQuery, error) {
	var q runListQuery
	var issues []wire.Issue
	for _, p := range []struct {
		key string
		n   *int
		has *bool
	}{{"page", &q.page, &q.hasPage}, {"perPage", &q.perPage, &q.hasPerPage}, {"offset", &q.offset, &q.hasOffset}, {"limit", &q.limit, &q.hasLimit}} {
		n, ok, iss := queryInt(r, p.key, 0)
		if iss != nil {
			issues = append(issues, *iss)
		}
		*p.n, *p.has = n, ok
	}
	values := r.URL.Query()
	for _, d := range []struct {
		key string
		t   *time.Time
	}{{"fromDate", &q.from}, {"toDate", &q.to}} {
		if raw := values.Get(d.key); raw != "" {
			t, ok := parseJSDate(raw)
			if !ok {
				issues = append(issues, wire.Issue{Field: d.key, Message: "Invalid input: expected date, received Date"})
			}
			*d.t = t
		}
	}
	q.resourceID = values.Get("resourceId")
	if st, ok := values["status"]; ok {
		q.status = st[0]
		if !slices.Contains(runStatuses, q.status) {
			issues = append(issues, wire.Issue{Field: "status", Message: `Invalid option: expected one of "` + strings.Join(runStatuses, `"|"`) + `"`})
		}
	}
	if len(issues) > 0 {
		return q, invalidQuery(issues...)
	}
	// As Mastra's handler: limit stands in for perPage, offset for page.
	if !q.hasPerPage && q.hasLimit {
		q.perPage, q.hasPerPage = q.limit, true
	}
	if !q.hasPage && q.hasOffset && q.hasPerPage && q.perPage > 0 {
		q.page, q.hasPage = q.offset/q.perPage, true
	}
	if q.hasPerPage && q.perPage <= 0 {
		return q, errorf(http.StatusBadRequest, "perPage must be a positive integer")
	}
	return q, nil
}

// parseJSDate reads the date forms JavaScript's Date parses for sure:
// ISO 8601 date-times (with a zone, or UTC without), and dates.
func parseJSDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// GET /workflows/{workflowId}/runs?page&perPage&offset&limit&fromDate&
// toDate&resourceId&status: {"runs": [...], "total": n}, newest first,
// as Mastra's server over its in-memory store (InMemoryStore) answers:
// each run {workflow_name, run_id, resourceId?, snapshot, createdAt,
// updatedAt, runId, workflowName}, snapshot being Mastra's (see
// workflows.Snapshot). total counts the runs that match; a page of them
// is returned when both page and perPage are given (limit and offset
// stand in for them). fromDate and toDate bound the creation time; the
// authenticated resource replaces resourceId. The runs are those in the
// workflow's storage (pending, running, suspended and finished: one
// query, paged there), a run executing here shown as it is now.
func (s *Server) listWorkflowRuns(w http.ResponseWriter, r *http.Request) {
	q, err := parseRunListQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wf, err := s.workflow(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if auth := authResource(r); auth != "" {
		q.resourceID = auth
	}
	snaps, total, err := s.runSnapshots(r, wf, q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b := append([]byte(nil), `{"runs":[`...)
	for i, snap := range snaps {
		if i > 0 {
			b = append(b, ',')
		}
		raw, err := snap.MarshalJSON()
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		o := newObject().Str("workflow_name", wf.ID()).Str("run_id", snap.RunID)
		if snap.ResourceID != "" {
			o.Str("resourceId", snap.ResourceID)
		}
		o.Raw("snapshot", raw).Str("createdAt", isoTime(snap.CreatedAt)).Str("updatedAt", isoTime(snap.UpdatedAt))
		o.Str("runId", snap.RunID).Str("workflowName", wf.ID())
		b = append(b, o.Bytes()...)
	}
	b = append(b, `],"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	wire.WriteJSON(w, http.StatusOK, wire.UnescapeJS(append(b, '}')))
}

// runSnapshots is the page of runs q asks for, newest created first, and
// how many match: the stored ones, paged by the storage, those
// executing here shown as they are now.
func (s *Server) runSnapshots(r *http.Request, wf *workflows.Workflow, q runListQuery) ([]*workflows.Snapshot, int, error) {
	query := workflows.RunQuery{Status: q.status, ResourceID: q.resourceID, From: q.from, To: q.to}
	if q.hasPage && q.hasPerPage {
		query.Page, query.PerPage = q.page, q.perPage
	}
	stored, total, err := wf.StoredRuns(r.Context(), query)
	if err != nil {
		return nil, 0, err
	}
	snaps := make([]*workflows.Snapshot, 0, len(stored))
	for i := range stored {
		if rec, ok := s.runs.lookup(wf.ID(), stored[i].RunID); ok {
			snaps = append(snaps, rec.run.Snapshot()) // executing here: as it is now
			continue
		}
		snap, err := wf.StoredSnapshot(&stored[i])
		if err != nil {
			s.log.WarnContext(r.Context(), "skipping a run whose snapshot cannot be read", "workflow", wf.ID(), "runId", stored[i].RunID, "error", storage.ErrorDetail(err))
			continue
		}
		snaps = append(snaps, snap)
	}
	return snaps, total, nil
}

// POST /workflows/{workflowId}/runs/{runId}/cancel: {"message":"Workflow
// run cancelled"}, as Mastra's: a run executing here stops (it ends
// canceled); a suspended run (or one left running by another process)
// is marked canceled and can no longer be resumed, a pending one can no
// longer be started; a run that has ended is marked canceled in storage.
// 404 for a run neither the server nor storage knows, 403 for another
// resource's.
// Mastra's gives the same answer to a run that has ended.
func (s *Server) cancelWorkflowRun(w http.ResponseWriter, r *http.Request) {
	// The route reads no body; one that is sent must be a JSON object, as
	// on every POST route of this server (Mastra's parses it as JSON).
	wf, _, err := s.workflowAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	runID := r.PathValue("runId")
	var run *workflows.Run
	if rec, ok := s.runs.lookup(wf.ID(), runID); ok {
		run = rec.run
	} else if run, err = wf.LoadRun(r.Context(), runID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			err = errRunNotFound
		}
		s.writeError(w, r, err)
		return
	}
	if err := checkRunOwner(r, run.ResourceID()); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := run.MarkCanceled(r.Context()); err != nil {
		// Mastra ignores a failure to update the stored state.
		s.log.WarnContext(r.Context(), "canceling a workflow run", "workflow", wf.ID(), "runId", runID, "error", storage.ErrorDetail(err))
	}
	wire.WriteJSON(w, http.StatusOK, []byte(`{"message":"Workflow run cancelled"}`))
}
