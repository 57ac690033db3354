package tools

import (
	"context"
	"encoding/json"
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

// TextOutput is a ToModelOutput answer: the model sees the text s
// ({type: "text", value: s}).
func TextOutput(s string) (*model.ToolResultOutput, error) {
	o := model.TextOutput(s)
	return &o, nil
}

// JSONOutput is a ToModelOutput answer: the model sees v as JSON
// ({type: "json", value: v}). A v that does not marshal to JSON is an
// error, which fails the mapping.
func JSONOutput(v any) (*model.ToolResultOutput, error) {
	if _, err := json.Marshal(v); err != nil {
		return nil, fmt.Errorf("tools: JSONOutput: %w", err)
	}
	o := model.JSONOutput(v)
	return &o, nil
}

// ContentOutput is a ToModelOutput answer: the model sees the parts
// (text, images, files: model.TextPart, model.ImageDataPart, ...) in
// order ({type: "content", value: [parts]}).
func ContentOutput(parts ...model.ContentPart) (*model.ToolResultOutput, error) {
	o := model.ContentOutput(parts...)
	return &o, nil
}

// ErrorTextOutput is a ToModelOutput answer: the model is told the call
// failed, with the text s ({type: "error-text", value: s}).
func ErrorTextOutput(s string) (*model.ToolResultOutput, error) {
	o := model.ErrorTextOutput(s)
	return &o, nil
}

// ErrorJSONOutput is a ToModelOutput answer: the model is told the call
// failed, with v as JSON ({type: "error-json", value: v}). A v that does
// not marshal to JSON is an error, which fails the mapping.
func ErrorJSONOutput(v any) (*model.ToolResultOutput, error) {
	if _, err := json.Marshal(v); err != nil {
		return nil, fmt.Errorf("tools: ErrorJSONOutput: %w", err)
	}
	o := model.ErrorJSONOutput(v)
	return &o, nil
}
