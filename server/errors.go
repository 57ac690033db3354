package server

import (
	"errors"
	"net/http"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
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

// HTTPStatus is the answer's status (a mastraerror.StatusCoder).
func (e *httpError) HTTPStatus() int { return e.status }

func errorf(status int, msg string) *httpError { return &httpError{status: status, msg: msg} }

// invalidBody is Mastra's 400 for a body that fails its schema.
func invalidBody(issues ...wire.Issue) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: "Invalid request body", issues: issues}
}

// invalidQuery is Mastra's 400 for query parameters that fail their schema.
func invalidQuery(issues ...wire.Issue) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: "Invalid query parameters", issues: issues}
}

// statusOf is the status, message and body issues of Mastra's error
// answer to err: the status is mastraerror.HTTPStatus's (an *httpError's
// own, an *Error's details.status or its ID's status, a storage conflict
// 409, a timeout 504, else 500); the message and issues are an
// *httpError's, else wire.ErrorMessage's (an *Error's Message, or the
// error's text, as Mastra's handleError answers) — except a database's
// error (storage.IsDatabaseError), answered "Internal Server Error": its
// text goes to the log only (writeError logs every 5xx).
func statusOf(err error) (int, string, []wire.Issue) {
	status := mastraerror.HTTPStatus(err)
	var he *httpError
	if errors.As(err, &he) {
		return status, he.msg, he.issues
	}
	return status, wire.ErrorMessage(status, err), nil
}

// writeError answers with err's status and {"error": message[, issues]},
// strings escaped as Marshal escapes them.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, issues := statusOf(err)
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "status", status, "error", storage.ErrorDetail(err))
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
