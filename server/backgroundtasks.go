package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
)

// errTaskNotFound is Mastra's answer for a task that is not there (or
// is another resource's).
var errTaskNotFound = errorf(http.StatusNotFound, "Background task not found")

// listBackgroundTasks serves GET /background-tasks: the registry's
// background tasks the query selects, {"tasks": [...], "total": n}
// (none when background tasks are not enabled). An authenticated
// resource sees only its own tasks.
func (s *Server) listBackgroundTasks(w http.ResponseWriter, r *http.Request) {
	f, err := taskFilter(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	mgr := s.m.BackgroundTaskManager()
	if mgr == nil {
		s.writeJSON(w, r, http.StatusOK, bgtasks.TaskList{Tasks: []bgtasks.Task{}})
		return
	}
	list, err := mgr.ListTasks(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if list.Tasks == nil {
		list.Tasks = []bgtasks.Task{}
	}
	s.writeJSON(w, r, http.StatusOK, taskListJSON{list.Tasks, list.Total})
}

// taskListJSON is the list route's answer.
type taskListJSON struct {
	Tasks []bgtasks.Task `json:"tasks"`
	Total int            `json:"total"`
}

// getBackgroundTask serves GET /background-tasks/{backgroundTaskId}:
// the task's record, 404 "Background task not found" when there is none
// (or it is another resource's).
func (s *Server) getBackgroundTask(w http.ResponseWriter, r *http.Request) {
	t, err := s.ownTask(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, t)
}

// cancelBackgroundTask serves POST
// /background-tasks/{backgroundTaskId}/cancel (a body, if any, must be
// a JSON object): the task is cancelled (one already finished stays as
// it is); {"success": true}.
func (s *Server) cancelBackgroundTask(w http.ResponseWriter, r *http.Request) {
	if _, err := s.readFields(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.ownTask(r)
	if err == nil {
		err = s.m.BackgroundTaskManager().Cancel(r.Context(), t.ID)
	}
	if err != nil {
		s.writeError(w, r, taskError(err))
		return
	}
	s.writeJSON(w, r, http.StatusOK, map[string]bool{"success": true})
}

// resumeBackgroundTask serves POST
// /background-tasks/{backgroundTaskId}/resume {"resumeData": ...}: the
// suspended task runs again with the data; {"success": true}. A task
// that is not suspended is 400 "Cannot resume task in status '…'".
func (s *Server) resumeBackgroundTask(w http.ResponseWriter, r *http.Request) {
	fs, err := s.readFields(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.ownTask(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var data any
	if raw, ok := fs["resumeData"]; ok {
		if err := json.Unmarshal(raw, &data); err != nil {
			s.writeError(w, r, invalidBody(wire.Issue{Field: "resumeData", Message: err.Error()}))
			return
		}
	}
	if err := s.m.BackgroundTaskManager().Resume(r.Context(), t.ID, data); err != nil {
		s.writeError(w, r, taskError(err))
		return
	}
	s.writeJSON(w, r, http.StatusOK, map[string]bool{"success": true})
}

// streamBackgroundTasks serves GET /background-tasks/stream: the
// lifecycle events ({"type": "background-task-…", "payload": …}) of the
// tasks the query selects (agentId, runId, threadId, resourceId; an
// authenticated resource's own), as server-sent events, until the
// client goes away. Without background tasks the stream stays open
// and empty (the studio subscribes optimistically).
func (s *Server) streamBackgroundTasks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := bgtasks.StreamFilter{AgentID: q.Get("agentId"), RunID: q.Get("runId"), ThreadID: q.Get("threadId"), ResourceID: q.Get("resourceId")}
	if res := authResource(r); res != "" {
		f.ResourceID = res
	}
	fw := wire.StartSSE(w, r)
	mgr := s.m.BackgroundTaskManager()
	if mgr == nil {
		<-r.Context().Done()
		return
	}
	for e, err := range mgr.Stream(r.Context(), f) {
		if err != nil {
			s.log.ErrorContext(r.Context(), "background task stream failed", "error", storage.ErrorDetail(err))
			return
		}
		b, err := json.Marshal(e)
		if err != nil {
			continue
		}
		if fw.Data(b) != nil {
			return
		}
	}
}

// ownTask is the task the path names, when the caller may see it.
func (s *Server) ownTask(r *http.Request) (bgtasks.Task, error) {
	mgr := s.m.BackgroundTaskManager()
	if mgr == nil {
		return bgtasks.Task{}, errTaskNotFound
	}
	t, err := mgr.GetTask(r.Context(), r.PathValue("backgroundTaskId"))
	if errors.Is(err, storage.ErrNotFound) {
		return bgtasks.Task{}, errTaskNotFound
	}
	if err != nil {
		return bgtasks.Task{}, err
	}
	if res := authResource(r); res != "" && t.ResourceID != res {
		return bgtasks.Task{}, errTaskNotFound
	}
	return t, nil
}

// taskError is the HTTP error of a manager's refusal.
func taskError(err error) error {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return err
	case errors.Is(err, storage.ErrNotFound):
		return errTaskNotFound
	}
	return errorf(http.StatusBadRequest, err.Error())
}

// taskFilter is the list route's query: agentId, status, runId,
// threadId, resourceId (an authenticated resource's own), toolName,
// fromDate, toDate, dateFilterBy, orderBy, orderDirection, page,
// perPage.
func taskFilter(r *http.Request) (bgtasks.Filter, error) {
	q := r.URL.Query()
	f := bgtasks.Filter{AgentID: q.Get("agentId"), RunID: q.Get("runId"), ThreadID: q.Get("threadId"),
		ResourceID: q.Get("resourceId"), ToolName: q.Get("toolName")}
	if res := authResource(r); res != "" {
		f.ResourceID = res
	}
	var issues []wire.Issue
	if st := q.Get("status"); st != "" {
		if !slices.Contains([]bgtasks.Status{bgtasks.Pending, bgtasks.Running, bgtasks.Suspended, bgtasks.Completed, bgtasks.Failed, bgtasks.Cancelled, bgtasks.TimedOut}, bgtasks.Status(st)) {
			issues = append(issues, wire.Issue{Field: "status", Message: "Invalid option: expected one of \"pending\"|\"running\"|\"suspended\"|\"completed\"|\"failed\"|\"cancelled\"|\"timed_out\""})
		} else {
			f.Status = []bgtasks.Status{bgtasks.Status(st)}
		}
	}
	issues = append(issues, taskDates(q.Get, &f)...)
	if n, ok, iss := queryInt(r, "page", 0); iss != nil {
		issues = append(issues, *iss)
	} else if ok {
		f.Page = n
	}
	if n, ok, iss := queryInt(r, "perPage", 1); iss != nil {
		issues = append(issues, *iss)
	} else if ok {
		f.PerPage = n
	}
	if len(issues) > 0 {
		return f, invalidQuery(issues...)
	}
	return f, nil
}

// taskDates reads the list query's dates and orderings into f.
func taskDates(get func(string) string, f *bgtasks.Filter) []wire.Issue {
	var issues []wire.Issue
	for _, d := range []struct {
		key string
		t   *time.Time
	}{{"fromDate", &f.FromDate}, {"toDate", &f.ToDate}} {
		if v := get(d.key); v != "" {
			t, err := parseDate(v)
			if err != nil {
				issues = append(issues, wire.Issue{Field: d.key, Message: "Invalid date"})
				continue
			}
			*d.t = t
		}
	}
	columns := []bgtasks.DateColumn{bgtasks.ByCreatedAt, bgtasks.ByStartedAt, bgtasks.ByCompletedAt}
	for _, d := range []struct {
		key string
		c   *bgtasks.DateColumn
	}{{"dateFilterBy", &f.DateFilterBy}, {"orderBy", &f.OrderBy}} {
		if v := get(d.key); v != "" {
			if !slices.Contains(columns, bgtasks.DateColumn(v)) {
				issues = append(issues, wire.Issue{Field: d.key, Message: "Invalid option: expected one of \"createdAt\"|\"startedAt\"|\"completedAt\""})
				continue
			}
			*d.c = bgtasks.DateColumn(v)
		}
	}
	switch get("orderDirection") {
	case "", "asc":
	case "desc":
		f.Descending = true
	default:
		issues = append(issues, wire.Issue{Field: "orderDirection", Message: "Invalid option: expected one of \"asc\"|\"desc\""})
	}
	return issues
}
