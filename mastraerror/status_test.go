package mastraerror_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/mastraerror"
)

// coded is a StatusCoder, as the servers' request errors are.
type coded struct{ status int }

func (c coded) Error() string   { return "coded" }
func (c coded) HTTPStatus() int { return c.status }

func TestHTTPStatus(t *testing.T) {
	e := func(id string) *mastraerror.Error { return &mastraerror.Error{ID: id, Message: id} }
	withStatus := func(v any) *mastraerror.Error {
		return &mastraerror.Error{ID: mastraerror.IDMastraGetToolByNameNotFound, Details: map[string]any{"status": v}}
	}
	conflict := mastraerror.NewStatusError("storage: conflict", 409)
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"resume conflict", e(mastraerror.IDAgentResumeConflict), 409},
		{"no snapshot", e(mastraerror.IDAgentResumeNoSnapshotFound), 404},
		{"call not suspended", e(mastraerror.IDAgentResumeToolCallNotSuspended), 400},
		{"approval: no thread run", e(mastraerror.IDAgentSendToolApprovalNoActiveThreadRun), 404},
		{"approval: ambiguous", e(mastraerror.IDAgentSendToolApprovalAmbiguousSuspendedRuns), 400},
		{"workflow input", e(mastraerror.IDWorkflowSchemaValidationFailed), 400},
		{"workflow step input", e(mastraerror.IDWorkflowStepInputValidationFailed), 400},
		{"workflow step not suspended", e(mastraerror.IDWorkflowResumeStepNotSuspended), 400},
		{"workflow ambiguous resume", e(mastraerror.IDWorkflowResumeAmbiguous), 400},
		{"workflow run not suspended", e(mastraerror.IDWorkflowResumeNotSuspended), 500},
		{"MCP invalid input", e(mastraerror.IDMCPServerToolInvalidInput), 400},
		{"MCP tool failed", e(mastraerror.IDMCPServerToolExecuteFailed), 500},
		{"structured output", e(mastraerror.IDStructuredOutputSchemaValidationFailed), 500},
		{"no id", &mastraerror.Error{Message: "model failed"}, 500},
		{"details.status int", withStatus(404), 404},
		{"details.status int64", withStatus(int64(400)), 400},
		{"details.status float64", withStatus(float64(404)), 404},
		{"details.status string", withStatus("409"), 409},
		{"details.status not an error status", withStatus(200), 500},
		{"details.status not a number", withStatus("x"), 500},
		{"details.status before the id", &mastraerror.Error{ID: mastraerror.IDAgentResumeToolCallNotSuspended, Details: map[string]any{"status": 422}}, 422},
		{"wrapped *Error", fmt.Errorf("resume: %w", e(mastraerror.IDAgentResumeNoSnapshotFound)), 404},
		{"*Error wrapping a conflict", &mastraerror.Error{Message: "save failed", Cause: fmt.Errorf("%w: version 3", conflict)}, 409},
		{"*Error wrapping a deadline", &mastraerror.Error{Message: "model timed out", Cause: context.DeadlineExceeded}, 500},
		{"conflict", fmt.Errorf("append run: %w", conflict), 409},
		{"StatusCoder", coded{403}, 403},
		{"StatusCoder without an error status", coded{302}, 500},
		{"deadline", fmt.Errorf("call: %w", context.DeadlineExceeded), 504},
		{"plain", errors.New("boom"), 500},
	}
	for _, tt := range tests {
		if got := mastraerror.HTTPStatus(tt.err); got != tt.want {
			t.Errorf("%s: HTTPStatus = %d, want %d", tt.name, got, tt.want)
		}
	}
}
