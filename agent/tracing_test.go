package agent

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

func TestRunModelAndToolSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}},
		mock.Step{Text: "3"},
	)
	a := newAgent(t, m, tools.Set{"add": addTool()}, func(c *Config) { c.Tracer = tp.Tracer("test") })
	if _, err := a.Generate(context.Background(), "1+2"); err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byName[s.Name()] = s
	}
	root, ok := byName["invoke_agent Calc"]
	if !ok {
		t.Fatalf("no run span among %d spans", len(spans))
	}
	for _, name := range []string{"chat mock-model-id", "execute_tool add"} {
		s, ok := byName[name]
		if !ok {
			t.Errorf("no %q span", name)
			continue
		}
		if s.Parent().SpanID() != root.SpanContext().SpanID() {
			t.Errorf("%q is not a child of the run span", name)
		}
	}
	if len(spans) != 4 {
		t.Errorf("%d spans, want 4 (run, two model calls, one tool)", len(spans))
	}
}
