package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/openai/openai-go/v3"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// fakeServer is a local OpenAI API (see package providertest).
type fakeServer struct{ *providertest.Server }

func newFakeServer(t *testing.T, replies ...providertest.Reply) *fakeServer {
	t.Helper()
	return &fakeServer{providertest.New(t, replies...)}
}

func (fs *fakeServer) requests() int { return fs.Calls() }

// body returns request i's JSON body decoded.
func (fs *fakeServer) body(t *testing.T, i int) map[string]any { return fs.JSONBody(t, i) }

func newModel(t *testing.T, fs *fakeServer, cfg Config) *Model {
	t.Helper()
	cfg.BaseURL = fs.URL + "/v1"
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	m, err := New("gpt-4o-mini", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func collect(t *testing.T, m model.LanguageModel, req *model.Request) ([]model.StreamPart, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var parts []model.StreamPart
	for p, err := range m.Stream(ctx, req) {
		if err != nil {
			return parts, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

func ts(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func meta(kv ...any) model.ProviderMetadata {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return model.ProviderMetadata{"openai": m}
}

func TestStreamText(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{Headers: map[string]string{"X-Cfg": "c"}})
	req := &model.Request{
		Messages: []model.Message{model.System("Be brief."), model.UserText("Say hello")},
		Headers:  map[string]string{"X-Req": "r"},
	}
	parts, err := collect(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-AbC123", ModelID: "gpt-4o-mini-2024-07-18", Timestamp: ts(1735689600)}},
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: ""},
		{Type: model.PartTextDelta, ID: "0", Delta: "Hello"},
		{Type: model.PartTextDelta, ID: "0", Delta: ", world"},
		{Type: model.PartTextDelta, ID: "0", Delta: "!"},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartFinish, FinishReason: model.FinishStop, RawFinishReason: "stop",
			Usage:            model.Usage{InputTokens: 19, OutputTokens: 4, TotalTokens: 23},
			ProviderMetadata: meta("acceptedPredictionTokens", 0, "rejectedPredictionTokens", 0)},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}

	if fs.Requests()[0].Path != "/v1/chat/completions" {
		t.Errorf("path = %q", fs.Requests()[0].Path)
	}
	h := fs.Requests()[0].Header
	if h.Get("Authorization") != "Bearer test-key" || h.Get("X-Cfg") != "c" || h.Get("X-Req") != "r" {
		t.Errorf("headers: auth %q X-Cfg %q X-Req %q", h.Get("Authorization"), h.Get("X-Cfg"), h.Get("X-Req"))
	}
	wantBody := map[string]any{
		"model":          "gpt-4o-mini",
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
		"messages": []any{
			map[string]any{"role": "system", "content": "Be brief."},
			map[string]any{"role": "user", "content": "Say hello"},
		},
	}
	if d := cmp.Diff(wantBody, fs.body(t, 0)); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}

	resp, err := model.CollectStream(m.Stream(context.Background(), req))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello, world!" || resp.FinishReason != model.FinishStop {
		t.Errorf("collected %q %q", resp.Text, resp.FinishReason)
	}
}

func TestStreamToolCall(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "tool_call.sse"})
	m := newModel(t, fs, Config{})
	strict := true
	schema := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"city": {Type: "string"},
			"unit": {Type: "string", Enum: []any{"c", "f"}},
		},
		Required:             []string{"city", "unit"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	req := &model.Request{
		Messages: []model.Message{
			model.UserText("Weather in Paris?"),
			model.Assistant(model.Text("Let me check."), model.ToolCall("call_prev", "get_weather", json.RawMessage(`{ "city": "Lyon", "unit": "c" }`))),
			model.ToolMessage(model.ToolResultPart{ToolCallID: "call_prev", ToolName: "get_weather", Output: model.JSONOutput(map[string]any{"temp": 21})}),
			model.ToolMessage(
				model.ToolResultPart{ToolCallID: "call_t", ToolName: "t", Output: model.TextOutput("sunny")},
				model.ToolResultPart{ToolCallID: "call_c", ToolName: "c", Output: model.ContentOutput(model.TextPart("hi"))},
				model.ToolResultPart{ToolCallID: "call_d", ToolName: "d", Output: model.ExecutionDeniedOutput("")},
			),
		},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "get_weather", Description: "Get the weather", InputSchema: schema, Strict: &strict},
			{Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "openai.web_search"},
		},
		ToolChoice: model.ToolChoiceTool("get_weather"),
		Settings: model.CallSettings{
			MaxOutputTokens: ptr(100), Temperature: ptr(0.5), TopP: ptr(0.9), TopK: ptr(3),
			PresencePenalty: ptr(0.1), FrequencyPenalty: ptr(0.2), StopSequences: []string{"END"}, Seed: ptr(7),
		},
		ProviderOptions: model.ProviderOptions{"openai": {"parallelToolCalls": false, "user": "u-1", "reasoningEffort": "low"}},
	}
	parts, err := collect(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	const id = "call_O17Uplv4lJvD6DVdIvFFeRMw"
	want := []model.StreamPart{
		{Type: model.PartStreamStart, Warnings: []model.Warning{
			{Type: "unsupported-setting", Setting: "topK"},
			{Type: "unsupported-tool", Details: "web_search"},
		}},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Tool01", ModelID: "gpt-4o-2024-08-06", Timestamp: ts(1735689700)}},
		{Type: model.PartToolInputStart, ID: id, ToolName: "get_weather"},
		{Type: model.PartToolInputDelta, ID: id, Delta: `{"`},
		{Type: model.PartToolInputDelta, ID: id, Delta: `city`},
		{Type: model.PartToolInputDelta, ID: id, Delta: `":"`},
		{Type: model.PartToolInputDelta, ID: id, Delta: `Paris`},
		{Type: model.PartToolInputDelta, ID: id, Delta: `","unit`},
		{Type: model.PartToolInputDelta, ID: id, Delta: `":"c"}`},
		{Type: model.PartToolInputEnd, ID: id},
		{Type: model.PartToolCall, ToolCallID: id, ToolName: "get_weather", Input: `{"city":"Paris","unit":"c"}`},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_calls",
			Usage:            model.Usage{InputTokens: 81, OutputTokens: 18, TotalTokens: 99, CachedInputTokens: 64},
			ProviderMetadata: meta("acceptedPredictionTokens", 0, "rejectedPredictionTokens", 0)},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}

	body := fs.body(t, 0)
	wantMessages := []any{
		map[string]any{"role": "user", "content": "Weather in Paris?"},
		map[string]any{"role": "assistant", "content": "Let me check.", "tool_calls": []any{
			map[string]any{"id": "call_prev", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city":"Lyon","unit":"c"}`}},
		}},
		map[string]any{"role": "tool", "tool_call_id": "call_prev", "content": `{"temp":21}`},
		map[string]any{"role": "tool", "tool_call_id": "call_t", "content": "sunny"},
		map[string]any{"role": "tool", "tool_call_id": "call_c", "content": `[{"type":"text","text":"hi"}]`},
		map[string]any{"role": "tool", "tool_call_id": "call_d", "content": "Tool execution denied."},
	}
	if d := cmp.Diff(wantMessages, body["messages"]); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	wantTools := []any{map[string]any{"type": "function", "function": map[string]any{
		"name": "get_weather", "description": "Get the weather", "strict": true,
		"parameters": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"city": map[string]any{"type": "string"},
				"unit": map[string]any{"type": "string", "enum": []any{"c", "f"}},
			},
			"required":             []any{"city", "unit"},
			"additionalProperties": false,
		},
	}}}
	if d := cmp.Diff(wantTools, body["tools"]); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"type": "function", "function": map[string]any{"name": "get_weather"}}, body["tool_choice"]); d != "" {
		t.Errorf("tool_choice (-want +got):\n%s", d)
	}
	for k, v := range map[string]any{
		"max_tokens": 100.0, "temperature": 0.5, "top_p": 0.9, "presence_penalty": 0.1, "frequency_penalty": 0.2,
		"stop": []any{"END"}, "seed": 7.0, "parallel_tool_calls": false, "user": "u-1", "reasoning_effort": "low",
	} {
		if d := cmp.Diff(v, body[k]); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}
	if _, ok := body["top_k"]; ok {
		t.Error("top_k sent")
	}
}

