package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// The expectations below were captured from Mastra 1.71 with the anchor's
// scripted models (script: testdata/mastra/capture-structured.mjs): the
// model calls add, then answers with the JSON in these deltas.

var weatherSchema = schema.MustCompile(mustSchemaJSON(`{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}},"required":["city","temp"]}`))

func mustSchemaJSON(s string) *jsonschema.Schema {
	c, err := schema.FromJSON([]byte(s))
	if err != nil {
		panic(err)
	}
	return c.JSONSchema()
}

func weatherRun(answer ...string) *mock.Model {
	return mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}},
		mock.Step{TextChunks: answer},
	)
}

func weatherAgent(t *testing.T, m *mock.Model) *Agent {
	return newAgent(t, m, tools.Set{"add": addTool()}, func(c *Config) { c.Instructions = "You are a weather agent." })
}

func objects(chunks []stream.Chunk) []any {
	var out []any
	for _, c := range chunks {
		if c.IsObject() {
			out = append(out, map[string]any{c.Type: c.Object})
		}
	}
	return out
}

func TestStructuredOutputFromTheAgentsModel(t *testing.T) {
	m := weatherRun(`{"city": `, `"Paris", `, `"temp": `, `21}`)
	out, err := weatherAgent(t, m).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema}))
	if err != nil {
		t.Fatal(err)
	}
	want := "start step-start tool-call-input-streaming-start tool-call-delta tool-call-input-streaming-end tool-call tool-result step-finish " +
		"step-start text-start object text-delta object text-delta text-delta object text-delta text-end object-result step-finish finish"
	if got := strings.Join(types(out.Chunks), " "); got != want {
		t.Errorf("chunks:\n got %s\nwant %s", got, want)
	}
	paris := map[string]any{"city": "Paris", "temp": float64(21)}
	wantObjects := []any{
		map[string]any{"object": map[string]any{}}, map[string]any{"object": map[string]any{"city": "Paris"}},
		map[string]any{"object": paris}, map[string]any{"object-result": paris},
	}
	if d := cmp.Diff(wantObjects, objects(out.Chunks)); d != "" {
		t.Errorf("object chunks (-want +got):\n%s", d)
	}
	if d := cmp.Diff(any(paris), out.Object); d != "" || out.UsedFallbackValue || out.Text != `{"city": "Paris", "temp": 21}` {
		t.Errorf("output: object %v, fallback %v, text %q", out.Object, out.UsedFallbackValue, out.Text)
	}
	for i, req := range m.Calls() {
		if req.ResponseFormat == nil || req.ResponseFormat.Type != "json" || len(req.Tools) != 1 {
			t.Fatalf("call %d: the schema goes with the tools on every step: %+v", i, req.ResponseFormat)
		}
		raw, _ := json.Marshal(req.ResponseFormat.Schema)
		var got any
		_ = json.Unmarshal(raw, &got)
		wantSchema := map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false,
			"properties": map[string]any{"city": map[string]any{"type": "string"}, "temp": map[string]any{"type": "number"}}, "required": []any{"city", "temp"}}
		if d := cmp.Diff(any(wantSchema), got); d != "" {
			t.Errorf("response format schema (-mastra +go):\n%s", d)
		}
	}
	finish := out.Chunks[len(out.Chunks)-1].Payload.(stream.FinishPayload)
	stepFinish := out.Chunks[len(out.Chunks)-2].Payload.(stream.FinishPayload)
	firstStepFinish := out.Chunks[7].Payload.(stream.FinishPayload)
	if finish.Output.Object == nil || stepFinish.Output.Object == nil || firstStepFinish.Output.Object != nil {
		t.Errorf("output.object belongs to the answer's step-finish and the finish only")
	}
}

func TestStructuredOutputFindsFencedJSON(t *testing.T) {
	m := weatherRun("Here ", "you ", "go:\n```json\n{\"city\": ", `"Paris", `, `"temp": `, "21}\n```")
	out, err := weatherAgent(t, m).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(any(map[string]any{"city": "Paris", "temp": float64(21)}), out.Object); d != "" {
		t.Errorf("object (-want +got):\n%s", d)
	}
}

