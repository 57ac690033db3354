package aisdk

import (
	"context"
	"errors"
	"net/http"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
)

// writeJSONError answers err as {"error": message[, "issues": [...]]}
// with its status (statusOf): the message escaped as JSON.stringify
// escapes a JavaScript string (wire.Stringify), the issues as it writes
// them after encoding/json (wire.StringifyReplaced).
func writeJSONError(w http.ResponseWriter, err error) {
	status, msg, issues := statusOf(err)
	ow := wire.NewObjectWriter(nil, wire.JSMode).Str("error", msg)
	if len(issues) > 0 {
		ow.Value("issues", issues)
	}
	wire.WriteJSON(w, status, ow.Bytes())
}

// agentErrorStatus maps the agent's error codes to HTTP statuses, as the
// server's agent routes do.
var agentErrorStatus = map[string]int{
	"AGENT_RESUME_CONFLICT": http.StatusConflict,
	codeNoSnapshot:          http.StatusNotFound,
	codeNotSuspended:        http.StatusBadRequest,
}

// statusOf is an error's HTTP status, message and body issues: a
// *RequestError's own; a registry error's details.status; the agent's
// resume errors by code; a storage conflict 409; a timeout 504; anything
// else 500 with its text.
func statusOf(err error) (int, string, []Issue) {
	var re *RequestError
	if errors.As(err, &re) {
		return re.Status, re.Message, re.Issues
	}
	var me *mastra.Error
	if errors.As(err, &me) {
		if st, ok := me.Details["status"].(int); ok && st >= 400 && st < 600 {
			return st, me.Text, nil
		}
		return http.StatusInternalServerError, me.Text, nil
	}
	var ae *agent.RunError
	if errors.As(err, &ae) {
		if st, ok := agentErrorStatus[ae.Code]; ok {
			return st, ae.Message, nil
		}
		if errors.Is(err, storage.ErrConflict) {
			return http.StatusConflict, ae.Message, nil
		}
		return http.StatusInternalServerError, ae.Message, nil
	}
	switch {
	case errors.Is(err, storage.ErrConflict):
		return http.StatusConflict, err.Error(), nil
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout, err.Error(), nil
	}
	return http.StatusInternalServerError, err.Error(), nil
}
