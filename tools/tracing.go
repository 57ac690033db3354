package tools

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/gomastra/mastra/internal/tracing"
)

// noSpan stands in when tracing is off.
var noSpan trace.Span = noop.Span{}

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

// globalTracer follows the global tracer provider, including one installed
// after this package is loaded (OpenTelemetry's documented pattern).
var globalTracer = otel.Tracer(TracerName)

func (t *Tool) tracer(inv *Invocation) trace.Tracer {
	if inv != nil && inv.Tracer != nil {
		return inv.Tracer
	}
	return globalTracer
}

// tracingOff reports whether no tracer can record: no tracer was given and
// the global provider is unconfigured.
func tracingOff(inv *Invocation) bool {
	return inv.Tracer == nil && tracing.Unconfigured()
}

// startSpan opens the span of one execution: "execute_tool <name>".
// Attributes are set only on recording spans, and with tracing off no span
// is made at all, so an unconfigured tracer costs next to nothing.
func (t *Tool) startSpan(ctx context.Context, inv *Invocation) (context.Context, trace.Span) {
	if tracingOff(inv) {
		return ctx, noSpan
	}
	name, spanName := t.id, t.spanName
	if inv.ToolName != "" && inv.ToolName != t.id {
		name, spanName = inv.ToolName, "execute_tool "+inv.ToolName
	}
	ctx, span := t.tracer(inv).Start(ctx, spanName)
	if span.IsRecording() {
		toolType := inv.ToolType
		if toolType == "" {
			toolType = t.toolType
		}
		span.SetAttributes(
			attribute.String(attrOperation, "execute_tool"),
			attribute.String(attrToolName, name),
			attribute.String(attrToolID, t.id),
			attribute.String(attrToolCallID, inv.ToolCallID),
			attribute.String(attrToolType, toolType),
			attribute.String(attrToolDesc, t.description),
		)
	}
	return ctx, span
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
