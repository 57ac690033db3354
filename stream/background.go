package stream

import (
	"encoding/json"
	"time"
)

// Background-task chunk types: a tool call that runs as a background
// task reports its life in the run's stream (and in the background-task
// event stream) with these.
const (
	TypeBackgroundTaskStarted   = "background-task-started"
	TypeBackgroundTaskRunning   = "background-task-running"
	TypeBackgroundTaskOutput    = "background-task-output"
	TypeBackgroundTaskProgress  = "background-task-progress"
	TypeBackgroundTaskCompleted = "background-task-completed"
	TypeBackgroundTaskFailed    = "background-task-failed"
	TypeBackgroundTaskCancelled = "background-task-cancelled"
	TypeBackgroundTaskSuspended = "background-task-suspended"
	TypeBackgroundTaskResumed   = "background-task-resumed"
)

// IsBackgroundTaskEnd reports whether typ ends a background task for a
// run waiting on it: completed, failed, cancelled, or suspended (a
// suspended task waits for a person, so the run reacts to it).
func IsBackgroundTaskEnd(typ string) bool {
	switch typ {
	case TypeBackgroundTaskCompleted, TypeBackgroundTaskFailed, TypeBackgroundTaskCancelled, TypeBackgroundTaskSuspended:
		return true
	}
	return false
}

// Timestamp is a time as JavaScript's Date serialises it
// ("2006-01-02T15:04:05.000Z", UTC, milliseconds).
type Timestamp struct{ time.Time }

// MarshalJSON writes the time as Date.prototype.toJSON does.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// UnmarshalJSON reads an RFC 3339 time.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = v
	return nil
}

// BackgroundTaskStartedPayload is the payload of
// "background-task-started": a call was handed to a background task.
type BackgroundTaskStartedPayload struct {
	TaskID     string `json:"taskId"`
	ToolName   string `json:"toolName"`
	ToolCallID string `json:"toolCallId"`
}

// BackgroundTaskRunningPayload is the payload of
// "background-task-running" (and, with the time it resumed, of
// "background-task-resumed").
type BackgroundTaskRunningPayload struct {
	TaskID     string          `json:"taskId"`
	ToolName   string          `json:"toolName"`
	ToolCallID string          `json:"toolCallId"`
	RunID      string          `json:"runId"`
	AgentID    string          `json:"agentId"`
	StartedAt  Timestamp       `json:"startedAt"`
	Args       json.RawMessage `json:"args"`
}

// BackgroundTaskOutputPayload is the payload of "background-task-output":
// one tool-output chunk the task's tool wrote.
type BackgroundTaskOutputPayload struct {
	TaskID     string `json:"taskId"`
	ToolName   string `json:"toolName"`
	ToolCallID string `json:"toolCallId"`
	RunID      string `json:"runId"`
	AgentID    string `json:"agentId"`
	Payload    Chunk  `json:"payload"`
}

// BackgroundTaskProgressPayload is the payload of
// "background-task-progress": a run waiting for its tasks.
type BackgroundTaskProgressPayload struct {
	TaskIDs      []string `json:"taskIds"`
	RunningCount int      `json:"runningCount"`
	ElapsedMs    int64    `json:"elapsedMs"`
}

// BackgroundTaskResultPayload is the payload of
// "background-task-completed".
type BackgroundTaskResultPayload struct {
	TaskID      string    `json:"taskId"`
	ToolName    string    `json:"toolName"`
	ToolCallID  string    `json:"toolCallId"`
	AgentID     string    `json:"agentId"`
	Result      any       `json:"result"`
	RunID       string    `json:"runId"`
	CompletedAt Timestamp `json:"completedAt"`
	IsError     bool      `json:"isError,omitempty"`
}

// BackgroundTaskError is a failed task's error.
type BackgroundTaskError struct {
	Message string `json:"message"`
}

// BackgroundTaskFailedPayload is the payload of "background-task-failed"
// (a task that failed or timed out).
type BackgroundTaskFailedPayload struct {
	TaskID      string              `json:"taskId"`
	ToolName    string              `json:"toolName"`
	ToolCallID  string              `json:"toolCallId"`
	RunID       string              `json:"runId"`
	AgentID     string              `json:"agentId"`
	Error       BackgroundTaskError `json:"error"`
	CompletedAt Timestamp           `json:"completedAt"`
}

// BackgroundTaskCancelledPayload is the payload of
// "background-task-cancelled".
type BackgroundTaskCancelledPayload struct {
	TaskID      string    `json:"taskId"`
	ToolName    string    `json:"toolName"`
	ToolCallID  string    `json:"toolCallId"`
	RunID       string    `json:"runId"`
	AgentID     string    `json:"agentId"`
	CompletedAt Timestamp `json:"completedAt"`
}

// BackgroundTaskSuspendedPayload is the payload of
// "background-task-suspended": the task's tool suspended and waits for
// resume data.
type BackgroundTaskSuspendedPayload struct {
	TaskID         string          `json:"taskId"`
	ToolName       string          `json:"toolName"`
	ToolCallID     string          `json:"toolCallId"`
	RunID          string          `json:"runId"`
	AgentID        string          `json:"agentId"`
	Args           json.RawMessage `json:"args"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	SuspendedAt    *Timestamp      `json:"suspendedAt,omitempty"`
}

// newBackgroundPayload is the payload type of a background-task chunk
// type, nil for other types.
func newBackgroundPayload(typ string) any {
	switch typ {
	case TypeBackgroundTaskStarted:
		return &BackgroundTaskStartedPayload{}
	case TypeBackgroundTaskRunning, TypeBackgroundTaskResumed:
		return &BackgroundTaskRunningPayload{}
	case TypeBackgroundTaskOutput:
		return &BackgroundTaskOutputPayload{}
	case TypeBackgroundTaskProgress:
		return &BackgroundTaskProgressPayload{}
	case TypeBackgroundTaskCompleted:
		return &BackgroundTaskResultPayload{}
	case TypeBackgroundTaskFailed:
		return &BackgroundTaskFailedPayload{}
	case TypeBackgroundTaskCancelled:
		return &BackgroundTaskCancelledPayload{}
	case TypeBackgroundTaskSuspended:
		return &BackgroundTaskSuspendedPayload{}
	}
	return nil
}

// derefBackgroundPayload turns a decoded background-task payload pointer
// into its value; other values come back as they are.
func derefBackgroundPayload(p any) any {
	switch t := p.(type) {
	case *BackgroundTaskStartedPayload:
		return *t
	case *BackgroundTaskRunningPayload:
		return *t
	case *BackgroundTaskOutputPayload:
		return *t
	case *BackgroundTaskProgressPayload:
		return *t
	case *BackgroundTaskResultPayload:
		return *t
	case *BackgroundTaskFailedPayload:
		return *t
	case *BackgroundTaskCancelledPayload:
		return *t
	case *BackgroundTaskSuspendedPayload:
		return *t
	}
	return p
}
