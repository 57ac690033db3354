package agent

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/gomastra/mastra/internal/tracing"
)

// TracerName is the instrumentation scope of the agent's spans.
const TracerName = "github.com/gomastra/mastra/agent"

var globalTracer = otel.Tracer(TracerName)

// tracer returns the tracer of a run, or nil when nothing can record (no
// tracer configured and the global provider still OpenTelemetry's
// default), so an untraced run makes no spans.
func (a *Agent) tracer() trace.Tracer {
	if a.cfg.Tracer != nil {
		return a.cfg.Tracer
	}
	if tracing.Unconfigured() {
		return nil
	}
	return globalTracer
}

// startRunSpan opens "invoke_agent <name>" (GenAI semantic conventions).
func (r *run) startRunSpan() trace.Span {
	t := r.agent.tracer()
	if t == nil {
		return noop.Span{}
	}
	name := r.agent.cfg.Name
	if name == "" {
		name = r.agent.cfg.ID
	}
	ctx, span := t.Start(r.ctx, "invoke_agent "+name, trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.id", r.agent.cfg.ID),
		attribute.String("gen_ai.agent.name", name),
		attribute.String("mastra.run.id", r.opts.runID),
	))
	r.ctx = ctx
	return span
}

// startModelSpan opens "chat <model>" for one model call.
func (r *run) startModelSpan() (context.Context, trace.Span) {
	t := r.agent.tracer()
	if t == nil {
		return r.ctx, noop.Span{}
	}
	m := r.models.step
	return t.Start(r.ctx, "chat "+m.ModelID(), trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.provider.name", m.Provider()),
		attribute.String("gen_ai.request.model", m.ModelID()),
	))
}

// endModelSpan closes a model call's span with its outcome.
func endModelSpan(span trace.Span, a *assembled) {
	if a.err != nil {
		span.RecordError(a.err)
		span.SetStatus(codes.Error, a.err.Error())
	} else if span.IsRecording() {
		span.SetAttributes(
			attribute.StringSlice("gen_ai.response.finish_reasons", []string{a.step.Reason}),
			attribute.Int("gen_ai.usage.input_tokens", a.step.Usage.InputTokens),
			attribute.Int("gen_ai.usage.output_tokens", a.step.Usage.OutputTokens),
		)
	}
	span.End()
}