func TestStructuredOutputErrorStrategies(t *testing.T) {
	fallback := map[string]any{"city": "unknown", "temp": float64(0)}
	run := func(strategy ErrorStrategy, answer ...string) (*Output, error) {
		return weatherAgent(t, weatherRun(answer...)).Generate(context.Background(), "Weather in Paris?",
			WithStructuredOutput(StructuredOutput{Schema: weatherSchema, ErrorStrategy: strategy, FallbackValue: fallback}))
	}

	out, err := run("", `{"city": `, `"Paris"}`)
	var runErr *RunError
	if !errors.As(err, &runErr) || out.FinishReason != model.FinishError {
		t.Fatalf("strict: err %v, reason %s", err, out.FinishReason)
	}
	want := &RunError{
		Message: "Structured output validation failed: - temp: Invalid input: expected number, received undefined",
		Domain:  "AGENT", Category: "SYSTEM", ID: "STRUCTURED_OUTPUT_SCHEMA_VALIDATION_FAILED", Details: map[string]any{"value": `{"city":"Paris"}`},
	}
	if d := cmp.Diff(want, runErr); d != "" {
		t.Errorf("strict error (-mastra +go):\n%s", d)
	}
	wantTypes := "text-start object text-delta object text-delta text-end error step-finish finish"
	if got := strings.Join(types(out.Chunks[9:]), " "); got != wantTypes {
		t.Errorf("strict chunks: got %s, want %s", got, wantTypes)
	}
	if out.Steps[1].FinishReason != model.FinishError || out.Object != nil {
		t.Errorf("strict: step reason %s, object %v", out.Steps[1].FinishReason, out.Object)
	}

	_, err = run(StrictErrors, "It is warm.")
	if !errors.As(err, &runErr) || !strings.HasPrefix(runErr.Message, "Structured output validation failed: - root: ") {
		t.Errorf("not JSON: %v", err)
	}

	out, err = run(WarnErrors, `{"city": "Paris"}`)
	if err != nil || out.Object != nil || out.FinishReason != model.FinishStop || len(objects(out.Chunks)) != 1 {
		t.Errorf("warn: err %v, object %v, reason %s, objects %v", err, out.Object, out.FinishReason, objects(out.Chunks))
	}

	out, err = run(FallbackErrors, "not json at all")
	if err != nil || !out.UsedFallbackValue || out.FinishReason != model.FinishStop {
		t.Fatalf("fallback: err %v, fallback %v, reason %s", err, out.UsedFallbackValue, out.FinishReason)
	}
	last := out.Chunks[len(out.Chunks)-3]
	if last.Type != stream.TypeObjectResult || !cmp.Equal(last.Metadata, map[string]any{"fallback": true}) || !cmp.Equal(out.Object, any(fallback)) {
		t.Errorf("fallback object-result: %+v", last)
	}
}

func TestStructuredOutputThroughThePrompt(t *testing.T) {
	// Mastra's text has the keys in Zod's order (type, properties,
	// required); ours in compat.Marshal's. $schema and
	// additionalProperties come last in both.
	schemaText := `{"type":"object","required":["city","temp"],"properties":{"city":{"type":"string"},"temp":{"type":"number"}},"$schema":"http://json-schema.org/draft-07/schema#","additionalProperties":false}`
	m := weatherRun(`{"city": "Paris", "temp": 21}`)
	out, err := weatherAgent(t, m).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema, JSONPromptInjection: InjectSystem}))
	if err != nil || out.Object == nil {
		t.Fatalf("system injection: %v, %v", err, out.Object)
	}
	req := m.Calls()[1]
	wantSystem := "You are a weather agent.\n\nJSON schema:\n" + schemaText + "\nYou MUST answer with a JSON object that matches the JSON schema above."
	if req.ResponseFormat != nil || req.Messages[0].TextContent() != wantSystem {
		t.Errorf("system injection: format %v, system %q", req.ResponseFormat, req.Messages[0].TextContent())
	}

	m = weatherRun(`{"city": "Paris", "temp": 21}`)
	if _, err := weatherAgent(t, m).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema, JSONPromptInjection: InjectInline})); err != nil {
		t.Fatal(err)
	}
	user := m.Calls()[0].Messages[1]
	wantInline := "Return your response as JSON matching this schema:\n\n" + schemaText + "\n\nReturn only valid JSON. Do not include markdown or explanatory text."
	if len(user.Content) != 2 || user.Content[1].Text != wantInline || m.Calls()[0].ResponseFormat != nil {
		t.Errorf("inline injection: %+v", user.Content)
	}
}

