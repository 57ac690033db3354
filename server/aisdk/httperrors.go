package aisdk

import (
	"errors"
	"net/http"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/mastraerror"
)

// writeJSONError answers err as {"error": message[, "issues": [...]]}
// with its status (statusOf), at most wire.MaxIssues issues: the message escaped as JSON.stringify
// escapes a JavaScript string (wire.Stringify), the issues as it writes
// them after encoding/json (wire.StringifyReplaced).
func writeJSONError(w http.ResponseWriter, err error) {
	status, msg, issues := statusOf(err)
	ow := wire.NewObjectWriter(nil, wire.JSMode).Str("error", msg)
	if len(issues) > 0 {
		ow.Value("issues", wire.Capped(issues))
	}
	wire.WriteJSON(w, status, ow.Bytes())
}

// statusOf is an error's HTTP status, message and body issues: the status
// is mastraerror.HTTPStatus's (a *RequestError's own, an *Error's
// details.status or its ID's status, a storage conflict 409, a timeout
// 504, else 500); the message and issues are a *RequestError's, else
// wire.ErrorMessage's (an *Error's Message, or the error's text;
// "Internal Server Error" for a database's error on a 5xx, whose text is
// for the log only).
func statusOf(err error) (int, string, []Issue) {
	status := mastraerror.HTTPStatus(err)
	var re *RequestError
	if errors.As(err, &re) {
		return status, re.Message, re.Issues
	}
	return status, wire.ErrorMessage(status, err), nil
}
