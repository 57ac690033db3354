package tools

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// TracerName is the instrumentation scope of the spans this package makes.
const TracerName = "github.com/gomastra/mastra/tools"

// Span attributes: OpenTelemetry's GenAI conventions plus Mastra's own.
const (
	attrOperation  = "gen_ai.operation.name"
	attrToolName   = "gen_ai.tool.name"
	attrToolCallID = "gen_ai.tool.call.id"
	attrToolDesc   = "gen_ai.tool.description"
	attrToolID     = "mastra.tool.id"
	attrToolType   = "mastra.tool.type"
)

func (t *Tool) tracer(inv *Invocation) trace.Tracer {
	if inv != nil && inv.Tracer != nil {
		return inv.Tracer
	}
	return otel.GetTracerProvider().Tracer(TracerName)
}

// startSpan opens the span of one execution: "execute_tool <name>".
func (t *Tool) startSpan(ctx context.Context, inv *Invocation) (context.Context, trace.Span) {
	name := inv.ToolName
	if name == "" {
		name = t.id
	}
	toolType := inv.ToolType
	if toolType == "" {
		toolType = t.toolType
	}
	return t.tracer(inv).Start(ctx, "execute_tool "+name,
		trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String(attrOperation, "execute_tool"),
			attribute.String(attrToolName, name),
			attribute.String(attrToolID, t.id),
			attribute.String(attrToolCallID, inv.ToolCallID),
			attribute.String(attrToolType, toolType),
			attribute.String(attrToolDesc, t.description),
		))
}

func endSpan(span trace.Span, res *Result, err error) {
	switch {
	case err != nil && !errors.Is(err, ErrSuspended):
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	case res != nil && res.ValidationError() != nil:
		span.SetStatus(codes.Error, "validation failed")
	case res != nil && res.Suspended():
		span.SetAttributes(attribute.Bool("mastra.tool.suspended", true))
	}
}
