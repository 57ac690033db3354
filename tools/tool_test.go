package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
)

type orderIn struct {
	Item     string   `json:"item" jsonschema:"what to order"`
	Quantity int      `json:"quantity"`
	Note     *string  `json:"note,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

type orderOut struct {
	ID    string `json:"id"`
	Total int    `json:"total"`
}

func newOrderTool(exec func(Context, orderIn) (orderOut, error)) *Tool {
	return New(Config[orderIn, orderOut]{ID: "order", Description: "Place an order", Execute: exec})
}

func TestTypedToolSchemasAreInferred(t *testing.T) {
	tool := newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, nil })
	got, err := json.Marshal(tool.InputSchema().JSONSchema())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"item":{"type":"string","description":"what to order"},"quantity":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"note":{"type":["null","string"]},"tags":{"type":"array","items":{"type":"string"}}},"required":["item","quantity"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("input schema\n got %s\nwant %s", got, want)
	}
	if tool.OutputSchema() == nil {
		t.Fatal("no output schema inferred")
	}
	if tool.IsClientTool() {
		t.Error("a tool with Execute is not a client tool")
	}
}

func TestExecuteTypedInput(t *testing.T) {
	var got orderIn
	tool := newOrderTool(func(_ Context, in orderIn) (orderOut, error) {
		got = in
		return orderOut{ID: "o-1", Total: in.Quantity * 3}, nil
	})
	tests := []struct {
		name, args string
		want       orderIn
		wantOut    string
	}{
		{"fast path", `{"item":"tea","quantity":2}`, orderIn{Item: "tea", Quantity: 2}, `{"id":"o-1","total":6}`},
		{"integer written as 2.0", `{"item":"tea","quantity":2.0}`, orderIn{Item: "tea", Quantity: 2}, `{"id":"o-1","total":6}`},
		{"optional null stripped", `{"item":"tea","quantity":1,"note":null,"tags":null}`, orderIn{Item: "tea", Quantity: 1}, `{"id":"o-1","total":3}`},
		{"stringified array coerced", `{"item":"tea","quantity":1,"tags":"[\"a\"]"}`, orderIn{Item: "tea", Quantity: 1, Tags: []string{"a"}}, `{"id":"o-1","total":3}`},
		{"unknown key stripped, not case-folded", `{"item":"tea","quantity":1,"Quantity":"x"}`, orderIn{Item: "tea", Quantity: 1}, `{"id":"o-1","total":3}`},
		{"escaped strings", `{"item":"t\u00e9","quantity":1}`, orderIn{Item: "té", Quantity: 1}, `{"id":"o-1","total":3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = orderIn{}
			res, err := tool.Execute(context.Background(), json.RawMessage(tt.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			if ve := res.ValidationError(); ve != nil {
				t.Fatal(ve.Message)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("input (-want +got):\n%s", d)
			}
			out, _ := res.JSON()
			if string(out) != tt.wantOut {
				t.Errorf("output %s, want %s", out, tt.wantOut)
			}
		})
	}
}