func TestStructuredOutputWithAStructuringModel(t *testing.T) {
	main := weatherRun("It is warm in Paris.")
	structurer := mock.New(mock.Step{TextChunks: []string{`{"city": `, `"Paris", `, `"temp": 21}`}}).WithID("mock-provider", "structurer-mock")
	out, err := weatherAgent(t, main).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema, Model: structurer}))
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(out.Object, any(map[string]any{"city": "Paris", "temp": float64(21)})) || out.Text != "It is warm in Paris." {
		t.Errorf("object %v, text %q", out.Object, out.Text)
	}
	system := main.Calls()[0].Messages[0].TextContent()
	if !strings.HasPrefix(system, "You are a weather agent.\n\nYour response will be processed by another agent to extract structured data.") ||
		main.Calls()[0].ResponseFormat != nil {
		t.Errorf("main model's system prompt: %q", system)
	}
	sreq := structurer.Calls()[0]
	wantPrompt := "Extract and structure the key information from the following text according to the specified schema. Keep the original meaning and details. Rely on the provided text and conversation history.\n\n" +
		"# Tool Calls\n## add\n### Input: {\"a\":2,\"b\":3}\n### Output: \n\n# Tool Results\nadd: {\n  \"sum\": 5\n}\n\n# Assistant Response\nIt is warm in Paris."
	if got := sreq.Messages[1].TextContent(); got != wantPrompt {
		t.Errorf("structuring prompt:\n got %q\nwant %q", got, wantPrompt)
	}
	if sreq.ResponseFormat == nil || !strings.HasPrefix(sreq.Messages[0].TextContent(), "You are a data structuring specialist.") {
		t.Errorf("structuring call: %+v", sreq)
	}
	var fromStructurer int
	for _, c := range out.Chunks {
		if c.IsObject() && c.Metadata["from"] == "structured-output" && c.RunID != out.RunID {
			fromStructurer++
		}
	}
	if fromStructurer != 4 {
		t.Errorf("%d object chunks from the structurer, want 4 (3 partial, 1 result): %v", fromStructurer, objects(out.Chunks))
	}

	failing := mock.New(mock.Step{Text: `{"city": "Paris"}`})
	out, err = weatherAgent(t, weatherRun("It is warm in Paris.")).Generate(context.Background(), "Weather in Paris?", WithStructuredOutput(StructuredOutput{Schema: weatherSchema, Model: failing}))
	if err != nil || out.FinishReason != model.FinishTripwire || out.Tripwire == nil || out.Object != nil {
		t.Fatalf("strict structuring failure: err %v, reason %s, tripwire %+v", err, out.FinishReason, out.Tripwire)
	}
	if want := "[StructuredOutputProcessor] Structuring failed: Structured output validation failed: - temp: Invalid input: expected number, received undefined"; out.Tripwire.Reason != want || out.Tripwire.ProcessorID != "structured-output" || !out.Tripwire.Retry {
		t.Errorf("tripwire: %+v", out.Tripwire)
	}
}

func TestGenerateObjectDecodesTheAnswer(t *testing.T) {
	type forecast struct {
		City string   `json:"city"`
		Temp float64  `json:"temp"`
		Tags []string `json:"tags"`
	}
	m := weatherRun(`{"city":"Paris","temp":21.5,"tags":["sunny"]}`)
	got, out, err := GenerateObject[forecast](context.Background(), weatherAgent(t, m), "Weather in Paris?", StructuredOutput{})
	if err != nil {
		t.Fatal(err)
	}
	if got.City != "Paris" || got.Temp != 21.5 || len(got.Tags) != 1 || out.FinishReason != model.FinishStop {
		t.Errorf("decoded %+v", got)
	}
}

func TestStructuredArraysAreWrapped(t *testing.T) {
	list := schema.MustCompile(mustSchemaJSON(`{"type":"array","items":{"type":"string"}}`))
	m := mock.New(mock.Step{TextChunks: []string{`{"elements": ["a", `, `"b"]}`}})
	out, err := newAgent(t, m, nil).Generate(context.Background(), "list", WithStructuredOutput(StructuredOutput{Schema: list}))
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(out.Object, any([]any{"a", "b"})) {
		t.Errorf("object %v", out.Object)
	}
	props := m.Calls()[0].ResponseFormat.Schema.Properties
	if props["elements"] == nil || props["elements"].Type != "array" {
		t.Errorf("the model is asked for {elements: [...]}: %+v", m.Calls()[0].ResponseFormat.Schema)
	}
}

func TestPreprocessJSONText(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                 `{"a":1}`,
		"```json\n{\"a\":1}\n```": `{"a":1}`,
		"Sure! 5\" screen: {\"a\":\"}{\"} and {\"b\":2}": `{"b":2}`,
		"x<|message|>{\"a\":1}":                          `{"a":1}`,
		"{\"a\":\"line\nbreak\ttab\"}":                   `{"a":"line\nbreak\ttab"}`,
		"[1,2]":                                          "[1,2]",
	} {
		if got := preprocessJSONText(in); got != want {
			t.Errorf("preprocessJSONText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStructuredOutputErrorListsTheFirstIssues: an object with more issues
// than schema.MaxIssues gets an error listing the first ones and a line
// saying the rest were left out, not one line per issue.
func TestStructuredOutputErrorListsTheFirstIssues(t *testing.T) {
	listSchema := schema.MustFromJSON([]byte(`{"type":"object","properties":{"list":{"type":"array","items":{"type":"number"}}},"required":["list"]}`))
	answer := `{"list":[` + strings.TrimSuffix(strings.Repeat(`"x",`, 5000), ",") + `]}`
	_, err := weatherAgent(t, weatherRun(answer)).Generate(context.Background(), "List?", WithStructuredOutput(StructuredOutput{Schema: listSchema}))
	var runErr *RunError
	if !errors.As(err, &runErr) {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(runErr.Message, "\n")
	if len(lines) != schema.MaxIssues+1 || lines[len(lines)-1] != tools.LeftOutLine || !strings.HasPrefix(lines[99], "- list.99: ") {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
