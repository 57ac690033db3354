package tools

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/gomastra/mastra/model"
)

// ModelOutput runs the tool's ToModelOutput on a successful result, in a
// child span ("tool_output_mapping <name>"), and returns the normalised
// output the model should see. nil (and no error) means the model sees the
// raw result: the tool has no ToModelOutput, the result is nil or a
// ValidationError, or the function returned nil. An error fails the
// mapping; a panic in the function is returned as a *PanicError.
func (t *Tool) ModelOutput(ctx context.Context, name string, output any, inv *Invocation) (mo *model.ToolResultOutput, err error) {
	if t.toModelOutput == nil || output == nil || IsValidationError(output) {
		return nil, nil
	}
	if name == "" {
		name = t.id
	}
	if inv == nil {
		inv = &directCall
	}
	if tracingOff(inv) {
		defer func() {
			if p := recover(); p != nil {
				mo, err = nil, &PanicError{ToolID: t.id, Value: p}
			}
		}()
		return t.mapOutput(ctx, output)
	}
	ctx, span := t.tracer(inv).Start(ctx, "tool_output_mapping "+name,
		trace.WithAttributes(attribute.String(attrToolName, name), attribute.String(attrToolID, t.id)))
	defer func() {
		if p := recover(); p != nil {
			mo, err = nil, &PanicError{ToolID: t.id, Value: p}
		}
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}()
	return t.mapOutput(ctx, output)
}

func (t *Tool) mapOutput(ctx context.Context, output any) (*model.ToolResultOutput, error) {
	mo, err := t.toModelOutput(ctx, output)
	if err != nil {
		return nil, fmt.Errorf("tools: %s: toModelOutput: %w", t.id, err)
	}
	if mo == nil {
		return nil, nil
	}
	n := mo.Normalize()
	return &n, nil
}
