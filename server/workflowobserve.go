package server

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

// maxSafeOffset is the largest offset a client can send exactly (a
// JavaScript number's largest safe integer).
const maxSafeOffset = 1<<53 - 1

// POST /workflows/{workflowId}/observe?runId=&offset=: the run's records
// (or SSE on request) from the offset-th on (0 by default), as
// workflows.Run.ObserveStream reads them: the history, then, while the
// run goes on (here or in another server sharing the workflow's
// storage), the rest as it comes; the body ends after the run's finish
// or suspension. 400 without runId or for an offset that is not an
// integer from 0 to 2^53-1, 404 "Workflow not found" or "Workflow run
// not found", 403 for another resource's run.
func (s *Server) observeWorkflow(w http.ResponseWriter, r *http.Request) {
	runID, offset, err := observeQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wf, _, err := s.workflowAndBody(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	run, err := s.runToObserve(r, wf, runID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeObserved(w, r, run.ObserveStream(r.Context(), offset), workflowFormat(r))
}

// observeQuery reads ?runId= (required, not empty) and ?offset=, with the issues
// of Mastra's query schema (a number coerced from the text), and those
// of gomastra's stricter one: a non-negative safe integer.
func observeQuery(r *http.Request) (string, int64, error) {
	q := r.URL.Query()
	var issues []wire.Issue
	runID := q.Get("runId")
	if runID == "" {
		issues = append(issues, wire.Issue{Field: "runId", Message: zodmsg.Expected("string", nil)})
	}
	var offset int64
	if raw, ok := q["offset"]; ok {
		n, msg := parseOffset(raw[0])
		if msg != "" {
			issues = append(issues, wire.Issue{Field: "offset", Message: msg})
		}
		offset = n
	}
	if len(issues) > 0 {
		return "", 0, invalidQuery(issues...)
	}
	return runID, offset, nil
}

// parseOffset reads an offset as JavaScript's Number does ("" is 0),
// and returns Zod's message for one that is not an integer from 0 to
// maxSafeOffset.
func parseOffset(s string) (int64, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, ""
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), math.IsNaN(f):
		return 0, "Invalid input: expected number, received NaN"
	case f > maxSafeOffset:
		return 0, "Too big: expected number to be <=" + strconv.Itoa(maxSafeOffset)
	case f != math.Trunc(f):
		return 0, "Invalid input: expected int, received number"
	case f < 0:
		return 0, "Too small: expected number to be >=0"
	}
	return int64(f), ""
}

// runToObserve is the run ?runId= names: the one executing here, else
// the workflow's stored one (404 when neither knows it), which must not
// be another resource's than the authenticated one (403).
func (s *Server) runToObserve(r *http.Request, wf *workflows.Workflow, runID string) (*workflows.Run, error) {
	var run *workflows.Run
	if rec, ok := s.runs.lookup(wf.ID(), runID); ok {
		run = rec.run
	} else {
		var err error
		if run, err = wf.LoadRun(r.Context(), runID); errors.Is(err, storage.ErrNotFound) {
			return nil, errRunNotFound
		} else if err != nil {
			return nil, err
		}
	}
	if err := checkRunOwner(r, run.ResourceID()); err != nil {
		return nil, err
	}
	return run, nil
}

// writeObserved answers 200 at once (an observer of a run that has not
// produced its next chunk yet gets the headers, as Mastra's do), then
// writes seq's chunks in format until it ends or the client goes away.
// An error ends the body (and is logged).
func (s *Server) writeObserved(w http.ResponseWriter, r *http.Request, seq chunkSeq, format streamFormat) {
	fw := startStream(w, r, format)
	enc := stream.NewEncoder()
	for c, err := range seq {
		if err != nil {
			if !errorIsContext(r, err) {
				s.log.ErrorContext(r.Context(), "observing a workflow run failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
			}
			return
		}
		if !s.sendChunk(r, fw, enc, c, format) {
			return
		}
	}
	if format == formatSSE {
		_ = fw.Done()
	}
}
