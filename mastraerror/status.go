package mastraerror

import (
	"context"
	"errors"
	"strconv"
)

// StatusCoder is an error that carries the HTTP status to answer it with
// (JavaScript's error.status, which Mastra's handleError reads first):
// the server's request errors, the AI SDK route's *RequestError, the
// storage conflict ([NewStatusError]).
type StatusCoder interface {
	error
	HTTPStatus() int
}

// idStatus are the statuses of the ids whose errors carry no
// Details["status"]. Mastra's handlers answer most of these 500 (its
// handleError reads error.status || error.details.status || 500, and
// these errors have neither); gomastra answers with the 4xx status the
// error stands for, which every client treats as an error too and which
// tells the caller what to fix. The ids not listed are 500.
var idStatus = map[string]int{
	IDAgentResumeConflict:                         409, // Conflict (Mastra: 409 too)
	IDAgentResumeNoSnapshotFound:                  404, // Not Found
	IDAgentResumeToolCallNotSuspended:             400, // Bad Request
	IDAgentSendToolApprovalNoActiveThreadRun:      404,
	IDAgentSendToolApprovalAmbiguousSuspendedRuns: 400,
	IDWorkflowSchemaValidationFailed:              400,
	IDWorkflowStepInputValidationFailed:           400,
	IDWorkflowResumeStepNotSuspended:              400,
	IDWorkflowResumeAmbiguous:                     400,
	IDWorkflowStartAlreadyClaimed:                 409, // Conflict
	IDMCPServerToolInvalidInput:                   400,
}

// HTTPStatus is the status a server answers err with, in this order:
//
//  1. the first *Error in err's chain: its Details["status"] (a number, or
//     a string of digits, from 400 to 599), else its ID's status (the
//     table above: 409 for a resume conflict, 404 for what is not found,
//     400 for the caller's mistakes);
//  2. a [StatusCoder] in err's chain: its status, when from 400 to 599
//     (a wrapped storage.ErrConflict is 409);
//  3. 500 when err has an *Error (its status is its own, whatever else
//     it wraps);
//  4. 504 for context.DeadlineExceeded;
//  5. 500.
//
// HTTPStatus(nil) is 0.
func HTTPStatus(err error) int {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		if st, ok := detailStatus(e.Details); ok {
			return st
		}
		if st, ok := idStatus[e.ID]; ok {
			return st
		}
	}
	var sc StatusCoder
	if errors.As(err, &sc) && isErrorStatus(sc.HTTPStatus()) {
		return sc.HTTPStatus()
	}
	if e == nil && errors.Is(err, context.DeadlineExceeded) {
		return 504 // Gateway Timeout
	}
	return 500 // Internal Server Error
}

// detailStatus reads details["status"] as an error status.
func detailStatus(details map[string]any) (int, bool) {
	var n int
	switch v := details["status"].(type) {
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
	return n, isErrorStatus(n)
}

func isErrorStatus(n int) bool { return n >= 400 && n <= 599 }
