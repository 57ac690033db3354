package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
)

// Context is what a tool's Execute receives: a context.Context (its
// cancellation is Mastra's abortSignal, its span the tracing context) plus
// the tool-call facts Mastra passes in execute's second argument. The same
// Context reaches Execute on every path: a direct call, an agent run, a
// workflow step, the HTTP API, MCP. Methods that do not apply on a path
// return zero values (Agent() is nil outside agent runs, for example).
type Context interface {
	context.Context

	// ToolCallID is the model's id for this call ("" on direct calls).
	ToolCallID() string
	// ToolName is the model-facing name (the record key), or the id.
	ToolName() string
	// RunID is the id of the agent or workflow run.
	RunID() string
	// Messages are the conversation the model saw when it made the call:
	// model.Message values, system messages excluded (agent runs only).
	Messages() []any
	// RequestContext is never nil; with a RequestContextSchema it is the
	// validated view.
	RequestContext() *RequestContext
	// Writer streams output (discarded on direct calls).
	Writer() Writer
	// Suspend stops this call until someone resumes it with data. It
	// records the payload and returns ErrSuspended, so the idiom is
	// `return Out{}, ctx.Suspend(payload)`. Code after Suspend still runs.
	Suspend(payload any, opts ...SuspendOption) error
	// ResumeData is the data this call was resumed with, nil otherwise.
	ResumeData() json.RawMessage
	// SuspendPayload is what this call suspended with earlier, on resume.
	SuspendPayload() json.RawMessage
	// Agent describes the calling agent run, nil outside one.
	Agent() *AgentInfo
	// Workflow describes the calling workflow run, nil outside one.
	Workflow() *WorkflowInfo
	// Mastra is the registry the tool runs in: the Invocation's, or else
	// the registry of the tool call this one runs inside (see
	// [RegistryFrom]); nil on bare direct calls.
	Mastra() Registry
	// Logger never returns nil.
	Logger() *slog.Logger
}

// AgentInfo describes the agent run that called a tool.
type AgentInfo struct {
	AgentID    string
	ThreadID   string
	ResourceID string
	// SuspendedToolRunID is the delegated run id resolved by the framework
	// on resume (sub-agent and workflow tools).
	SuspendedToolRunID string
}

// WorkflowInfo describes the workflow run that called a tool as a step.
type WorkflowInfo struct {
	RunID      string
	WorkflowID string
	State      any
	// SetState replaces the workflow state; nil when not supported.
	SetState func(state any) error
}

// Registry is the part of the Mastra registry a tool may use.
type Registry interface {
	GetTool(name string) (*Tool, error)
	GetToolByID(id string) (*Tool, error)
}

// registryKey is the context key under which a tool call's Context
// answers its registry (see [RegistryFrom]).
type registryKey struct{}

// RegistryFrom returns the registry of the tool call ctx belongs to: the
// Mastra() of the innermost tools.Context that ctx is, or derives from
// (through context.WithCancel and the like), which has one. It is nil
// outside tool calls and in calls without a registry. An agent or
// workflow run started inside a tool's Execute uses it to hand its own
// tools the registry the outer tool was reached through.
func RegistryFrom(ctx context.Context) Registry {
	if ctx == nil {
		return nil
	}
	reg, _ := ctx.Value(registryKey{}).(Registry)
	return reg
}

// callContext is the Context implementation.
type callContext struct {
	context.Context
	tool *Tool
	inv  *Invocation
	rc   *RequestContext
	log  *slog.Logger

	mu        sync.Mutex
	suspended *Suspension
}

func (c *callContext) ToolCallID() string { return c.inv.ToolCallID }
func (c *callContext) ToolName() string {
	if c.inv.ToolName != "" {
		return c.inv.ToolName
	}
	return c.tool.id
}
func (c *callContext) RunID() string   { return c.inv.RunID }
func (c *callContext) Messages() []any { return c.inv.Messages }
func (c *callContext) RequestContext() *RequestContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rc == nil {
		c.rc = NewRequestContext(nil)
	}
	return c.rc
}
func (c *callContext) Writer() Writer {
	if c.inv.Writer == nil {
		return discardWriter{}
	}
	return c.inv.Writer
}
func (c *callContext) ResumeData() json.RawMessage     { return c.inv.ResumeData }
func (c *callContext) SuspendPayload() json.RawMessage { return c.inv.SuspendPayload }
func (c *callContext) Agent() *AgentInfo               { return c.inv.Agent }
func (c *callContext) Workflow() *WorkflowInfo         { return c.inv.Workflow }
func (c *callContext) Logger() *slog.Logger            { return c.log }

func (c *callContext) Mastra() Registry {
	if c.inv.Mastra != nil {
		return c.inv.Mastra
	}
	return RegistryFrom(c.Context)
}

// Value answers registryKey with the call's registry, so that contexts
// derived from this one find it (RegistryFrom); other keys go to the
// parent context.
func (c *callContext) Value(key any) any {
	if _, ok := key.(registryKey); ok && c.inv.Mastra != nil {
		return c.inv.Mastra
	}
	return c.Context.Value(key)
}

func (c *callContext) Suspend(payload any, opts ...SuspendOption) error {
	var o SuspendOptions
	for _, opt := range opts {
		opt(&o)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return &SuspendError{Err: err}
	}
	c.mu.Lock()
	c.suspended = &Suspension{Payload: raw, Options: o}
	c.mu.Unlock()
	return ErrSuspended
}

func (c *callContext) suspension() *Suspension {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.suspended
}

// ResumeDataAs decodes the data ctx was resumed with into a T. ok is false
// when the call is not a resume.
func ResumeDataAs[T any](ctx Context) (v T, ok bool, err error) {
	raw := ctx.ResumeData()
	if raw == nil {
		return v, false, nil
	}
	err = json.Unmarshal(raw, &v)
	return v, err == nil, err
}

// SuspendPayloadAs decodes the payload ctx suspended with into a T.
func SuspendPayloadAs[T any](ctx Context) (v T, ok bool, err error) {
	raw := ctx.SuspendPayload()
	if raw == nil {
		return v, false, nil
	}
	err = json.Unmarshal(raw, &v)
	return v, err == nil, err
}
