package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"go.opentelemetry.io/otel/trace"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/schema"
)

// Invocation carries what the caller knows about one tool call. A nil
// *Invocation is a direct call: no tool-call id, an empty request context,
// a discarding writer.
type Invocation struct {
	// ToolCallID is the model's id for the call.
	ToolCallID string
	// ToolName is the model-facing name (the record key). When set it
	// names the tool in validation messages, as Mastra's agent builder
	// does; otherwise the tool's id is used.
	ToolName string
	RunID    string
	// Messages are the conversation the model saw when it made the call
	// (model.Message values, system messages excluded).
	Messages []any
	// RequestContext defaults to an empty one.
	RequestContext *RequestContext
	// Writer receives Write and Custom calls; nil discards them.
	Writer Writer
	// ResumeData, when non-nil, makes this a resume: input validation is
	// skipped and the data is validated against the ResumeSchema.
	ResumeData json.RawMessage
	// SuspendPayload is what the call suspended with earlier.
	SuspendPayload json.RawMessage
	Agent          *AgentInfo
	Workflow       *WorkflowInfo
	Mastra         Registry
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Tracer defaults to the global OpenTelemetry tracer provider's.
	Tracer trace.Tracer
	// ToolType is Mastra's span tool type: "tool" (default), "toolset" or
	// "client-tool".
	ToolType string
	// PrepareInput, when set, rewrites the decoded input before validation
	// (the OpenAI compat layer maps its nulls back to absent keys here).
	PrepareInput func(v any) any
}

// directCall is the Invocation of direct calls; never modified.
var directCall Invocation

// Result is what a tool call returned. Exactly one of these holds:
// Output is the tool's output (its Out, or the output schema's parsed value
// when validation changed it); Output is a *ValidationError; Suspension is
// set (and Output is nil unless the tool returned one too).
type Result struct {
	Output     any
	Suspension *Suspension
	json       []byte
}

// ValidationError returns the validation error result, or nil.
func (r *Result) ValidationError() *ValidationError {
	ve, _ := r.Output.(*ValidationError)
	return ve
}

// Suspended reports whether the call suspended.
func (r *Result) Suspended() bool { return r.Suspension != nil }

// JSON returns the output as JSON ("null" when there is none).
func (r *Result) JSON() ([]byte, error) {
	if r.json != nil {
		return r.json, nil
	}
	b, err := json.Marshal(r.Output)
	if err != nil {
		return nil, err
	}
	r.json = b
	return b, nil
}

// Errors a call can return. A returned error is a tool error (Mastra's
// thrown error): the agent loop reports it to the model and goes on.
var (
	// ErrClientTool: the tool has no Execute; the client runs it.
	ErrClientTool = errors.New("tools: client tool has no execute function")
	// ErrMalformedArguments: the arguments are not valid JSON.
	ErrMalformedArguments = errors.New("tools: arguments are not valid JSON")
)

// PanicError is the error a call returns when Execute panicked.
type PanicError struct {
	ToolID string
	Value  any
	Stack  []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %s panicked: %v", e.ToolID, e.Value)
}

// Execute runs the tool on args, the call's JSON arguments (nil or empty:
// no arguments), following Mastra's tool wrapper step by step:
//
//  1. Unless resuming, validate the input (schema.ValidateInput); failure
//     returns a *ValidationError result.
//  2. Validate the request context against RequestContextSchema; failure
//     returns a *ValidationError result; success gives Execute the view.
//  3. When resuming, validate ResumeData against ResumeSchema with the
//     input pipeline (failure: a result, worded as an input error).
//  4. Call Execute, recovering a panic as a *PanicError.
//  5. If Suspend was called, validate its payload against SuspendSchema
//     (failure: a result).
//  6. Unless Execute returned ErrSuspended, validate the output against
//     OutputSchema: OutputStrict returns the *ValidationError instead;
//     OutputWarn logs it and returns the real output.
//
// The error is non-nil only for a tool error: what Execute returned, a
// panic, ErrClientTool, ErrMalformedArguments, or a context error.
func (t *Tool) Execute(ctx context.Context, args json.RawMessage, inv *Invocation) (*Result, error) {
	if inv == nil {
		inv = &directCall
	}
	if t.run == nil {
		return nil, fmt.Errorf("%w: %s", ErrClientTool, t.id)
	}
	ctx, span := t.startSpan(ctx, inv)
	defer span.End()
	res, err := t.execute(ctx, args, inv)
	endSpan(span, res, err)
	return res, err
}

