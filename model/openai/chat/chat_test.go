package chat

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/openai/openai-go/v3"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

func newModel(t *testing.T, fs *providertest.Server, cfg Config) *Model {
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

func meta(kv ...any) model.ProviderMetadata {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return model.ProviderMetadata{"openai": m}
}

func TestStreamText(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{Headers: map[string]string{"X-Cfg": "c"}})
	req := &model.Request{
		Messages: []model.Message{model.System("Be brief."), model.UserText("Say hello")},
		Headers:  map[string]string{"X-Req": "r"},
	}
	parts, err := oaitest.Parts(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-AbC123", ModelID: "gpt-4o-mini-2024-07-18", Timestamp: oaitest.Time(1735689600)}},
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
	if d := cmp.Diff(wantBody, fs.JSONBody(t, 0)); d != "" {
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
	fs := providertest.New(t, providertest.Reply{Fixture: "tool_call.sse"})
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
			MaxOutputTokens: oaitest.Ptr(100), Temperature: oaitest.Ptr(0.5), TopP: oaitest.Ptr(0.9), TopK: oaitest.Ptr(3),
			PresencePenalty: oaitest.Ptr(0.1), FrequencyPenalty: oaitest.Ptr(0.2), StopSequences: []string{"END"}, Seed: oaitest.Ptr(7),
		},
		ProviderOptions: model.ProviderOptions{"openai": {"parallelToolCalls": false, "user": "u-1", "reasoningEffort": "low"}},
	}
	parts, err := oaitest.Parts(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	const id = "call_O17Uplv4lJvD6DVdIvFFeRMw"
	want := []model.StreamPart{
		{Type: model.PartStreamStart, Warnings: []model.Warning{
			{Type: "unsupported-setting", Setting: "topK"},
			{Type: "unsupported-tool", Details: "web_search"},
		}},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Tool01", ModelID: "gpt-4o-2024-08-06", Timestamp: oaitest.Time(1735689700)}},
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

	body := fs.JSONBody(t, 0)
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
		fs := providertest.New(t, providertest.Reply{Fixture: "text.sse"})
		m := newModel(t, fs, Config{})
		if _, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}, Tools: []model.ToolDefinition{tool}, ToolChoice: tc.choice}); err != nil {
			t.Fatal(err)
		}
		body := fs.JSONBody(t, 0)
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
	fs := providertest.New(t, providertest.Reply{Fixture: "parallel_tool_calls.sse"})
	m := newModel(t, fs, Config{})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("Weather and time in Paris?")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Par02", ModelID: "gpt-4o-2024-08-06", Timestamp: oaitest.Time(1735689800)}},
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
	fs := providertest.New(t, providertest.Reply{Fixture: "interleaved_tool_calls.sse"})
	m := newModel(t, fs, Config{Provider: "acme.chat"})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Int03", ModelID: "some-compatible-model", Timestamp: oaitest.Time(1735689900)}},
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
	fs := providertest.New(t, providertest.Reply{Fixture: "reasoning_usage.sse"})
	m := newModel(t, fs, Config{})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("?")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Rsn04", ModelID: "deepseek-reasoner", Timestamp: oaitest.Time(1735690000)}},
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
	fs := providertest.New(t, providertest.Reply{Status: 400, Fixture: "error_400.json"})
	m := newModel(t, fs, Config{})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if len(parts) != 0 {
		t.Errorf("parts before the error: %v", parts)
	}
	var e *openai.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *openai.Error", err, err)
	}
	if e.StatusCode != 400 || e.Type != "invalid_request_error" || e.Code != "invalid_value" || e.Param != "tool_choice" {
		t.Errorf("error fields: %+v", e)
	}
	wantMsg := "openai: HTTP 400 Bad Request: Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."
	if err.Error() != wantMsg {
		t.Errorf("message = %q, want %q", err.Error(), wantMsg)
	}
	var sdkErr *sdk.Error
	if !errors.As(err, &sdkErr) || sdkErr.StatusCode != 400 {
		t.Errorf("does not unwrap to the SDK's *openai.Error: %v", err)
	}
	if n := fs.Calls(); n != 1 {
		t.Errorf("%d requests, want 1 (400 is not retried)", n)
	}
}