func ptr[T any](v T) *T { return &v }

func TestToolChoices(t *testing.T) {
	tool := model.ToolDefinition{Type: model.ToolTypeFunction, Name: "f"}
	for _, tc := range []struct {
		choice model.ToolChoice
		want   any
	}{
		{model.ToolChoice{}, nil},
		{model.ToolChoiceAuto, "auto"},
		{model.ToolChoiceNone, "none"},
		{model.ToolChoiceRequired, "required"},
	} {
		fs := newFakeServer(t, providertest.Reply{Fixture: "text.sse"})
		m := newModel(t, fs, Config{})
		if _, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}, Tools: []model.ToolDefinition{tool}, ToolChoice: tc.choice}); err != nil {
			t.Fatal(err)
		}
		body := fs.body(t, 0)
		if d := cmp.Diff(tc.want, body["tool_choice"]); d != "" {
			t.Errorf("%v: tool_choice (-want +got):\n%s", tc.choice, d)
		}
		// A tool without a schema gets an empty object schema.
		want := map[string]any{"type": "object", "properties": map[string]any{}}
		got := body["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)["parameters"]
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("parameters (-want +got):\n%s", d)
		}
	}
}

func TestStreamParallelToolCalls(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "parallel_tool_calls.sse"})
	m := newModel(t, fs, Config{})
	parts, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("Weather and time in Paris?")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Par02", ModelID: "gpt-4o-2024-08-06", Timestamp: ts(1735689800)}},
		{Type: model.PartToolInputStart, ID: "call_aaa111", ToolName: "get_weather"},
		{Type: model.PartToolInputDelta, ID: "call_aaa111", Delta: `{"city": `},
		{Type: model.PartToolInputDelta, ID: "call_aaa111", Delta: `"Paris"}`},
		{Type: model.PartToolInputEnd, ID: "call_aaa111"},
		{Type: model.PartToolCall, ToolCallID: "call_aaa111", ToolName: "get_weather", Input: `{"city": "Paris"}`},
		{Type: model.PartToolInputStart, ID: "call_bbb222", ToolName: "get_time"},
		{Type: model.PartToolInputDelta, ID: "call_bbb222", Delta: `{"zone": `},
		{Type: model.PartToolInputDelta, ID: "call_bbb222", Delta: `"Europe/Paris"}`},
		{Type: model.PartToolInputEnd, ID: "call_bbb222"},
		{Type: model.PartToolCall, ToolCallID: "call_bbb222", ToolName: "get_time", Input: `{"zone": "Europe/Paris"}`},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_calls",
			Usage:            model.Usage{InputTokens: 120, OutputTokens: 40, TotalTokens: 160},
			ProviderMetadata: meta("acceptedPredictionTokens", 0, "rejectedPredictionTokens", 0)},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
}

