package mcpclient

import (
	"errors"
	"fmt"
	"time"
)

// TasksExtension is the MCP extension id of tasks, declared to servers
// whose ServerConfig.Tasks is set.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Task defaults.
const (
	// DefaultTaskPollInterval is how often a task is polled when the
	// server suggests no interval.
	DefaultTaskPollInterval = time.Second
	// DefaultTaskTimeout bounds how long a call waits for its task.
	DefaultTaskTimeout = 30 * time.Minute
	// minTaskPollInterval keeps a server from making the client spin.
	minTaskPollInterval = 10 * time.Millisecond
)

// TasksConfig makes a server's long-running tool calls MCP tasks (Mastra's
// MCP tasks): the client declares the tasks extension, so the server may
// answer a tools/call with a task id instead of holding the request open;
// the call then polls tasks/get (every pollIntervalMs the server
// suggests, else PollInterval) until the task ends and returns its result
// as if the server had answered at once. Cancelling the call's context
// cancels the task (tasks/cancel). A task that asks for input
// (input_required) is answered with tasks/update by the server's
// elicitation handler (ServerConfig.ElicitationHandler,
// Client.OnElicitationRequest), answers checked against the requested
// schema. A task that fails, is cancelled, expires, asks for input no
// handler answers or outlives Timeout ends the call with a *TaskError.
type TasksConfig struct {
	// PollInterval is used when the server suggests none (default
	// DefaultTaskPollInterval).
	PollInterval time.Duration
	// Timeout bounds the wait for one task, polling included (default
	// DefaultTaskTimeout); the task is then cancelled. Each tasks/get is
	// bounded by the server's request Timeout, as any request.
	Timeout time.Duration
	// Background makes this server's tools eligible to run as agent
	// background tasks (tools.BackgroundConfig{Enabled: true}), so that
	// an agent with background tasks enabled keeps answering while a
	// task runs, and gets the result when it ends.
	Background bool
}

// Errors a *TaskError matches with errors.Is.
var (
	// ErrTaskFailed: the server reports the task failed (a protocol-level
	// error; a tool's own error is a completed task with isError).
	ErrTaskFailed = errors.New("mcpclient: MCP task failed")
	// ErrTaskCancelled: the task was cancelled (by the server, or by
	// someone else's tasks/cancel).
	ErrTaskCancelled = errors.New("mcpclient: MCP task was cancelled")
	// ErrTaskExpired: the server no longer knows the task (its TTL ran
	// out before the result was read).
	ErrTaskExpired = errors.New("mcpclient: MCP task expired")
	// ErrTaskTimeout: the task did not end within TasksConfig.Timeout.
	ErrTaskTimeout = errors.New("mcpclient: MCP task timed out")
	// ErrTaskNeedsInput: the task asked for input (input_required) that
	// the server's elicitation handler could not give (there is none, it
	// failed, or its answer did not fit); the task is cancelled.
	ErrTaskNeedsInput = errors.New("mcpclient: MCP task needs input")
)

// TaskError is how a call's MCP task ended when it did not complete.
type TaskError struct {
	Server, Tool, TaskID string
	// Kind is one of ErrTaskFailed, ErrTaskCancelled, ErrTaskExpired,
	// ErrTaskTimeout and ErrTaskNeedsInput.
	Kind error
	// Code and Message are the server's JSON-RPC error of a failed task,
	// or its status message.
	Code    int64
	Message string
}

func (e *TaskError) Error() string {
	s := fmt.Sprintf("%v: tool %q on server %q (task %s)", e.Kind, e.Tool, e.Server, e.TaskID)
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Code != 0 {
		s += fmt.Sprintf(" (code %d)", e.Code)
	}
	return s
}

// Is matches the error's Kind.
func (e *TaskError) Is(target error) bool { return target == e.Kind }

// pollInterval is the interval to wait between polls: the server's
// suggestion (ms), else the configured one, never below the minimum.
func (c *TasksConfig) pollInterval(serverMs int64) time.Duration {
	d := time.Duration(serverMs) * time.Millisecond
	if d <= 0 {
		d = c.PollInterval
	}
	if d <= 0 {
		d = DefaultTaskPollInterval
	}
	return max(d, minTaskPollInterval)
}

// timeout is the bound of one task's wait.
func (c *TasksConfig) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTaskTimeout
}
