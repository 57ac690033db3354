package mcpclient

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskMetaKey is where a tools/call answer that created a task carries
// the task once tasks_transport.go has moved it there (the SDK's
// CallToolResult keeps _meta, not the task's top-level fields).
const taskMetaKey = "gomastra.dev/createdTask"

// wireTask is a task as tasks/get (and a CreateTaskResult) sends it.
type wireTask struct {
	mcp.ResultBase
	ResultType     string          `json:"resultType,omitempty"`
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	PollIntervalMs int64           `json:"pollIntervalMs,omitempty"`
	TTLMs          *int64          `json:"ttlMs,omitempty"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

// taskAck answers tasks/cancel.
type taskAck struct {
	mcp.ResultBase
}

// taskIDParams are the params of tasks/get and tasks/cancel.
type taskIDParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

// createdTask is the task a tools/call answer created, nil when it
// created none.
func createdTask(res *mcp.CallToolResult) *wireTask {
	if res == nil || res.Meta == nil {
		return nil
	}
	v, ok := res.Meta[taskMetaKey]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var t wireTask
	if json.Unmarshal(raw, &t) != nil || t.TaskID == "" {
		return nil
	}
	return &t
}

// registerTaskMethods lets the client send tasks/get and tasks/cancel.
func registerTaskMethods(c *mcp.Client) {
	// Neither name is a standard method: these cannot fail.
	_ = mcp.AddSendingCustomMethod[*taskIDParams, *wireTask](c, "tasks/get")
	_ = mcp.AddSendingCustomMethod[*taskIDParams, *taskAck](c, "tasks/cancel")
	_ = mcp.AddSendingCustomMethod[*taskUpdateParams, *taskAck](c, "tasks/update")
}

// addTaskOptions declares the tasks extension when the server has Tasks.
func (s *server) addTaskOptions(opts *mcp.ClientOptions) {
	if s.cfg.Tasks == nil {
		return
	}
	if opts.Capabilities == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	opts.Capabilities.AddExtension(TasksExtension, map[string]any{})
	s.wrapTasksHTTP()
}
