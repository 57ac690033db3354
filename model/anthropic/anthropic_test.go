package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// reply is one canned response of the fake server.
type reply = providertest.Reply

// fakeServer is a local Messages API (see package providertest).
type fakeServer struct{ *providertest.Server }

func sse(_ *testing.T, name string) reply { return reply{Fixture: name} }

func newFakeServer(t *testing.T, replies ...reply) *fakeServer {
	return &fakeServer{providertest.New(t, replies...)}
}

func (f *fakeServer) model(t *testing.T, retries int) *Model {
	t.Helper()
	m, err := New("claude-test-1", Config{
		APIKey: "test-key", BaseURL: f.URL, HTTPClient: f.Client(),
		MaxRetries: &retries, Headers: map[string]string{"X-Config-Header": "cfg"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (f *fakeServer) calls() int { return f.Calls() }

// body returns request i's JSON, decoded.
func (f *fakeServer) body(t *testing.T, i int) map[string]any { return f.JSONBody(t, i) }

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func drain(t *testing.T, m model.LanguageModel, req *model.Request) ([]model.StreamPart, error) {
	t.Helper()
	var parts []model.StreamPart
	for p, err := range m.Stream(context.Background(), req) {
		if err != nil {
			return parts, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

var partOpts = cmp.Options{cmpopts.IgnoreFields(model.StreamPart{}, "Err"), cmpopts.EquateEmpty()}

func finishMeta(cacheCreate int, stopSeq any) model.ProviderMetadata {
	return model.ProviderMetadata{"anthropic": {"cacheCreationInputTokens": cacheCreate, "stopSequence": stopSeq}}
}

func meta(id string) model.StreamPart {
	return model.StreamPart{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: id, ModelID: "claude-test-1"}}
}

func TestText(t *testing.T) {
	f := newFakeServer(t, sse(t, "text.sse"))
	m := f.model(t, 0)
	temp, topK, maxTok := 0.5, 3, 100
	parts, err := drain(t, m, &model.Request{
		Messages: []model.Message{
			model.System("You are terse."),
			model.System("Answer in English."),
			model.UserText("Say hello."),
		},
		Settings: model.CallSettings{Temperature: &temp, TopK: &topK, MaxOutputTokens: &maxTok, StopSequences: []string{"END"}},
		Headers:  map[string]string{"X-Call-Header": "call"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("msg_text01"),
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "Hello"},
		{Type: model.PartTextDelta, ID: "0", Delta: ", world!"},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartFinish, FinishReason: model.FinishStop, RawFinishReason: "end_turn",
			Usage:            model.Usage{InputTokens: 25, OutputTokens: 12, TotalTokens: 37, CachedInputTokens: 5},
			ProviderMetadata: finishMeta(0, nil)},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	wantBody := decode(t, `{
		"model": "claude-test-1",
		"max_tokens": 100,
		"stream": true,
		"temperature": 0.5,
		"top_k": 3,
		"stop_sequences": ["END"],
		"system": [{"type":"text","text":"You are terse."},{"type":"text","text":"Answer in English."}],
		"messages": [{"role":"user","content":[{"type":"text","text":"Say hello."}]}]
	}`)
	if d := cmp.Diff(wantBody, f.body(t, 0)); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
	if r := f.Requests()[0]; r.Method != "POST" || r.Path != "/v1/messages" {
		t.Errorf("request %s %s, want POST /v1/messages", r.Method, r.Path)
	}
	h := f.Requests()[0].Header
	for k, v := range map[string]string{"Authorization": "Bearer test-key", "X-Config-Header": "cfg", "X-Call-Header": "call"} {
		if got := h.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	if h.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}

	r, err := model.CollectStream(m.Stream(context.Background(), &model.Request{Messages: []model.Message{model.UserText("hi")}}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Hello, world!" || r.FinishReason != model.FinishStop {
		t.Errorf("collected %q %s", r.Text, r.FinishReason)
	}
	if got := f.body(t, 1)["max_tokens"]; got != float64(DefaultMaxTokens) {
		t.Errorf("default max_tokens = %v", got)
	}
}

func weatherSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"location": {Type: "string", Description: "City"},
			"unit":     {Type: "string", Enum: []any{"c", "f"}},
		},
		Required:             []string{"location"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

func TestToolUse(t *testing.T) {
	f := newFakeServer(t, sse(t, "tool_use.sse"))
	m := f.model(t, 0)
	parts, err := drain(t, m, &model.Request{
		Messages: []model.Message{model.UserText("Weather in Paris?")},
		Tools: []model.ToolDefinition{{
			Type: model.ToolTypeFunction, Name: "weather", Description: "Get the weather",
			InputSchema:     weatherSchema(),
			ProviderOptions: model.ProviderOptions{"anthropic": {"cacheControl": map[string]any{"type": "ephemeral"}}},
		}},
		ToolChoice: model.ToolChoiceRequired,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("msg_tool01"),
		{Type: model.PartToolInputStart, ID: "toolu_01", ToolName: "weather"},
		{Type: model.PartToolInputDelta, ID: "toolu_01", Delta: `{"loc`},
		{Type: model.PartToolInputDelta, ID: "toolu_01", Delta: `ation": "Pa`},
		{Type: model.PartToolInputDelta, ID: "toolu_01", Delta: `ris", "unit`},
		{Type: model.PartToolInputDelta, ID: "toolu_01", Delta: `": "c"}`},
		{Type: model.PartToolInputEnd, ID: "toolu_01"},
		{Type: model.PartToolCall, ToolCallID: "toolu_01", ToolName: "weather", Input: `{"location": "Paris", "unit": "c"}`},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_use",
			Usage: model.Usage{InputTokens: 100, OutputTokens: 30, TotalTokens: 130}, ProviderMetadata: finishMeta(0, nil)},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	wantBody := decode(t, `{
		"model": "claude-test-1",
		"max_tokens": 4096,
		"stream": true,
		"messages": [{"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]}],
		"tools": [{
			"name": "weather",
			"description": "Get the weather",
			"cache_control": {"type":"ephemeral"},
			"input_schema": {
				"type": "object",
				"properties": {
					"location": {"type":"string","description":"City"},
					"unit": {"type":"string","enum":["c","f"]}
				},
				"required": ["location"],
				"additionalProperties": false
			}
		}],
		"tool_choice": {"type":"any"}
	}`)
	if d := cmp.Diff(wantBody, f.body(t, 0)); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestTextThenTwoTools(t *testing.T) {
	f := newFakeServer(t, sse(t, "text_two_tools.sse"))
	m := f.model(t, 0)
	parts, err := drain(t, m, &model.Request{
		Messages: []model.Message{
			model.System("sys"),
			model.UserText("Weather in Oslo, and the time?"),
			model.Assistant(model.Text("Let me look."), model.ToolCall("toolu_0", "weather", json.RawMessage(`{"location":"Bergen"}`))),
			model.ToolMessage(
				model.ToolResultPart{ToolCallID: "toolu_0", ToolName: "weather", Output: model.JSONOutput(map[string]any{"temp": 7})},
			),
			model.ToolMessage(
				model.ToolResultPart{ToolCallID: "toolu_x", ToolName: "time", Output: model.ErrorTextOutput("clock broken")},
				model.ToolResultPart{ToolCallID: "toolu_y", ToolName: "photo", Output: model.ContentOutput(
					model.TextPart("a photo"), model.ImageDataPart([]byte("png"), "image/png"))},
			),
			model.UserText("Go on."),
		},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "weather", InputSchema: weatherSchema()},
			{Type: model.ToolTypeFunction, Name: "time"},
		},
		ToolChoice:      model.ToolChoiceTool("weather"),
		ProviderOptions: model.ProviderOptions{"anthropic": {"disableParallelToolUse": true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("msg_multi01"),
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "Checking both."},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartToolInputStart, ID: "toolu_a", ToolName: "weather"},
		{Type: model.PartToolInputDelta, ID: "toolu_a", Delta: `{"location":`},
		{Type: model.PartToolInputDelta, ID: "toolu_a", Delta: `"Oslo"}`},
		{Type: model.PartToolInputEnd, ID: "toolu_a"},
		{Type: model.PartToolCall, ToolCallID: "toolu_a", ToolName: "weather", Input: `{"location":"Oslo"}`},
		{Type: model.PartToolInputStart, ID: "toolu_b", ToolName: "time"},
		{Type: model.PartToolInputEnd, ID: "toolu_b"},
		{Type: model.PartToolCall, ToolCallID: "toolu_b", ToolName: "time", Input: `{}`},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_use",
			Usage: model.Usage{InputTokens: 200, OutputTokens: 40, TotalTokens: 240}, ProviderMetadata: finishMeta(50, nil)},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	wantBody := decode(t, `{
		"model": "claude-test-1",
		"max_tokens": 4096,
		"stream": true,
		"system": [{"type":"text","text":"sys"}],
		"messages": [
			{"role":"user","content":[{"type":"text","text":"Weather in Oslo, and the time?"}]},
			{"role":"assistant","content":[
				{"type":"text","text":"Let me look."},
				{"type":"tool_use","id":"toolu_0","name":"weather","input":{"location":"Bergen"}}
			]},
			{"role":"user","content":[
				{"type":"tool_result","tool_use_id":"toolu_0","content":[{"type":"text","text":"{\"temp\":7}"}]},
				{"type":"tool_result","tool_use_id":"toolu_x","is_error":true,"content":[{"type":"text","text":"clock broken"}]},
				{"type":"tool_result","tool_use_id":"toolu_y","content":[
					{"type":"text","text":"a photo"},
					{"type":"image","source":{"type":"base64","media_type":"image/png","data":"cG5n"}}
				]},
				{"type":"text","text":"Go on."}
			]}
		],
		"tools": [
			{"name":"weather","input_schema":{
				"type": "object",
				"properties": {
					"location": {"type":"string","description":"City"},
					"unit": {"type":"string","enum":["c","f"]}
				},
				"required": ["location"],
				"additionalProperties": false
			}},
			{"name":"time","input_schema":{"type":"object","properties":{}}}
		],
		"tool_choice": {"type":"tool","name":"weather","disable_parallel_tool_use":true}
	}`)
	if d := cmp.Diff(wantBody, f.body(t, 0)); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestToolChoiceNoneAndImages(t *testing.T) {
	f := newFakeServer(t, sse(t, "text.sse"))
	m := f.model(t, 0)
	_, err := drain(t, m, &model.Request{
		Messages: []model.Message{model.User(
			model.Image("https://example.invalid/cat.png", "image/png"),
			model.Image("data:image/gif;base64,R0lG", ""),
			model.File("JVBERg==", "application/pdf", "doc.pdf"),
		)},
		Tools:      []model.ToolDefinition{{Type: model.ToolTypeFunction, Name: "t"}},
		ToolChoice: model.ToolChoiceNone,
	})
	if err != nil {
		t.Fatal(err)
	}
	b := f.body(t, 0)
	if d := cmp.Diff(map[string]any{"type": "none"}, b["tool_choice"]); d != "" {
		t.Errorf("tool_choice (-want +got):\n%s", d)
	}
	wantMsgs := decode(t, `{"m":[{"role":"user","content":[
		{"type":"image","source":{"type":"url","url":"https://example.invalid/cat.png"}},
		{"type":"image","source":{"type":"base64","media_type":"image/gif","data":"R0lG"}},
		{"type":"document","title":"doc.pdf","source":{"type":"base64","media_type":"application/pdf","data":"JVBERg=="}}
	]}]}`)["m"]
	if d := cmp.Diff(wantMsgs, b["messages"]); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
}

func TestOverloadedMidStream(t *testing.T) {
	f := newFakeServer(t, sse(t, "overloaded.sse"))
	m := f.model(t, 2)
	parts, err := drain(t, m, &model.Request{Messages: []model.Message{model.UserText("hi")}})
	if err != nil {
		t.Fatalf("error %v; want an error part", err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("msg_over01"),
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "Partial"},
		{Type: model.PartError},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Fatalf("parts (-want +got):\n%s", d)
	}
	var ae *APIError
	if !errors.As(parts[len(parts)-1].Err, &ae) {
		t.Fatalf("error part %v is not an *APIError", parts[len(parts)-1].Err)
	}
	if ae.Type != "overloaded_error" || ae.Message != "Overloaded" {
		t.Errorf("APIError %+v", ae)
	}
	if !strings.Contains(ae.Error(), "overloaded_error") {
		t.Errorf("Error() = %q", ae.Error())
	}
	if n := f.calls(); n != 1 {
		t.Errorf("%d calls; a mid-stream error is not retried", n)
	}
}

func TestHTTP400NotRetried(t *testing.T) {
	f := newFakeServer(t, reply{Status: 400, Headers: map[string]string{"Request-Id": "req_test400"}, Fixture: "error_400.json"})
	m := f.model(t, 3)
	parts, err := drain(t, m, &model.Request{Messages: []model.Message{model.UserText("hi")}})
	if err == nil {
		t.Fatalf("no error; parts %v", parts)
	}
	if len(parts) != 0 {
		t.Errorf("parts before the error: %v", parts)
	}
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("%v (%T) is not an *APIError", err, err)
	}
	if ae.StatusCode != 400 || ae.Type != "invalid_request_error" || ae.Message != "max_tokens: must be greater than or equal to 1" {
		t.Errorf("APIError %+v", ae)
	}
	for _, s := range []string{"400", "invalid_request_error", "max_tokens: must be"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	if n := f.calls(); n != 1 {
		t.Errorf("%d calls; a 400 must not be retried", n)
	}
}

func TestRetry429(t *testing.T) {
	f := newFakeServer(t,
		reply{Status: 429, Headers: map[string]string{"Retry-After": "0"},
			Body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`},
		sse(t, "text.sse"),
	)
	m := f.model(t, 2)
	r, err := model.Collect(context.Background(), m, &model.Request{Messages: []model.Message{model.UserText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Hello, world!" {
		t.Errorf("text %q", r.Text)
	}
	if n := f.calls(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
	if d := cmp.Diff(f.body(t, 0), f.body(t, 1)); d != "" {
		t.Errorf("retried body differs:\n%s", d)
	}

	// With retries off, the 429 is returned.
	f2 := newFakeServer(t, reply{Status: 429, Headers: map[string]string{"Retry-After": "0"},
		Body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`})
	_, err = drain(t, f2.model(t, 0), &model.Request{Messages: []model.Message{model.UserText("hi")}})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 429 || ae.Type != "rate_limit_error" {
		t.Errorf("err %v", err)
	}
}

func TestStopEarlyAndCancel(t *testing.T) {
	f := newFakeServer(t, sse(t, "text.sse"))
	m := f.model(t, 0)
	n := 0
	for range m.Stream(context.Background(), &model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		n++
		if n == 2 {
			break
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var gotErr error
	for _, err := range m.Stream(ctx, &model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		if err != nil {
			gotErr = err
		}
	}
	if !errors.Is(gotErr, context.Canceled) {
		t.Errorf("cancelled stream: %v", gotErr)
	}
}

func TestNewAndProviders(t *testing.T) {
	if _, err := New("", Config{}); err == nil {
		t.Error("empty model id accepted")
	}
	ps := Providers()
	if len(ps) != 1 || ps[0].Name != "anthropic" || ps[0].APIKeyEnv != "ANTHROPIC_API_KEY" || ps[0].BaseURLEnv != "ANTHROPIC_BASE_URL" || ps[0].KeyOptional {
		t.Fatalf("entries %+v", ps)
	}
	if lm, err := ps[0].New("", "k", "", nil); err == nil || lm != nil {
		t.Errorf("empty model id: %v %v", lm, err)
	}
	lm, err := ps[0].New("claude-x", "k", "http://127.0.0.1:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lm.Provider() != "anthropic.messages" || lm.ModelID() != "claude-x" {
		t.Errorf("%s %s", lm.Provider(), lm.ModelID())
	}
}

func TestStopReasons(t *testing.T) {
	for raw, want := range map[string]model.FinishReason{
		"end_turn": model.FinishStop, "stop_sequence": model.FinishStop, "max_tokens": model.FinishLength,
		"tool_use": model.FinishToolCalls, "refusal": model.FinishContentFilter, "something_new": model.FinishOther,
	} {
		if got := mapStopReason(raw); got != want {
			t.Errorf("%s -> %s, want %s", raw, got, want)
		}
	}
}

func TestThinking(t *testing.T) {
	f := newFakeServer(t, sse(t, "thinking.sse"))
	m := f.model(t, 0)
	temp, seed, maxTok := 0.2, 7, 100
	parts, err := drain(t, m, &model.Request{
		Messages: []model.Message{
			model.UserText("Answer?"),
			model.Assistant(
				model.Part{Type: model.MessageReasoning, Text: "earlier thought",
					ProviderOptions: model.ProviderOptions{"anthropic": {"signature": "c2ln"}}},
				model.Reasoning("unsigned thought, dropped"),
				model.Part{Type: model.MessageReasoning,
					ProviderOptions: model.ProviderOptions{"anthropic": {"redactedData": "cmVk"}}},
				model.Text("Earlier answer."),
			),
			{Role: model.RoleUser, Content: []model.Part{model.Text("Again?")},
				ProviderOptions: model.ProviderOptions{"anthropic": {"cacheControl": map[string]any{"type": "ephemeral", "ttl": "1h"}}}},
		},
		Settings: model.CallSettings{Temperature: &temp, Seed: &seed, MaxOutputTokens: &maxTok},
		ProviderOptions: model.ProviderOptions{"anthropic": {
			"thinking": map[string]any{"type": "enabled", "budgetTokens": 1000},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart, Warnings: []model.Warning{
			{Type: "unsupported-setting", Setting: "temperature", Details: "temperature is not supported when thinking is enabled"},
			{Type: "unsupported-setting", Setting: "seed"},
		}},
		meta("msg_think01"),
		{Type: model.PartReasoningStart, ID: "0"},
		{Type: model.PartReasoningDelta, ID: "0", Delta: "Let me think"},
		{Type: model.PartReasoningDelta, ID: "0", Delta: " about it."},
		{Type: model.PartReasoningDelta, ID: "0", ProviderMetadata: model.ProviderMetadata{"anthropic": {"signature": "c2lnLTE="}}},
		{Type: model.PartReasoningEnd, ID: "0"},
		{Type: model.PartReasoningStart, ID: "1", ProviderMetadata: model.ProviderMetadata{"anthropic": {"redactedData": "cmVkYWN0ZWQ="}}},
		{Type: model.PartReasoningEnd, ID: "1"},
		{Type: model.PartTextStart, ID: "2"},
		{Type: model.PartTextDelta, ID: "2", Delta: "42"},
		{Type: model.PartTextEnd, ID: "2"},
		{Type: model.PartFinish, FinishReason: model.FinishStop, RawFinishReason: "stop_sequence",
			Usage: model.Usage{InputTokens: 40, OutputTokens: 20, TotalTokens: 60}, ProviderMetadata: finishMeta(0, "END")},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	wantBody := decode(t, `{
		"model": "claude-test-1",
		"max_tokens": 1100,
		"stream": true,
		"thinking": {"type":"enabled","budget_tokens":1000},
		"messages": [
			{"role":"user","content":[{"type":"text","text":"Answer?"}]},
			{"role":"assistant","content":[
				{"type":"thinking","thinking":"earlier thought","signature":"c2ln"},
				{"type":"redacted_thinking","data":"cmVk"},
				{"type":"text","text":"Earlier answer."}
			]},
			{"role":"user","content":[{"type":"text","text":"Again?","cache_control":{"type":"ephemeral","ttl":"1h"}}]}
		]
	}`)
	if d := cmp.Diff(wantBody, f.body(t, 0)); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestRequestErrors(t *testing.T) {
	f := newFakeServer(t, sse(t, "text.sse"))
	m := f.model(t, 0)
	for name, req := range map[string]*model.Request{
		"late system": {Messages: []model.Message{model.UserText("a"), model.System("b")}},
		"bad input":   {Messages: []model.Message{model.Assistant(model.ToolCall("1", "t", json.RawMessage("{")))}},
		"bad choice":  {Messages: []model.Message{model.UserText("a")}, Tools: []model.ToolDefinition{{Type: "function", Name: "t"}}, ToolChoice: model.ToolChoice{Type: "maybe"}},
		"no budget":   {Messages: []model.Message{model.UserText("a")}, ProviderOptions: model.ProviderOptions{"anthropic": {"thinking": map[string]any{"type": "enabled"}}}},
		"file type":   {Messages: []model.Message{model.User(model.File("AAAA", "application/zip", "x.zip"))}},
	} {
		if _, err := drain(t, m, req); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := f.calls(); n != 0 {
		t.Errorf("%d requests sent for invalid prompts", n)
	}
}

// Anthropic's own web search: the server tool in the request, its call
// and result as provider-executed parts, each result a url source.
func TestWebSearch(t *testing.T) {
	f := newFakeServer(t, sse(t, "web_search.sse"))
	m := f.model(t, 0)
	parts, err := drain(t, m, &model.Request{
		Messages: []model.Message{model.UserText("Weather in Lisbon?")},
		Tools:    []model.ToolDefinition{{Type: model.ToolTypeProviderDefined, ID: "anthropic.web_search_20250305", Name: "web_search", Args: map[string]any{"maxUses": 3}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	result := []map[string]any{{"url": "https://weather.example/lisbon", "title": "Lisbon weather", "pageAge": "November 29, 2026", "encryptedContent": "EqgfCioIARgB", "type": "web_search_result"}}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("msg_ws01"),
		{Type: model.PartToolInputStart, ID: "srvtoolu_01", ToolName: "web_search", ProviderExecuted: true},
		{Type: model.PartToolInputDelta, ID: "srvtoolu_01", Delta: `{"query": "weather Lisbon"}`},
		{Type: model.PartToolInputEnd, ID: "srvtoolu_01"},
		{Type: model.PartToolCall, ToolCallID: "srvtoolu_01", ToolName: "web_search", Input: `{"query": "weather Lisbon"}`, ProviderExecuted: true},
		{Type: model.PartToolResult, ToolCallID: "srvtoolu_01", ToolName: "web_search", ProviderExecuted: true, Result: result},
		{Type: model.PartSource, Source: &model.Source{SourceType: "url", ID: "srvtoolu_01-0", URL: "https://weather.example/lisbon", Title: "Lisbon weather"},
			ProviderMetadata: model.ProviderMetadata{"anthropic": {"pageAge": "November 29, 2026"}}},
		{Type: model.PartTextStart, ID: "2"},
		{Type: model.PartTextDelta, ID: "2", Delta: "Sunny in Lisbon."},
		{Type: model.PartTextEnd, ID: "2"},
		{Type: model.PartFinish, FinishReason: model.FinishStop, RawFinishReason: "end_turn",
			Usage: model.Usage{InputTokens: 200, OutputTokens: 40, TotalTokens: 240}, ProviderMetadata: finishMeta(0, nil)},
	}
	if d := cmp.Diff(want, parts, partOpts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	tools := f.body(t, 0)["tools"]
	if d := cmp.Diff([]any{map[string]any{"type": "web_search_20250305", "name": "web_search", "max_uses": float64(3)}}, tools); d != "" {
		t.Errorf("request tools (-want +got):\n%s", d)
	}
}
