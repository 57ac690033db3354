package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/gomastra/mastra/tools"
)

// HookCall is what tool-call hooks see (Mastra's hook context).
type HookCall struct {
	// ToolName is the sanitised model-facing name.
	ToolName   string
	ToolCallID string
	// Input is the raw arguments as the model sent them, before
	// validation.
	Input     json.RawMessage
	AgentID   string
	AgentName string
	// RequestContext is the run's request context (WithRequestContext,
	// with the memory keys of WithMemory), the one the tool gets.
	RequestContext *tools.RequestContext
}

// hookCall is what the hooks see of call c.
func (r *run) hookCall(c callState) HookCall {
	return HookCall{ToolName: c.Name, ToolCallID: c.ID, Input: c.Args,
		AgentID: r.agent.cfg.ID, AgentName: r.agent.cfg.Name, RequestContext: r.opts.requestContext}
}

// InputAs decodes the call's arguments (HookCall.Input, as the model sent
// them, not yet validated) into a T.
func InputAs[T any](c HookCall) (T, error) {
	var v T
	err := json.Unmarshal(argsOrEmpty(c.Input), &v)
	return v, err
}

// OutputAs is a tool's output, as AfterToolCall gets it, as a T: a T is
// returned as it is, any other value (a map, json.RawMessage, another
// struct) is converted through its JSON. A validation error result
// (tools.IsValidationError) is returned as the error.
func OutputAs[T any](output any) (T, error) {
	var v T
	if t, ok := output.(T); ok {
		return t, nil
	}
	if ve, ok := output.(*tools.ValidationError); ok && ve != nil {
		return v, ve
	}
	if tools.IsValidationError(output) {
		return v, fmt.Errorf("agent: the tool's input was invalid: %v", output)
	}
	raw, err := json.Marshal(output)
	if err != nil {
		return v, err
	}
	err = json.Unmarshal(raw, &v)
	return v, err
}

// Skip is BeforeToolCall's "proceed: false": the tool does not run and
// Output becomes its result.
type Skip struct{ Output any }

// Hooks wrap every tool call of a tool that has Execute (client tools are
// not wrapped, as in Mastra). An error returned by a hook fails the call
// (a tool-error the model sees).
type Hooks struct {
	// BeforeToolCall runs first; a non-nil *Skip skips the tool, and
	// AfterToolCall is then not called.
	BeforeToolCall func(ctx context.Context, call HookCall) (*Skip, error)
	// AfterToolCall runs after the tool with its output (a validation
	// error result included) or its error; the tool's error is still
	// reported after it.
	AfterToolCall func(ctx context.Context, call HookCall, output any, err error) error
}

// merge returns h with the hooks other sets (per key, other wins), as
// Mastra merges per-call hooks over the agent's.
func (h Hooks) merge(other Hooks) Hooks {
	if other.BeforeToolCall != nil {
		h.BeforeToolCall = other.BeforeToolCall
	}
	if other.AfterToolCall != nil {
		h.AfterToolCall = other.AfterToolCall
	}
	return h
}

// WithHooks sets this run's hooks, merged per key over the agent's.
func WithHooks(h Hooks) Option { return func(o *runOptions) { o.hooks = h } }

// callHook runs fn, turning a panic into an error.
func callHook(name string, fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v", name, p)
		}
	}()
	return fn()
}

// safeCallback runs a lifecycle callback: its panics are logged and never
// fail the call.
func safeCallback(log *slog.Logger, name string, fn func()) {
	defer func() {
		if p := recover(); p != nil {
			log.Warn("tool lifecycle callback panicked", "callback", name, "panic", p)
		}
	}()
	fn()
}
