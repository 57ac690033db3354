package tools

import (
	"fmt"
	"time"

	"github.com/gomastra/mastra/schema"
)

// Disposition is how one tool call runs: inline, or as a background task
// the run either goes on without (deferred) or waits for (awaited).
type Disposition string

// The dispositions, with Mastra's names (the values the model writes in
// "_background": {"disposition": ...}).
const (
	// DispositionForeground runs the call inline; its real result is the
	// call's result.
	DispositionForeground Disposition = "foreground"
	// DispositionDeferred runs the call as a background task: the model
	// gets a placeholder result with the task id at once, and the real
	// result replaces it when the task ends.
	DispositionDeferred Disposition = "deferred"
	// DispositionAwaited runs the call as a background task (its
	// concurrency, timeout, retries and record) but the run waits for its
	// result, which is the call's result.
	DispositionAwaited Disposition = "awaited"
)

// Valid reports whether d is one of the three dispositions.
func (d Disposition) Valid() bool {
	return d == DispositionForeground || d == DispositionDeferred || d == DispositionAwaited
}

// BackgroundConfig is Mastra's tool `background` option: whether the
// tool may run as a background task, and with what defaults. An agent's
// own background configuration overrides Enabled per tool.
type BackgroundConfig struct {
	// Enabled makes the tool eligible: its input schema gets the
	// "_background" field and calls may run in the background.
	Enabled bool
	// DefaultDisposition is the disposition of a call that carries no
	// "_background" override: DispositionDeferred (the default, also for
	// "") or DispositionForeground (the model must opt each call in).
	DefaultDisposition Disposition
	// Timeout bounds one task of this tool (0: the manager's default).
	Timeout time.Duration
	// MaxRetries is how often a failed task is retried (0: the manager's
	// default).
	MaxRetries int
}

// Background returns the tool's background configuration, nil when it
// has none. Do not modify it.
func (t *Tool) Background() *BackgroundConfig { return t.background }

// clone copies c (nil stays nil) so that the caller's later changes do
// not reach a built tool.
func (c *BackgroundConfig) clone() *BackgroundConfig {
	if c == nil {
		return nil
	}
	cp := *c
	return &cp
}

// check reports a DefaultDisposition a tool cannot have.
func (c *BackgroundConfig) check() error {
	if c == nil {
		return nil
	}
	switch c.DefaultDisposition {
	case "", DispositionDeferred, DispositionForeground:
		return nil
	}
	return fmt.Errorf("DefaultDisposition must be %q or %q, not %q", DispositionDeferred, DispositionForeground, c.DefaultDisposition)
}

// InputValidationError is the ValidationError of a call of the tool
// named name whose arguments args (JSON) have issues: Mastra's "Tool
// input validation failed" result, for callers that check arguments the
// tool itself does not (an agent's "_background" argument).
func InputValidationError(name string, issues []schema.Issue, args []byte) *ValidationError {
	return newValidationError(inputValidation, name, issues, args)
}