func TestExecuteInvalidInputIsAResult(t *testing.T) {
	ran := false
	tool := newOrderTool(func(Context, orderIn) (orderOut, error) { ran = true; return orderOut{}, nil })
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"item":5}`), &Invocation{ToolName: "orderTool"})
	if err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Fatal("Execute ran on invalid input")
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatal("want a ValidationError")
	}
	want := "Tool input validation failed for orderTool. Please fix the following errors and try again:\n" +
		"- item: Invalid input: expected string, received number\n" +
		"- quantity: Invalid input: expected number, received undefined\n\n" +
		"Provided arguments: {\n  \"item\": 5\n}"
	if ve.Message != want {
		t.Errorf("message\n got %q\nwant %q", ve.Message, want)
	}
	b, _ := ve.MarshalJSON()
	var back ValidationError
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Message != ve.Message || back.Errors.Field("item") == nil {
		t.Errorf("round trip lost data: %+v", back)
	}
	var generic map[string]any
	_ = json.Unmarshal(b, &generic)
	if !IsValidationError(generic) || !IsValidationError(ve) || IsValidationError(map[string]any{"error": true}) {
		t.Error("IsValidationError disagrees with Mastra's predicate")
	}
}

func TestFieldErrorsUseJavaScriptKeyOrder(t *testing.T) {
	issues := []schema.Issue{
		{Path: []string{"name"}, Message: "a"},
		{Path: []string{"items", "10", "qty"}, Message: "b"},
		{Path: []string{"items", "2"}, Message: "c"},
		{Path: []string{"3"}, Message: "d"},
		{Message: "root"},
	}
	b, _ := buildFieldErrors(issues).MarshalJSON()
	want := `{"errors":["root"],"fields":{"3":{"errors":["d"],"fields":{}},"name":{"errors":["a"],"fields":{}},"items":{"errors":[],"fields":{"2":{"errors":["c"],"fields":{}},"10":{"errors":[],"fields":{"qty":{"errors":["b"],"fields":{}}}}}}}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestExecuteErrors(t *testing.T) {
	boom := errors.New("boom")
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	tests := []struct {
		name string
		tool *Tool
		args string
		ctx  func() context.Context
		is   error
		as   any
	}{
		{"returned error", newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, boom }), `{"item":"a","quantity":1}`, context.Background, boom, nil},
		{"panic", newOrderTool(func(Context, orderIn) (orderOut, error) { panic("kaboom") }), `{"item":"a","quantity":1}`, context.Background, nil, new(*PanicError)},
		{"malformed JSON", newOrderTool(nil), `{"item":`, context.Background, ErrMalformedArguments, nil},
		{"trailing garbage", newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, nil }), `{"item":"a","quantity":1} x`, context.Background, ErrMalformedArguments, nil},
		{"client tool", New(Config[orderIn, orderOut]{ID: "client"}), `{}`, context.Background, ErrClientTool, nil},
		{"cancelled", newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, nil }), `{"item":"a","quantity":1}`, func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, context.Canceled, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tool == nil || (tt.name == "malformed JSON") {
				tt.tool = newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, nil })
			}
			res, err := tt.tool.Execute(tt.ctx(), json.RawMessage(tt.args), &Invocation{Logger: logger})
			if err == nil {
				t.Fatalf("want an error, got result %+v", res)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if tt.as != nil && !errors.As(err, tt.as) {
				t.Errorf("error %v is not a %T", err, tt.as)
			}
		})
	}
	if !strings.Contains(logs.String(), "kaboom") || !strings.Contains(logs.String(), "stack=") {
		t.Errorf("panic not logged with its stack: %s", logs.String())
	}
}

func TestContextCarriesTheInvocation(t *testing.T) {
	var outputs []any
	var customs []DataChunk
	var mu sync.Mutex
	w := WriterFunc{
		OnWrite:  func(d any) error { mu.Lock(); outputs = append(outputs, d); mu.Unlock(); return nil },
		OnCustom: func(c DataChunk) error { mu.Lock(); customs = append(customs, c); mu.Unlock(); return nil },
	}
	reg := &fakeRegistry{}
	var seen struct {
		callID, name, run string
		msgs              []any
		agent             *AgentInfo
		wf                *WorkflowInfo
		reg               Registry
		badCustom         error
	}
	tool := New(Config[struct{}, struct{}]{ID: "ctx-tool", Execute: func(ctx Context, _ struct{}) (struct{}, error) {
		seen.callID, seen.name, seen.run = ctx.ToolCallID(), ctx.ToolName(), ctx.RunID()
		seen.msgs, seen.agent, seen.wf, seen.reg = ctx.Messages(), ctx.Agent(), ctx.Workflow(), ctx.Mastra()
		_ = ctx.Writer().Write(map[string]any{"progress": 50})
		_ = ctx.Writer().Custom(DataChunk{Type: "data-progress", Data: 1})
		seen.badCustom = ctx.Writer().Custom(DataChunk{Type: "progress"})
		if ctx.Logger() == nil || ctx.RequestContext() == nil {
			t.Error("Logger and RequestContext must never be nil")
		}
		return struct{}{}, nil
	}})
	inv := &Invocation{
		ToolCallID: "call-1", ToolName: "ctxTool", RunID: "run-1", Messages: []any{"hi"},
		Writer: w, Agent: &AgentInfo{AgentID: "a"}, Workflow: &WorkflowInfo{WorkflowID: "w"}, Mastra: reg,
	}
	if _, err := tool.Execute(context.Background(), nil, inv); err != nil {
		t.Fatal(err)
	}
	if seen.callID != "call-1" || seen.name != "ctxTool" || seen.run != "run-1" || len(seen.msgs) != 1 ||
		seen.agent.AgentID != "a" || seen.wf.WorkflowID != "w" || seen.reg != reg {
		t.Errorf("context lost invocation fields: %+v", seen)
	}
	if len(outputs) != 1 || len(customs) != 1 || !errors.Is(seen.badCustom, ErrDataChunkType) {
		t.Errorf("writer: outputs %v customs %v badCustom %v", outputs, customs, seen.badCustom)
	}
	// A direct call discards writes and still gives a request context.
	if _, err := tool.Execute(context.Background(), json.RawMessage(`{}`), nil); err != nil {
		t.Fatal(err)
	}
}

