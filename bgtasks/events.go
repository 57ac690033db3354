package bgtasks

import (
	"encoding/json"

	"github.com/gomastra/mastra/stream"
)

// The chunk types of background tasks, with Mastra's names.
const (
	TypeStarted   = "background-task-started"
	TypeRunning   = "background-task-running"
	TypeOutput    = "background-task-output"
	TypeCompleted = "background-task-completed"
	TypeFailed    = "background-task-failed"
	TypeCancelled = "background-task-cancelled"
	TypeSuspended = "background-task-suspended"
	TypeResumed   = "background-task-resumed"
	TypeProgress  = "background-task-progress"
)

// Event is one lifecycle event of a task, as a Manager publishes it
// (Stream, Hooks.OnEvent): Type is one of TypeRunning, TypeOutput,
// TypeCompleted, TypeFailed (also for a timeout), TypeCancelled,
// TypeSuspended, TypeResumed; Task is the task's record at the event;
// Output is the tool's "tool-output" chunk of a TypeOutput event.
type Event struct {
	Type   string
	Task   Task
	Output json.RawMessage
}

// Payload returns the event's chunk payload with Mastra's keys: a
// *RunningPayload, *OutputPayload, *ResultPayload, *FailedPayload,
// *CancelledPayload, *SuspendedPayload or *ResumedPayload.
func (e Event) Payload() any {
	t := e.Task
	id := TaskRef{TaskID: t.ID, ToolName: t.ToolName, ToolCallID: t.ToolCallID}
	switch e.Type {
	case TypeRunning:
		return &RunningPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, StartedAt: DateOf(t.StartedAt), Args: argsOf(t)}
	case TypeResumed:
		return &ResumedPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, StartedAt: DateOf(t.StartedAt), Args: argsOf(t)}
	case TypeOutput:
		return &OutputPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, Payload: e.Output}
	case TypeCompleted:
		return &ResultPayload{TaskRef: id, AgentID: t.AgentID, Result: t.Result, RunID: t.RunID, CompletedAt: DateOf(t.CompletedAt)}
	case TypeFailed:
		msg := ""
		if t.Error != nil {
			msg = t.Error.Message
		}
		return &FailedPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, Error: ErrorPayload{Message: msg}, CompletedAt: DateOf(t.CompletedAt)}
	case TypeCancelled:
		return &CancelledPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, CompletedAt: DateOf(t.CompletedAt)}
	case TypeSuspended:
		return &SuspendedPayload{TaskRef: id, RunID: t.RunID, AgentID: t.AgentID, Args: argsOf(t), SuspendPayload: t.SuspendPayload, SuspendedAt: optionalDate(t.SuspendedAt)}
	}
	return nil
}

// Chunk returns the event as a chunk of the agent's stream (Mastra's
// {type, runId, from, payload}), from the agent's run.
func (e Event) Chunk() stream.Chunk {
	return stream.Chunk{Type: e.Type, RunID: e.Task.RunID, From: stream.FromAgent, Payload: e.Payload()}
}

// MarshalJSON writes the event as the manager's stream does:
// {"type": ..., "payload": ...}.
func (e Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type    string `json:"type"`
		Payload any    `json:"payload"`
	}{e.Type, e.Payload()})
}

func argsOf(t Task) json.RawMessage {
	if len(t.Args) == 0 {
		return json.RawMessage(`{}`)
	}
	return t.Args
}

// TaskRef are the keys every task payload starts with.
type TaskRef struct {
	TaskID     string `json:"taskId"`
	ToolName   string `json:"toolName"`
	ToolCallID string `json:"toolCallId"`
}

// StartedPayload is the payload of "background-task-started": the task
// a tool call was enqueued as.
type StartedPayload TaskRef

// RunningPayload is the payload of "background-task-running".
type RunningPayload struct {
	TaskRef
	RunID     string          `json:"runId"`
	AgentID   string          `json:"agentId"`
	StartedAt Date            `json:"startedAt"`
	Args      json.RawMessage `json:"args"`
}

// ResumedPayload is the payload of "background-task-resumed".
type ResumedPayload RunningPayload

// OutputPayload is the payload of "background-task-output": Payload is
// the tool's "tool-output" chunk.
type OutputPayload struct {
	TaskRef
	RunID   string          `json:"runId"`
	AgentID string          `json:"agentId"`
	Payload json.RawMessage `json:"payload"`
}

// ResultPayload is the payload of "background-task-completed".
type ResultPayload struct {
	TaskRef
	AgentID     string          `json:"agentId"`
	Result      json.RawMessage `json:"result,omitempty"`
	RunID       string          `json:"runId"`
	CompletedAt Date            `json:"completedAt"`
	IsError     bool            `json:"isError,omitempty"`
}

// ErrorPayload is a failed task's error in a payload.
type ErrorPayload struct {
	Message string `json:"message"`
}

// FailedPayload is the payload of "background-task-failed".
type FailedPayload struct {
	TaskRef
	RunID       string       `json:"runId"`
	AgentID     string       `json:"agentId"`
	Error       ErrorPayload `json:"error"`
	CompletedAt Date         `json:"completedAt"`
}

// CancelledPayload is the payload of "background-task-cancelled".
type CancelledPayload struct {
	TaskRef
	RunID       string `json:"runId"`
	AgentID     string `json:"agentId"`
	CompletedAt Date   `json:"completedAt"`
}

// SuspendedPayload is the payload of "background-task-suspended".
type SuspendedPayload struct {
	TaskRef
	RunID          string          `json:"runId"`
	AgentID        string          `json:"agentId"`
	Args           json.RawMessage `json:"args"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	SuspendedAt    *Date           `json:"suspendedAt,omitempty"`
}

// ProgressPayload is the payload of "background-task-progress", the
// agent loop's periodic count of its running tasks.
type ProgressPayload struct {
	TaskIDs      []string `json:"taskIds"`
	RunningCount int      `json:"runningCount"`
	ElapsedMs    int64    `json:"elapsedMs"`
}
