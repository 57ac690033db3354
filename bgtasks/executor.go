package bgtasks

import (
	"context"
	"encoding/json"
)

// Executor does a task's work: Execute runs the tool call with the
// task's arguments and returns its result, which is stored as JSON.
//
// ctx ends when the task is cancelled or its timeout passes; an
// executor should stop then. An error fails the execution (retried
// while the task has retries left). An executor may call
// call.Suspend: the task is then Suspended when Execute returns, its
// result ignored, until Resume runs it again with call.ResumeData set.
type Executor interface {
	Execute(ctx context.Context, call *Call) (any, error)
}

// ExecutorFunc is an Executor of a function.
type ExecutorFunc func(ctx context.Context, call *Call) (any, error)

// Execute calls f.
func (f ExecutorFunc) Execute(ctx context.Context, call *Call) (any, error) { return f(ctx, call) }

// Resolver finds the executor of a task from its record, by its tool and
// agent: it is how a Manager takes up, after a restart, tasks whose
// Enqueue happened in a process that is gone. It returns false when it
// knows no executor for the task.
type Resolver func(ctx context.Context, task Task) (Executor, bool)

// Call is one execution of a task, given to its Executor.
type Call struct {
	// Task is the task's record as the execution started (a copy).
	Task Task
	// Args are the tool call's arguments (a JSON object).
	Args json.RawMessage
	// ResumeData is what Resume was given, when this execution follows
	// a suspension; nil otherwise.
	ResumeData json.RawMessage

	suspended      bool
	suspendPayload json.RawMessage
	progress       func(ctx context.Context, output json.RawMessage)
}

// Suspend marks the task to be suspended with payload (any JSON value,
// nil for none) when Execute returns: the Manager then records it
// Suspended, frees its concurrency slot and publishes
// "background-task-suspended". It fails only when payload cannot be
// encoded.
func (c *Call) Suspend(payload any) error {
	var raw json.RawMessage
	if payload != nil {
		b, err := json.Marshal(payload)
		if err != nil {
			return err
		}
		raw = b
	}
	c.suspended, c.suspendPayload = true, raw
	return nil
}

// Progress publishes output, a "tool-output" chunk of the tool (its
// JSON), as a "background-task-output" event of the task, subject to
// Config.ProgressThrottle.
func (c *Call) Progress(ctx context.Context, output json.RawMessage) {
	if c.progress != nil {
		c.progress(ctx, output)
	}
}

// Hooks are an Enqueue's own executor and callbacks for its task. They
// live in the enqueuing process only: a task taken up elsewhere after a
// restart has none and uses Config.Resolve. The Manager drops them once
// the task is finished: at once when it finishes in this process, else
// at a lease renewal after the store shows it finished by another
// Manager (whose callbacks this process does not call).
type Hooks struct {
	// Executor runs the task; nil: Config.Resolve finds one.
	Executor Executor
	// OnEvent receives every lifecycle event of the task published in
	// this process, in order (see Event).
	OnEvent func(Event)
	// OnComplete and OnFailed are called with the final record after
	// the task completed, or failed or timed out.
	OnComplete func(Task)
	OnFailed   func(Task)
}