// Calls whose arguments interleave by index; the one still incomplete at
// the end is finished at flush.
func TestStreamInterleavedToolCalls(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "interleaved_tool_calls.sse"})
	m := newModel(t, fs, Config{Provider: "acme.chat"})
	parts, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Int03", ModelID: "some-compatible-model", Timestamp: ts(1735689900)}},
		{Type: model.PartToolInputStart, ID: "call_x", ToolName: "a"},
		{Type: model.PartToolInputDelta, ID: "call_x", Delta: `{"n":`},
		{Type: model.PartToolInputStart, ID: "call_y", ToolName: "b"},
		{Type: model.PartToolInputDelta, ID: "call_y", Delta: `{"m":`},
		{Type: model.PartToolInputDelta, ID: "call_y", Delta: `2}`},
		{Type: model.PartToolInputEnd, ID: "call_y"},
		{Type: model.PartToolCall, ToolCallID: "call_y", ToolName: "b", Input: `{"m":2}`},
		{Type: model.PartToolInputDelta, ID: "call_x", Delta: `1`},
		{Type: model.PartToolInputEnd, ID: "call_x"},
		{Type: model.PartToolCall, ToolCallID: "call_x", ToolName: "a", Input: `{"n":1`},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_calls",
			ProviderMetadata: model.ProviderMetadata{"acme": {}}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	if m.Provider() != "acme.chat" || m.ModelID() != "gpt-4o-mini" {
		t.Errorf("Provider %q ModelID %q", m.Provider(), m.ModelID())
	}
}