func (t *Tool) execute(ctx context.Context, args json.RawMessage, inv *Invocation) (*Result, error) {
	name := inv.ToolName
	if name == "" {
		name = t.id
	}
	logger := inv.Logger
	if logger == nil {
		logger = slog.Default()
	}
	args = trimJSONSpace(args)
	resuming := inv.ResumeData != nil

	var (
		fast      bool
		validated any
	)
	switch {
	case resuming:
		// Mastra hands Execute the raw input when resuming.
		v, _, err := decodeArgs(args)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrMalformedArguments, name, err)
		}
		validated = v
	case t.input == nil:
		v, _, err := decodeArgs(args)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrMalformedArguments, name, err)
		}
		validated = v
	default:
		if inv.PrepareInput == nil && fastValid(t.input, args) {
			fast = true
			break
		}
		v, present, err := decodeArgs(args)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrMalformedArguments, name, err)
		}
		if inv.PrepareInput != nil && present {
			v = inv.PrepareInput(v)
		}
		out, issues := schema.ValidateInput(t.input, v, present)
		if len(issues) > 0 {
			var raw []byte
			if present {
				raw = args
			}
			return &Result{Output: newValidationError(inputValidation, name, issues, raw)}, nil
		}
		validated = out
	}

	rc := inv.RequestContext
	if rc == nil && t.requestContext != nil {
		rc = NewRequestContext(nil)
	}
	if t.requestContext != nil {
		view, issues, err := rc.validatedView(t.requestContext)
		if err != nil {
			return nil, fmt.Errorf("tools: %s: request context: %w", name, err)
		}
		if len(issues) > 0 {
			raw, _ := rc.MarshalJSON()
			if raw, err = jsjson.ReplaceKeys(raw, isSensitiveKey, "[REDACTED]"); err != nil {
				raw = nil
			}
			return &Result{Output: newValidationError(requestContextValidation, name, issues, raw)}, nil
		}
		rc = view
	}

	if resuming && t.resume != nil {
		v, present, err := decodeArgs(inv.ResumeData)
		if err != nil {
			return nil, fmt.Errorf("tools: %s: resume data is not valid JSON: %v", name, err)
		}
		if _, issues := schema.ValidateInput(t.resume, v, present); len(issues) > 0 {
			return &Result{Output: newValidationError(inputValidation, name, issues, inv.ResumeData)}, nil
		}
	}

	cc := &callContext{Context: ctx, tool: t, inv: inv, rc: rc, log: logger}
	out, outJSON, err := t.runRecovered(cc, args, fast, validated)
	susp := cc.suspension()
	suspendedReturn := errors.Is(err, ErrSuspended) && susp != nil
	if err != nil && !suspendedReturn {
		return nil, err
	}
	if susp != nil && t.suspend != nil && !isNullJSON(susp.Payload) {
		v, _, err := decodeArgs(susp.Payload)
		if err != nil {
			return nil, fmt.Errorf("tools: %s: suspend payload: %v", name, err)
		}
		if _, issues := t.suspend.Validate(v); len(issues) > 0 {
			return &Result{Output: newValidationError(suspendValidation, name, issues, susp.Payload)}, nil
		}
	}
	if suspendedReturn {
		return &Result{Suspension: susp}, nil
	}
	res := &Result{Output: out, Suspension: susp, json: outJSON}
	if t.output != nil {
		t.validateOutput(res, name, logger)
	}
	return res, nil
}

// validateOutput applies OutputSchema to res in place.
func (t *Tool) validateOutput(res *Result, name string, logger *slog.Logger) {
	if fastValid(t.output, res.json) {
		return
	}
	v, _, err := decodeArgs(res.json)
	if err != nil {
		return
	}
	var (
		parsed  any
		changed = true
		issues  []schema.Issue
	)
	if c, ok := t.output.(interface {
		ValidateChanged(any) (any, bool, []schema.Issue)
	}); ok {
		parsed, changed, issues = c.ValidateChanged(v)
	} else {
		parsed, issues = t.output.Validate(v)
	}
	if len(issues) == 0 {
		if changed { // the schema's output (defaults, stripped keys) replaces the tool's
			res.Output = plainNumbers(parsed)
			res.json = nil
		}
		return
	}
	ve := newValidationError(outputValidation, name, issues, res.json)
	logger.Warn("tool output validation failed", "toolId", t.id, "error", ve.Message)
	if t.outputValidation == OutputWarn {
		return
	}
	res.Output, res.json = ve, nil
}

func (t *Tool) runRecovered(cc *callContext, raw []byte, fast bool, validated any) (out any, outJSON []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			cc.log.Error("tool execute panicked", "toolId", t.id, "panic", p, "stack", string(stack))
			err = &PanicError{ToolID: t.id, Value: p, Stack: stack}
		}
	}()
	if err := cc.Err(); err != nil {
		return nil, nil, err
	}
	return t.run(cc, raw, fast, validated)
}

// decodeArgs decodes JSON arguments with exact numbers. Empty means absent.
func decodeArgs(raw []byte) (v any, present bool, err error) {
	raw = trimJSONSpace(raw)
	if len(raw) == 0 {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false, err
	}
	if rest := trimJSONSpace(raw[dec.InputOffset():]); len(rest) > 0 {
		return nil, false, fmt.Errorf("invalid character %q after the JSON value", rest[0])
	}
	return v, true, nil
}

// trimJSONSpace removes JSON's whitespace (space, tab, LF, CR) from both
// ends; other Unicode spaces are not JSON and stay, to be refused.
func trimJSONSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isNullJSON(b []byte) bool {
	b = trimJSONSpace(b)
	return len(b) == 0 || string(b) == "null" || string(b) == "false" || string(b) == `""` || string(b) == "0"
}

// fastValid reports whether raw is certainly valid for s as it stands (no
// coercion, defaults or stripping needed), without decoding it.
func fastValid(s schema.Schema, raw []byte) bool {
	fv, ok := s.(interface{ ValidJSON([]byte) bool })
	return ok && fv.ValidJSON(raw)
}
