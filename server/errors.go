package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// httpError is an error with the HTTP status and body Mastra's handlers
// answer with: {"error": msg} or, with issues, {"error": msg, "issues":
// [...]}.
type httpError struct {
	status int
	msg    string
	issues []wire.Issue
}

func (e *httpError) Error() string { return e.msg }

func errorf(status int, msg string) *httpError { return &httpError{status: status, msg: msg} }

// invalidBody is Mastra's 400 for a body that fails its schema.
func invalidBody(issues ...wire.Issue) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: "Invalid request body", issues: issues}
}

// invalidQuery is Mastra's 400 for query parameters that fail their schema.
func invalidQuery(issues ...wire.Issue) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: "Invalid query parameters", issues: issues}
}

// agentErrorStatus maps the agent's error codes to HTTP statuses.
// Mastra's own handlers answer 500 for these (its MastraErrors carry no
// status), except the resume conflict (409); gomastra answers with the
// 4xx status the error stands for, which clients treat the same way (any
// non-2xx is an error) and which tells a caller what to fix.
var agentErrorStatus = map[string]int{
	"AGENT_RESUME_CONFLICT":                             http.StatusConflict,
	"AGENT_RESUME_NO_SNAPSHOT_FOUND":                    http.StatusNotFound,
	"AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED":              http.StatusBadRequest,
	"AGENT_SEND_TOOL_APPROVAL_NO_ACTIVE_THREAD_RUN":     http.StatusNotFound,
	"AGENT_SEND_TOOL_APPROVAL_AMBIGUOUS_SUSPENDED_RUNS": http.StatusBadRequest,
}

// statusOf maps an error to the status and message of Mastra's error
// answer: an *httpError as it is; a *mastra.Error by Details["status"]
// (500 when it has none); an *agent.RunError by its code
// (agentErrorStatus, or Details["status"]); a *workflows.Error 400 for
// invalid input or resume requests; anything wrapping
// storage.ErrConflict 409, storage.ErrNotFound 404; everything else 500
// with the error's text, as Mastra's handleError does.
func statusOf(err error) (int, string, []wire.Issue) {
	var he *httpError
	if errors.As(err, &he) {
		return he.status, he.msg, he.issues
	}
	var me *mastra.Error
	if errors.As(err, &me) {
		if st, ok := detailStatus(me.Details); ok {
			return st, me.Text, nil
		}
		return http.StatusInternalServerError, me.Text, nil
	}
	var re *agent.RunError
	if errors.As(err, &re) {
		if st, ok := detailStatus(re.Details); ok {
			return st, re.Message, nil
		}
		if st, ok := agentErrorStatus[re.Code]; ok {
			return st, re.Message, nil
		}
		if errors.Is(err, storage.ErrConflict) {
			return http.StatusConflict, re.Message, nil
		}
		return http.StatusInternalServerError, re.Message, nil
	}
	var we *workflows.Error
	if errors.As(err, &we) {
		return http.StatusBadRequest, we.Message, nil
	}
	switch {
	case errors.Is(err, storage.ErrConflict):
		return http.StatusConflict, err.Error(), nil
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, err.Error(), nil
	}
	return http.StatusInternalServerError, err.Error(), nil
}

// detailStatus reads Details["status"] as an HTTP status.
func detailStatus(d map[string]any) (int, bool) {
	var n int
	switch v := d["status"].(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case float64:
		n = int(v)
	case string:
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if n < 400 || n > 599 {
		return 0, false
	}
	return n, true
}

// writeError answers with err's status and {"error": message[, issues]},
// strings escaped as Marshal escapes them.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, issues := statusOf(err)
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "status", status, "error", err)
	}
	wire.WriteJSON(w, status, wire.AppendError(nil, msg, issues, wire.StringifyGo))
}

// writeJSON encodes v (wire.Marshal: encoding/json's rendering,
// JSON.stringify's string escaping) and sends it.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := wire.Marshal(v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wire.WriteJSON(w, status, b)
}