func TestStreamReasoningAndUsage(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "reasoning_usage.sse"})
	m := newModel(t, fs, Config{})
	parts, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("?")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Rsn04", ModelID: "deepseek-reasoner", Timestamp: ts(1735690000)}},
		{Type: model.PartReasoningStart, ID: "reasoning-0"},
		{Type: model.PartReasoningDelta, ID: "reasoning-0", Delta: "Think"},
		{Type: model.PartReasoningDelta, ID: "reasoning-0", Delta: "ing."},
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "42"},
		{Type: model.PartTextDelta, ID: "0", Delta: ""},
		{Type: model.PartReasoningEnd, ID: "reasoning-0"},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartFinish, FinishReason: model.FinishLength, RawFinishReason: "length",
			Usage:            model.Usage{InputTokens: 30, OutputTokens: 50, TotalTokens: 80, ReasoningTokens: 40, CachedInputTokens: 12},
			ProviderMetadata: meta("acceptedPredictionTokens", 3, "rejectedPredictionTokens", 1)},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
}

func TestStreamHTTPError(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Status: 400, Fixture: "error_400.json"})
	m := newModel(t, fs, Config{})
	parts, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if len(parts) != 0 {
		t.Errorf("parts before the error: %v", parts)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	if e.StatusCode != 400 || e.Type != "invalid_request_error" || e.Code != "invalid_value" || e.Param != "tool_choice" {
		t.Errorf("error fields: %+v", e)
	}
	wantMsg := "openai: HTTP 400 Bad Request: Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."
	if err.Error() != wantMsg {
		t.Errorf("message = %q, want %q", err.Error(), wantMsg)
	}
	var sdkErr *openai.Error
	if !errors.As(err, &sdkErr) || sdkErr.StatusCode != 400 {
		t.Errorf("does not unwrap to *openai.Error: %v", err)
	}
	if n := fs.requests(); n != 1 {
		t.Errorf("%d requests, want 1 (400 is not retried)", n)
	}
}

func TestStreamRetries429(t *testing.T) {
	fs := newFakeServer(t,
		providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}},
		providertest.Reply{Fixture: "text.sse"},
	)
	m := newModel(t, fs, Config{})
	resp, err := model.Collect(context.Background(), m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello, world!" {
		t.Errorf("text = %q", resp.Text)
	}
	if n := fs.requests(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestStreamRetriesExhausted(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}})
	m := newModel(t, fs, Config{MaxRetries: ptr(1)})
	_, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 429 || e.Code != "rate_limit_exceeded" {
		t.Fatalf("err = %v", err)
	}
	if n := fs.requests(); n != 2 {
		t.Errorf("%d requests, want 2 (1 retry)", n)
	}
	// The request's MaxRetries overrides the config's.
	_, _ = collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}, Settings: model.CallSettings{MaxRetries: ptr(0)}})
	if n := fs.requests(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestStream401NotRetried(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Status: 401, Fixture: "error_401.json"}, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{})
	_, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 401 || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Fatalf("err = %v", err)
	}
	if n := fs.requests(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestStreamMidStreamError(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "midstream_error.sse"})
	m := newModel(t, fs, Config{})
	parts, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 5 {
		t.Fatalf("parts: %+v", parts)
	}
	last := parts[len(parts)-1]
	if last.Type != model.PartError || last.Err == nil || !strings.Contains(last.Err.Error(), "The server had an error") {
		t.Errorf("last part = %+v", last)
	}
	if d := cmp.Diff(model.StreamPart{Type: model.PartTextDelta, ID: "0", Delta: "Hel"}, parts[3]); d != "" {
		t.Errorf("part 3 (-want +got):\n%s", d)
	}
}

func TestStreamStopsWhenConsumerStops(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{})
	n := 0
	for range m.Stream(context.Background(), &model.Request{Messages: []model.Message{model.UserText("x")}}) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("n = %d", n)
	}
}