func TestStreamRetries429(t *testing.T) {
	fs := providertest.New(t,
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
	if n := fs.Calls(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestStreamRetriesExhausted(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}})
	m := newModel(t, fs, Config{MaxRetries: oaitest.Ptr(1)})
	_, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *openai.Error
	if !errors.As(err, &e) || e.StatusCode != 429 || e.Code != "rate_limit_exceeded" {
		t.Fatalf("err = %v", err)
	}
	if n := fs.Calls(); n != 2 {
		t.Errorf("%d requests, want 2 (1 retry)", n)
	}
	// The request's MaxRetries overrides the config's.
	_, _ = oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}, Settings: model.CallSettings{MaxRetries: oaitest.Ptr(0)}})
	if n := fs.Calls(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

func TestStream401NotRetried(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Status: 401, Fixture: "error_401.json"}, providertest.Reply{Fixture: "text.sse"})
	m := newModel(t, fs, Config{})
	_, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *openai.Error
	if !errors.As(err, &e) || e.StatusCode != 401 || !strings.Contains(err.Error(), "Incorrect API key provided") {
		t.Fatalf("err = %v", err)
	}
	if n := fs.Calls(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestStreamMidStreamError(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "midstream_error.sse"})
	m := newModel(t, fs, Config{})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
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
	fs := providertest.New(t, providertest.Reply{Fixture: "text.sse"})
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
	fs := providertest.New(t, providertest.Reply{Fixture: "text.sse"})
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
	if _, err := oaitest.Parts(t, m, req); err != nil {
		t.Fatal(err)
	}
	body := fs.JSONBody(t, 0)
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
	if _, err := oaitest.Parts(t, m, req); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]any{"type": "json_object"}, fs.JSONBody(t, 1)["response_format"]); d != "" {
		t.Errorf("response_format (-want +got):\n%s", d)
	}

	// An unsupported file type is an error before any request.
	req = &model.Request{Messages: []model.Message{model.User(model.File("eA==", "application/zip", "a.zip"))}}
	if _, err := oaitest.Parts(t, m, req); err == nil || !strings.Contains(err.Error(), "application/zip") {
		t.Errorf("err = %v", err)
	}
	if n := fs.Calls(); n != 2 {
		t.Errorf("%d requests", n)
	}
}

func TestNew(t *testing.T) {
	if _, err := New("", Config{}); err == nil {
		t.Error("empty model id accepted")
	}
	if _, err := New("m", Config{BaseURL: "not a url"}); err == nil {
		t.Error("bad base URL accepted")
	}
	m, err := New("gpt-4o", Config{APIKey: "k"})
	if err != nil || m.Provider() != "openai.chat" || m.ModelID() != "gpt-4o" {
		t.Errorf("New: %v %v", m, err)
	}
	if m, err := New("grok-4", Config{BaseURL: "https://api.x.ai/v1", Provider: "xai.chat"}); err != nil || m.Provider() != "xai.chat" {
		t.Errorf("New with a provider: %v %v", m, err)
	}
}

func TestProviders(t *testing.T) {
	type entry struct {
		Name, APIKeyEnv, BaseURLEnv, DefaultBaseURL string
		KeyOptional                                 bool
	}
	var got []entry
	for _, p := range Providers() {
		got = append(got, entry{p.Name, p.APIKeyEnv, p.BaseURLEnv, p.DefaultBaseURL, p.KeyOptional})
		lm, err := p.New("some-model", "k", "http://127.0.0.1:1/v1", nil)
		if err != nil || lm.Provider() != p.Name+".chat" || lm.ModelID() != "some-model" {
			t.Errorf("%s: %v %v", p.Name, lm, err)
		}
		if lm, err := p.New("m", "k", "not a url", nil); err == nil || lm != nil {
			t.Errorf("%s: bad base URL: %v %v", p.Name, lm, err)
		}
	}
	want := []entry{
		{"xai", "XAI_API_KEY", "XAI_BASE_URL", "https://api.x.ai/v1", false},
		{"openrouter", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1", false},
		{"groq", "GROQ_API_KEY", "GROQ_BASE_URL", "https://api.groq.com/openai/v1", false},
		{"deepseek", "DEEPSEEK_API_KEY", "DEEPSEEK_BASE_URL", "https://api.deepseek.com/v1", false},
		{"ollama", "", "OLLAMA_BASE_URL", "http://localhost:11434/v1", true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}

// A router entry's model talks Chat Completions, sends the router's key
// and headers, and reads its provider's options key as well as "openai".
func TestProvidersThroughTheRouter(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "text.sse"})
	r := model.NewRouter(func(k string) string { return map[string]string{"XAI_API_KEY": "xai-key"}[k] }, Providers()...)
	m, err := r.Resolve(model.ModelConfig{ID: "xai/grok-4", URL: fs.URL + "/v1", Headers: map[string]string{"X-Cfg": "c"}})
	if err != nil {
		t.Fatal(err)
	}
	parts, err := oaitest.Parts(t, m, &model.Request{
		Messages:        []model.Message{model.UserText("x")},
		ProviderOptions: model.ProviderOptions{"openai": {"user": "u-openai", "store": true}, "xai": {"user": "u-xai"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if last := parts[len(parts)-1]; last.Type != model.PartFinish || last.ProviderMetadata["xai"] == nil {
		t.Errorf("finish part %+v", last)
	}
	req := fs.Requests()[0]
	if req.Path != "/v1/chat/completions" || req.Header.Get("Authorization") != "Bearer xai-key" || req.Header.Get("X-Cfg") != "c" {
		t.Errorf("request %s %v", req.Path, req.Header)
	}
	body := fs.JSONBody(t, 0)
	if body["model"] != "grok-4" || body["user"] != "u-xai" || body["store"] != true {
		t.Errorf("body %v", body)
	}
}

// The environment's OpenAI credentials never reach another endpoint;
// OpenAI itself gets the configured key and the environment's
// organization and project.
func TestEnvironmentCredentials(t *testing.T) {
	oaitest.Credentials(t, "text.sse", "/v1/chat/completions", func(baseURL, apiKey string, client *http.Client) (model.LanguageModel, error) {
		return New("gpt-4.1", Config{BaseURL: baseURL, APIKey: apiKey, HTTPClient: client})
	})
}