type fakeRegistry struct{}

func (*fakeRegistry) GetTool(string) (*Tool, error)     { return nil, errors.New("none") }
func (*fakeRegistry) GetToolByID(string) (*Tool, error) { return nil, errors.New("none") }

type approvalReason struct {
	Reason string `json:"reason"`
}

type approvalAnswer struct {
	Approved bool `json:"approved"`
}

func TestSuspendAndResume(t *testing.T) {
	tool := New(Config[orderIn, orderOut]{
		ID:            "needs-ok",
		SuspendSchema: mustSchema[approvalReason](t),
		ResumeSchema:  mustSchema[approvalAnswer](t),
		Execute: func(ctx Context, in orderIn) (orderOut, error) {
			answer, ok, err := ResumeDataAs[approvalAnswer](ctx)
			if err != nil {
				return orderOut{}, err
			}
			if !ok {
				return orderOut{}, ctx.Suspend(approvalReason{Reason: "confirm " + in.Item}, WithResumeLabel("confirm"))
			}
			prev, _, _ := SuspendPayloadAs[approvalReason](ctx)
			if !answer.Approved {
				return orderOut{ID: "declined: " + prev.Reason}, nil
			}
			return orderOut{ID: "ok: " + prev.Reason, Total: in.Quantity}, nil
		},
	})
	args := json.RawMessage(`{"item":"tea","quantity":2}`)
	res, err := tool.Execute(context.Background(), args, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Suspended() || string(res.Suspension.Payload) != `{"reason":"confirm tea"}` || res.Suspension.Options.ResumeLabel[0] != "confirm" {
		t.Fatalf("want a suspension, got %+v", res)
	}
	// Resume: input validation is skipped, resume data validated.
	res, err = tool.Execute(context.Background(), args, &Invocation{ResumeData: json.RawMessage(`{"approved":"yes"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if ve := res.ValidationError(); ve == nil || !strings.HasPrefix(ve.Message, "Tool input validation failed for needs-ok") {
		t.Fatalf("want the resume data rejected, got %+v", res.Output)
	}
	res, err = tool.Execute(context.Background(), args, &Invocation{
		ResumeData: json.RawMessage(`{"approved":true}`), SuspendPayload: res.Suspension.payloadOrNil(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if out := res.Output.(orderOut); out.Total != 2 {
		t.Errorf("resumed output %+v", out)
	}
}

func (s *Suspension) payloadOrNil() json.RawMessage {
	if s == nil {
		return json.RawMessage(`{"reason":"confirm tea"}`)
	}
	return s.Payload
}

func TestSuspendPayloadValidated(t *testing.T) {
	tool := New(Config[struct{}, struct{}]{
		ID:            "bad-suspend",
		SuspendSchema: mustSchema[approvalReason](t),
		Execute: func(ctx Context, _ struct{}) (struct{}, error) {
			return struct{}{}, ctx.Suspend(map[string]any{"reason": 5})
		},
	})
	res, err := tool.Execute(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil || !strings.HasPrefix(ve.Message, "Tool suspension data validation failed for bad-suspend.") {
		t.Fatalf("want a suspension validation error, got %+v", res)
	}
}

func mustSchema[T any](t *testing.T) schema.Schema {
	t.Helper()
	s, err := schema.For[T]()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOutputValidationModes(t *testing.T) {
	outSchema, err := schema.FromJSON([]byte(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []OutputValidation{OutputStrict, OutputWarn} {
		t.Run(string(mode), func(t *testing.T) {
			var logs bytes.Buffer
			tool, err := NewDynamic(DynamicConfig{
				ID: "sum", OutputSchema: outSchema, OutputValidation: mode,
				Execute: func(Context, any) (any, error) { return map[string]any{"sum": "x"}, nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := tool.Execute(context.Background(), nil, &Invocation{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(logs.String(), "tool output validation failed") {
				t.Error("the failure was not logged")
			}
			if mode == OutputStrict {
				if ve := res.ValidationError(); ve == nil || !strings.HasPrefix(ve.Message, "Tool output validation failed for sum. The tool returned invalid output:") {
					t.Errorf("strict: want the ValidationError, got %+v", res.Output)
				}
				return
			}
			if out, _ := res.JSON(); string(out) != `{"sum":"x"}` {
				t.Errorf("warn: want the real output, got %s", out)
			}
		})
	}
	if _, err := NewDynamic(DynamicConfig{ID: "x", OutputValidation: "loose"}); err == nil {
		t.Error("an unknown OutputValidation must be rejected")
	}
}

func TestRequestContextSchemaAndView(t *testing.T) {
	rcSchema, err := schema.FromJSON([]byte(`{"type":"object","properties":{"userId":{"type":"string"},"tier":{"type":"string","enum":["free","pro"],"default":"free"}},"required":["userId"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var tier any
	var writeErr, goodWrite error
	tool, err := NewDynamic(DynamicConfig{
		ID: "rc", RequestContextSchema: rcSchema,
		Execute: func(ctx Context, _ any) (any, error) {
			tier, _ = ctx.RequestContext().Get("tier")
			writeErr = ctx.RequestContext().Set("tier", "gold")
			goodWrite = ctx.RequestContext().Set("tier", "pro")
			return "ok", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	source := NewRequestContext(map[string]any{"userId": "u1", "apiToken": "t"})
	if _, err := tool.Execute(context.Background(), nil, &Invocation{RequestContext: source}); err != nil {
		t.Fatal(err)
	}
	if tier != "free" {
		t.Errorf("the view should show the schema default, got %v", tier)
	}
	if writeErr == nil || !strings.Contains(writeErr.Error(), `Unable to persist request context key "tier"`) {
		t.Errorf("an invalid write must fail, got %v", writeErr)
	}
	if v, _ := source.Get("tier"); goodWrite != nil || v != "pro" {
		t.Errorf("a valid write must reach the caller's context: %v %v", goodWrite, v)
	}
	// Invalid context: a result, secrets redacted.
	res, err := tool.Execute(context.Background(), nil, &Invocation{RequestContext: NewRequestContext(map[string]any{"apiToken": "t"})})
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil || !strings.Contains(ve.Message, `"apiToken": "[REDACTED]"`) {
		t.Fatalf("want a redacted request-context error, got %+v", res.Output)
	}
	key := Key[string]{Name: "userId"}
	if v, ok := key.Get(source); !ok || v != "u1" {
		t.Errorf("typed key: %v %v", v, ok)
	}
	if _, ok := (Key[int]{Name: "userId"}).Get(source); ok {
		t.Error("a typed key of the wrong type must not match")
	}
	b, _ := json.Marshal(source)
	if string(b) != `{"apiToken":"t","userId":"u1","tier":"pro"}` {
		t.Errorf("request context JSON %s", b)
	}
}

func TestApprovalAndLifecycleCallbacks(t *testing.T) {
	var available orderIn
	var output any
	tool := New(Config[orderIn, orderOut]{
		ID: "approve",
		NeedsApproval: func(_ context.Context, in orderIn, _ *RequestContext) (bool, error) {
			return in.Quantity > 10, nil
		},
		OnInputAvailable: func(_ context.Context, e InputAvailableEvent[orderIn]) { available = e.Input },
		OnOutput:         func(_ context.Context, e OutputEvent) { output = e.Output },
		Execute:          func(Context, orderIn) (orderOut, error) { return orderOut{}, nil },
	})
	for _, tt := range []struct {
		qty  float64
		want bool
	}{{1, false}, {11, true}} {
		got, err := tool.NeedsApproval(context.Background(), map[string]any{"item": "x", "quantity": tt.qty}, nil)
		if err != nil || got != tt.want {
			t.Errorf("NeedsApproval(%v) = %v, %v", tt.qty, got, err)
		}
	}
	tool.InputAvailable(context.Background(), InputAvailableEvent[any]{Input: map[string]any{"item": "tea", "quantity": 3.0}})
	if available.Item != "tea" || available.Quantity != 3 {
		t.Errorf("OnInputAvailable got %+v", available)
	}
	tool.Output(context.Background(), OutputEvent{Output: orderOut{ID: "x"}})
	if output.(orderOut).ID != "x" {
		t.Errorf("OnOutput got %v", output)
	}
}

func TestModelOutputAndSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	tracer := tp.Tracer("test")
	tool := New(Config[orderIn, orderOut]{
		ID: "mapped",
		ToModelOutput: func(_ context.Context, out orderOut) (*model.ToolResultOutput, error) {
			if out.ID == "" {
				return nil, nil
			}
			o := model.ContentOutput(model.TextPart("order "+out.ID), model.ImageURLPart("data:image/png;base64,AAAA"))
			return &o, nil
		},
		Execute: func(Context, orderIn) (orderOut, error) { return orderOut{ID: "o-7", Total: 1}, nil },
	})
	inv := &Invocation{ToolCallID: "c-9", ToolName: "mappedTool", Tracer: tracer}
	ctx := context.Background()
	res, err := tool.Execute(ctx, json.RawMessage(`{"item":"a","quantity":1}`), inv)
	if err != nil {
		t.Fatal(err)
	}
	mo, err := tool.ModelOutput(ctx, "mappedTool", res.Output, inv)
	if err != nil || mo == nil {
		t.Fatalf("ModelOutput: %v %v", mo, err)
	}
	b, _ := json.Marshal(mo)
	if !strings.Contains(string(b), `"type":"media"`) {
		t.Errorf("the data URI image was not normalised to media: %s", b)
	}
	if mo, err := tool.ModelOutput(ctx, "", orderOut{}, inv); mo != nil || err != nil {
		t.Errorf("nil from ToModelOutput means the raw result: %v %v", mo, err)
	}
	if mo, _ := tool.ModelOutput(ctx, "", &ValidationError{}, inv); mo != nil {
		t.Error("validation errors are never mapped")
	}
	spans := rec.Ended()
	if len(spans) < 2 || spans[0].Name() != "execute_tool mappedTool" || spans[1].Name() != "tool_output_mapping mappedTool" {
		t.Fatalf("spans: %v", spanNames(spans))
	}
	attrs := map[attribute.Key]string{}
	for _, kv := range spans[0].Attributes() {
		attrs[kv.Key] = kv.Value.String()
	}
	if attrs[attrToolID] != "mapped" || attrs[attrToolCallID] != "c-9" || attrs[attrToolType] != "tool" || attrs[attrToolName] != "mappedTool" {
		t.Errorf("span attributes %v", attrs)
	}
}

func spanNames(spans []sdktrace.ReadOnlySpan) []string {
	var names []string
	for _, s := range spans {
		names = append(names, s.Name())
	}
	return names
}

func TestPrepareInputRunsBeforeValidation(t *testing.T) {
	var got orderIn
	tool := newOrderTool(func(_ Context, in orderIn) (orderOut, error) { got = in; return orderOut{}, nil })
	inv := &Invocation{PrepareInput: func(v any) any {
		m := v.(map[string]any)
		m["quantity"] = json.Number("4")
		return m
	}}
	if _, err := tool.Execute(context.Background(), json.RawMessage(`{"item":"a","quantity":null}`), inv); err != nil {
		t.Fatal(err)
	}
	if got.Quantity != 4 {
		t.Errorf("PrepareInput not applied: %+v", got)
	}
}

func TestGlobalTracerProviderIsHonoured(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	tool := newOrderTool(func(Context, orderIn) (orderOut, error) { return orderOut{}, nil })
	if _, err := tool.Execute(context.Background(), json.RawMessage(`{"item":"a","quantity":1}`), nil); err != nil {
		t.Fatal(err)
	}
	if names := spanNames(rec.Ended()); len(names) != 1 || names[0] != "execute_tool order" {
		t.Errorf("spans with a global provider: %v", names)
	}
}

func TestModelOutputPanicIsAnError(t *testing.T) {
	tool := New(Config[struct{}, orderOut]{
		ID:            "p",
		ToModelOutput: func(context.Context, orderOut) (*model.ToolResultOutput, error) { panic("no") },
		Execute:       func(Context, struct{}) (orderOut, error) { return orderOut{}, nil },
	})
	var pe *PanicError
	if _, err := tool.ModelOutput(context.Background(), "", orderOut{ID: "x"}, nil); !errors.As(err, &pe) {
		t.Errorf("want a *PanicError, got %v", err)
	}
}

func TestModelSchemaPerProvider(t *testing.T) {
	tool := newOrderTool(func(_ Context, in orderIn) (orderOut, error) { return orderOut{ID: in.Item}, nil })
	openai := tool.ModelSchema(compat.Model{Provider: "openai.responses", ModelID: "gpt-4o"})
	if openai.Layer != compat.NameOpenAI || openai.PrepareInput == nil {
		t.Fatalf("OpenAI layer not chosen: %+v", openai)
	}
	if got := openai.Schema.Required; len(got) != 4 {
		t.Errorf("OpenAI strict makes every property required, got %v", got)
	}
	if tool.ModelSchema(compat.Model{Provider: "openai.responses", ModelID: "gpt-4o"}) != openai {
		t.Error("the model schema is not cached")
	}
	// The OpenAI answer with nulls for optional fields validates after
	// PrepareInput maps them back to absent.
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"item":"tea","quantity":1,"note":null,"tags":null}`),
		&Invocation{PrepareInput: openai.PrepareInput})
	if err != nil || res.ValidationError() != nil {
		t.Fatalf("Execute: %v %+v", err, res)
	}
	anthropic := tool.ModelSchema(compat.Model{Provider: "anthropic.messages", ModelID: "claude-sonnet-4-5"})
	if anthropic.Layer != compat.NameAnthropic || anthropic.PrepareInput != nil {
		t.Errorf("Anthropic: %+v", anthropic)
	}
	off := false
	loose := New(Config[orderIn, orderOut]{ID: "loose", Strict: &off, Execute: func(Context, orderIn) (orderOut, error) { return orderOut{}, nil }})
	if ms := loose.ModelSchema(compat.Model{Provider: "openai.responses", ModelID: "gpt-4o"}); ms.Layer != "" || len(ms.Schema.Required) != 2 {
		t.Errorf("Strict false must opt out of compat rewriting: %+v", ms)
	}
}

func TestOutOfRangeIntegerIsAValidationError(t *testing.T) {
	type small struct {
		Big   int   `json:"big"`
		Small int8  `json:"small"`
		Count uint8 `json:"count"`
	}
	tool := New(Config[small, struct{}]{ID: "ints", Execute: func(Context, small) (struct{}, error) { return struct{}{}, nil }})
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"big":99999999999999999999,"small":300,"count":-1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil {
		t.Fatalf("want a validation error, got %+v", res.Output)
	}
	for _, want := range []string{
		"- big: Too big: expected int to be <=9007199254740991",
		"- small: Too big: expected number to be <=127",
		"- count: Too small: expected number to be >=0",
	} {
		if !strings.Contains(ve.Message, want) {
			t.Errorf("message lacks %q:\n%s", want, ve.Message)
		}
	}
}

// upperCaseSchema is a schema from "another library": it implements
// schema.Schema by hand (accepts objects whose "code" is upper case, and
// returns the value with the code trimmed).
type upperCaseSchema struct{}

func (upperCaseSchema) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"code": {Type: "string"}}, Required: []string{"code"}}
}

func (upperCaseSchema) Validate(v any) (any, []schema.Issue) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, []schema.Issue{{Code: "invalid_type", Message: "Invalid input: expected object"}}
	}
	code, _ := m["code"].(string)
	if code == "" || strings.ToUpper(code) != code {
		return nil, []schema.Issue{{Code: "custom", Path: []string{"code"}, Message: "must be upper case"}}
	}
	return map[string]any{"code": strings.TrimSpace(code)}, nil
}

func TestSchemaFromAnotherLibrary(t *testing.T) {
	var got any
	tool, err := NewDynamic(DynamicConfig{ID: "codes", InputSchema: upperCaseSchema{}, Execute: func(_ Context, in any) (any, error) {
		got = in
		return "ok", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"code":" AB "}`), nil)
	if err != nil || res.ValidationError() != nil {
		t.Fatalf("valid input: %v %+v", err, res)
	}
	if d := cmp.Diff(map[string]any{"code": "AB"}, got); d != "" {
		t.Errorf("Execute must receive the schema's output (-want +got):\n%s", d)
	}
	res, _ = tool.Execute(context.Background(), json.RawMessage(`{"code":"ab"}`), nil)
	if ve := res.ValidationError(); ve == nil || !strings.Contains(ve.Message, "- code: must be upper case") {
		t.Errorf("want the library's issue in Mastra's message, got %+v", res.Output)
	}
	// A missing input becomes {} because the schema says "object".
	res, _ = tool.Execute(context.Background(), nil, nil)
	if ve := res.ValidationError(); ve == nil || !strings.Contains(ve.Message, "Provided arguments: [Unable to serialize data]") {
		t.Errorf("absent input: %+v", res.Output)
	}
}