func TestRequestMapping(t *testing.T) {
	fs := newFakeServer(t, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{})
	req := &model.Request{
		Messages: []model.Message{
			model.User(
				model.Text("What is in these?"),
				model.Image("https://example.com/cat.png", "image/png"),
				model.Part{Type: model.MessageImage, Data: "aGVsbG8=", MediaType: "image/png", ProviderOptions: model.ProviderOptions{"openai": {"imageDetail": "low"}}},
				model.File("JVBERi0=", "application/pdf", "doc.pdf"),
				model.File("UklGRg==", "audio/wav", ""),
			),
		},
		ResponseFormat: &model.ResponseFormat{Type: "json", Name: "answer", Description: "The answer", Schema: &jsonschema.Schema{Type: "object"}},
	}
	if _, err := collect(t, m, req); err != nil {
		t.Fatal(err)
	}
	body := fs.body(t, 0)
	wantMessages := []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "What is in these?"},
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": "https://example.com/cat.png"}},
		map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,aGVsbG8=", "detail": "low"}},
		map[string]any{"type": "file", "file": map[string]any{"filename": "doc.pdf", "file_data": "data:application/pdf;base64,JVBERi0="}},
		map[string]any{"type": "input_audio", "input_audio": map[string]any{"data": "UklGRg==", "format": "wav"}},
	}}}
	if d := cmp.Diff(wantMessages, body["messages"]); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	wantRF := map[string]any{"type": "json_schema", "json_schema": map[string]any{
		"name": "answer", "description": "The answer", "schema": map[string]any{"type": "object"},
	}}
	if d := cmp.Diff(wantRF, body["response_format"]); d != "" {
		t.Errorf("response_format (-want +got):\n%s", d)
	}
	if _, ok := body["tools"]; ok {
		t.Error("tools sent without tools")
	}

	// JSON without a schema is json_object.
	req = &model.Request{Messages: []model.Message{model.UserText("x")}, ResponseFormat: &model.ResponseFormat{Type: "json"}}
	if _, err := collect(t, m, req); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"type": "json_object"}, fs.body(t, 1)["response_format"]); d != "" {
		t.Errorf("response_format (-want +got):\n%s", d)
	}

	// An unsupported file type is an error before any request.
	req = &model.Request{Messages: []model.Message{model.User(model.File("eA==", "application/zip", "a.zip"))}}
	if _, err := collect(t, m, req); err == nil || !strings.Contains(err.Error(), "application/zip") {
		t.Errorf("err = %v", err)
	}
	if n := fs.requests(); n != 2 {
		t.Errorf("%d requests", n)
	}
}

func TestNew(t *testing.T) {
	if _, err := New("", Config{}); err == nil {
		t.Error("empty model id accepted")
	}
	if _, err := New("m", Config{API: "bogus"}); err == nil {
		t.Error("bogus API accepted")
	}
	if _, err := New("m", Config{BaseURL: "not a url"}); err == nil {
		t.Error("bad base URL accepted")
	}
	m, err := New("gpt-4o", Config{APIKey: "k"})
	if err != nil || m.Provider() != "openai.responses" || m.ModelID() != "gpt-4o" {
		t.Errorf("New: %v %v", m, err)
	}
	if m, err := New("gpt-4o", Config{API: "chat"}); err != nil || m.Provider() != "openai.chat" {
		t.Errorf("New chat: %v %v", m, err)
	}
	lm, err := Constructor("grok-4", "k", "https://api.x.ai/v1", map[string]string{"X": "y"})
	if err != nil || lm.ModelID() != "grok-4" || lm.Provider() != "openai.chat" {
		t.Errorf("Constructor: %v %v", lm, err)
	}
}

// The SDK's environment defaults must not leak OpenAI credentials to
// another endpoint.
func TestNoEnvironmentKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	t.Setenv("OPENAI_PROJECT_ID", "proj-env")
	fs := newFakeServer(t, providertest.Reply{Fixture: "text.sse"})
	m, err := New("llama3.2", Config{BaseURL: fs.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	h := fs.Requests()[0].Header
	for _, k := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project"} {
		if v := h.Get(k); v != "" {
			t.Errorf("%s: %q sent", k, v)
		}
	}
}
