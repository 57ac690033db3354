package tools

import "context"

// InputStartEvent: the model started streaming this call's input.
type InputStartEvent struct {
	ToolCallID string
	Messages   []any
}

// InputDeltaEvent: a fragment of the input's JSON text arrived.
type InputDeltaEvent struct {
	InputTextDelta string
	ToolCallID     string
	Messages       []any
}

// InputAvailableEvent: the complete input is known (In for typed tools).
type InputAvailableEvent[In any] struct {
	Input      In
	ToolCallID string
	Messages   []any
}

// OutputEvent: the call produced its output: the tool's Out when it ran
// successfully, or the *ValidationError result.
type OutputEvent struct {
	Output     any
	ToolName   string
	ToolCallID string
}

// InputStarted calls OnInputStart, if any.
func (t *Tool) InputStarted(ctx context.Context, e InputStartEvent) {
	if t.onInputStart != nil {
		t.onInputStart(ctx, e)
	}
}

// InputDelta calls OnInputDelta, if any.
func (t *Tool) InputDelta(ctx context.Context, e InputDeltaEvent) {
	if t.onInputDelta != nil {
		t.onInputDelta(ctx, e)
	}
}

// HasInputAvailable reports whether the tool has an OnInputAvailable
// callback (callers decode the input for it only then).
func (t *Tool) HasInputAvailable() bool { return t.onInputAvailable != nil }

// InputAvailable calls OnInputAvailable, if any, with the input decoded
// into the tool's In (a value that does not decode skips the callback).
func (t *Tool) InputAvailable(ctx context.Context, e InputAvailableEvent[any]) {
	if t.onInputAvailable != nil {
		t.onInputAvailable(ctx, e)
	}
}

// HasOutput reports whether the tool has an OnOutput callback.
func (t *Tool) HasOutput() bool { return t.onOutput != nil }

// Output calls OnOutput, if any.
func (t *Tool) Output(ctx context.Context, e OutputEvent) {
	if t.onOutput != nil {
		t.onOutput(ctx, e)
	}
}
