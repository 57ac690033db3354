package mcpserver

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskEnvelope is the Task object of the wire: a task's id, status and
// timing.
type taskEnvelope struct {
	TaskID         string `json:"taskId"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt"`
	LastUpdatedAt  string `json:"lastUpdatedAt"`
	TTLMs          int64  `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
}

// createTaskResult answers a tools/call that became a task. It also
// carries an empty content array, so that it still is a valid
// CallToolResult for whatever checks tools/call results against that
// schema without knowing the extension (resultType "task" tells them
// apart).
type createTaskResult struct {
	mcp.ResultBase
	ResultType string     `json:"resultType"`
	Content    []struct{} `json:"content"`
	taskEnvelope
}

// detailedTask answers tasks/get: the envelope, plus the tool's result
// (completed), the error (failed) or the pending input requests
// (input_required).
type detailedTask struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
	taskEnvelope
	Result        json.RawMessage            `json:"result,omitempty"`
	Error         *jsonrpc.Error             `json:"error,omitempty"`
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

// taskAck answers tasks/cancel and tasks/update.
type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// taskIDParams are the params of tasks/get and tasks/cancel.
type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// taskUpdateParams are the params of tasks/update: answers keyed by the
// ids of the task's inputRequests.
type taskUpdateParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// wireTime is a time as the wire carries it (ISO 8601, UTC, milliseconds).
func wireTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// envelopeOf is t's wire envelope under opts.
func envelopeOf(t *serverTask, opts TasksOptions) taskEnvelope {
	return taskEnvelope{
		TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: wireTime(t.created), LastUpdatedAt: wireTime(t.updated),
		TTLMs: opts.TTL.Milliseconds(), PollIntervalMs: opts.PollInterval.Milliseconds(),
	}
}

// detailOf is the tasks/get answer for t.
func detailOf(t *serverTask, opts TasksOptions) *detailedTask {
	d := &detailedTask{ResultType: "complete", taskEnvelope: envelopeOf(t, opts)}
	switch t.status {
	case taskCompleted:
		d.Result = t.result
	case taskFailed:
		d.Error = t.err
	case taskInputRequired:
		d.InputRequests = t.pending
	}
	return d
}
