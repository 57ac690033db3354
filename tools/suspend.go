package tools

import (
	"encoding/json"
	"errors"
)

// ErrSuspended is what Context.Suspend returns: the tool call is suspended,
// which is not a failure. Return it from Execute.
var ErrSuspended = errors.New("tools: tool call suspended")

// SuspendError reports a Suspend call whose payload could not be encoded.
type SuspendError struct{ Err error }

func (e *SuspendError) Error() string { return "tools: suspend payload: " + e.Err.Error() }
func (e *SuspendError) Unwrap() error { return e.Err }

// Suspension is what a suspended call recorded.
type Suspension struct {
	// Payload is the JSON of what the tool passed to Suspend, after
	// validation against the SuspendSchema.
	Payload json.RawMessage
	Options SuspendOptions
}

// SuspendOptions are Mastra's suspend() options.
type SuspendOptions struct {
	// ResumeSchema is a JSON string of the schema the resume data must
	// satisfy; empty means the tool's ResumeSchema.
	ResumeSchema string
	// ResumeLabel names the suspended steps (workflow tools).
	ResumeLabel []string
	// RunID is the delegated run to resume (sub-agent and workflow tools).
	RunID string
	// RequireToolApproval marks a suspension that is an approval request
	// coming from a sub-agent.
	RequireToolApproval bool
	// IsAgentSuspend marks a suspension propagated from a sub-agent.
	IsAgentSuspend bool
}

// SuspendOption sets a SuspendOptions field.
type SuspendOption func(*SuspendOptions)

// WithResumeSchema overrides the resume schema (a JSON Schema as text).
func WithResumeSchema(jsonSchema string) SuspendOption {
	return func(o *SuspendOptions) { o.ResumeSchema = jsonSchema }
}

// WithResumeLabel sets the resume labels.
func WithResumeLabel(labels ...string) SuspendOption {
	return func(o *SuspendOptions) { o.ResumeLabel = labels }
}

// WithRunID sets the delegated run id.
func WithRunID(runID string) SuspendOption { return func(o *SuspendOptions) { o.RunID = runID } }

// WithToolApproval marks the suspension as a propagated approval request.
func WithToolApproval() SuspendOption {
	return func(o *SuspendOptions) { o.RequireToolApproval = true }
}
