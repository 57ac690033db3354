package bgtasks

import (
	"encoding/json"
	"slices"
	"time"
)

// Status is a task's state. A task starts Pending, is Running while an
// executor works on it, may be Suspended (waiting for Resume) and ends
// in one of the terminal states: Completed, Failed, Cancelled, TimedOut.
type Status string

// The statuses of a task, with Mastra's names.
const (
	Pending   Status = "pending"
	Running   Status = "running"
	Suspended Status = "suspended"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
	TimedOut  Status = "timed_out"
)

// Terminal reports whether s is a final state: a task in it never runs
// again and its record no longer changes.
func (s Status) Terminal() bool {
	return s == Completed || s == Failed || s == Cancelled || s == TimedOut
}

// TaskError is the error a failed or timed-out task recorded.
type TaskError struct {
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

// Task is one background task's record: a tool call of an agent's run,
// executed apart from the run, with its state and outcome. The Store
// keeps it; the Manager changes it.
type Task struct {
	ID     string
	Status Status

	// What to execute.
	ToolName   string
	ToolCallID string
	Args       json.RawMessage // a JSON object; {} when empty

	// Whose call it is.
	AgentID    string
	ThreadID   string
	ResourceID string
	RunID      string

	// Outcome.
	Result json.RawMessage // the executor's result (JSON), Completed only
	Error  *TaskError      // Failed and TimedOut only

	// Suspension: what the executor passed to Suspend, while Suspended;
	// the data Resume was given, for the executions after it.
	SuspendPayload json.RawMessage
	ResumeData     json.RawMessage

	CreatedAt   time.Time
	StartedAt   time.Time // zero until an execution starts
	CompletedAt time.Time // zero until the task is terminal
	SuspendedAt time.Time // zero unless Suspended

	RetryCount int           // failed executions retried so far
	MaxRetries int           // executions retried at most after a failure
	Timeout    time.Duration // limit of one execution

	// Claim bookkeeping, kept by the Store and not part of Mastra's record.

	// Version counts the record's writes; UpdateTask writes only over
	// the version it was given.
	Version int64
	// Owner is the Manager executing the task (Running only).
	Owner string
	// Producer is the Manager whose Enqueue gave the task an executor
	// of its own (Hooks.Executor), empty otherwise: another Manager
	// claims such a task only when it can resolve an executor for it.
	Producer string
	// LeaseUntil is when a Running task's claim lapses unless its owner
	// renews it: after it, any Manager may take the task up again.
	LeaseUntil time.Time
	// NotBefore delays a Pending task (a retry's backoff): no claim
	// takes it earlier.
	NotBefore time.Time
}

// Clone returns a copy of t that shares no memory with it.
func (t Task) Clone() Task {
	t.Args = slices.Clone(t.Args)
	t.Result = slices.Clone(t.Result)
	t.SuspendPayload = slices.Clone(t.SuspendPayload)
	t.ResumeData = slices.Clone(t.ResumeData)
	if t.Error != nil {
		e := *t.Error
		t.Error = &e
	}
	return t
}

// taskJSON is Mastra's JSON of a task record, keys in its order.
type taskJSON struct {
	ID             string          `json:"id"`
	Status         Status          `json:"status"`
	ToolName       string          `json:"toolName"`
	ToolCallID     string          `json:"toolCallId"`
	Args           json.RawMessage `json:"args"`
	AgentID        string          `json:"agentId"`
	ThreadID       string          `json:"threadId,omitempty"`
	ResourceID     string          `json:"resourceId,omitempty"`
	RunID          string          `json:"runId"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *TaskError      `json:"error,omitempty"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	CreatedAt      Date            `json:"createdAt"`
	StartedAt      *Date           `json:"startedAt,omitempty"`
	CompletedAt    *Date           `json:"completedAt,omitempty"`
	RetryCount     int             `json:"retryCount"`
	MaxRetries     int             `json:"maxRetries"`
	TimeoutMs      int64           `json:"timeoutMs"`
}

// MarshalJSON writes Mastra's task record: id, status, toolName,
// toolCallId, args, agentId, threadId, resourceId, runId, result, error,
// suspendPayload, createdAt, startedAt, completedAt, retryCount,
// maxRetries, timeoutMs; absent optional keys are left out, dates are
// JavaScript's ISO strings. The claim bookkeeping is not written.
func (t Task) MarshalJSON() ([]byte, error) {
	args := t.Args
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	return json.Marshal(taskJSON{
		ID: t.ID, Status: t.Status, ToolName: t.ToolName, ToolCallID: t.ToolCallID, Args: args,
		AgentID: t.AgentID, ThreadID: t.ThreadID, ResourceID: t.ResourceID, RunID: t.RunID,
		Result: t.Result, Error: t.Error, SuspendPayload: t.SuspendPayload,
		CreatedAt: DateOf(t.CreatedAt), StartedAt: optionalDate(t.StartedAt), CompletedAt: optionalDate(t.CompletedAt),
		RetryCount: t.RetryCount, MaxRetries: t.MaxRetries, TimeoutMs: t.Timeout.Milliseconds(),
	})
}

// UnmarshalJSON reads Mastra's task record (MarshalJSON's keys).
func (t *Task) UnmarshalJSON(b []byte) error {
	var j taskJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*t = Task{
		ID: j.ID, Status: j.Status, ToolName: j.ToolName, ToolCallID: j.ToolCallID, Args: j.Args,
		AgentID: j.AgentID, ThreadID: j.ThreadID, ResourceID: j.ResourceID, RunID: j.RunID,
		Result: j.Result, Error: j.Error, SuspendPayload: j.SuspendPayload,
		CreatedAt: j.CreatedAt.Time, RetryCount: j.RetryCount, MaxRetries: j.MaxRetries,
		Timeout: time.Duration(j.TimeoutMs) * time.Millisecond,
	}
	if j.StartedAt != nil {
		t.StartedAt = j.StartedAt.Time
	}
	if j.CompletedAt != nil {
		t.CompletedAt = j.CompletedAt.Time
	}
	return nil
}

// Date is a time written as JavaScript writes a Date in JSON:
// "2006-01-02T15:04:05.000Z", in UTC, to the millisecond.
type Date struct{ time.Time }

// DateOf returns t as a Date.
func DateOf(t time.Time) Date { return Date{t} }

func optionalDate(t time.Time) *Date {
	if t.IsZero() {
		return nil
	}
	return &Date{t}
}

const jsDateLayout = "2006-01-02T15:04:05.000Z"

// MarshalJSON writes the date as JavaScript's Date.toJSON does.
func (d Date) MarshalJSON() ([]byte, error) {
	return []byte(`"` + d.UTC().Format(jsDateLayout) + `"`), nil
}

// UnmarshalJSON reads an ISO 8601 date (RFC 3339).
func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	d.Time = t.UTC()
	return nil
}
