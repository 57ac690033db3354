package openai

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

func newResponsesModel(t *testing.T, fs *providertest.Server) *Model {
	t.Helper()
	m, err := New("gpt-4.1", Config{APIKey: "test-key", BaseURL: fs.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Provider() != "openai.responses" {
		t.Fatalf("provider %q", m.Provider())
	}
	return m
}

func TestResponsesTextAndToolCall(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_text_tool.sse"})
	m := newResponsesModel(t, fs)
	req := &model.Request{
		Messages: []model.Message{
			model.System("Be brief."),
			model.User(model.Text("Weather?"), model.Image("aGVsbG8=", "image/png")),
			model.Assistant(model.Text("Calling."), model.ToolCall("call_prev", "get_weather", json.RawMessage(`{"city": "Lyon"}`))),
			model.ToolMessage(
				model.ToolResultPart{ToolCallID: "call_prev", ToolName: "get_weather", Output: model.JSONOutput(map[string]any{"temp": 21})},
				model.ToolResultPart{ToolCallID: "call_img", ToolName: "shot", Output: model.ContentOutput(model.TextPart("see"), model.ImageURLPart("https://example.com/a.png"))},
			),
		},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "get_weather", Description: "Weather", InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}},
			{Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "openai.web_search"},
		},
		ToolChoice:      model.ToolChoiceRequired,
		Settings:        model.CallSettings{MaxOutputTokens: oaitest.Ptr(50), Temperature: oaitest.Ptr(0.3), Seed: oaitest.Ptr(1)},
		ProviderOptions: model.ProviderOptions{"openai": {"parallelToolCalls": false, "reasoningEffort": "low", "store": false}},
	}
	parts, err := oaitest.Parts(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	const msg, fc, call = "msg_67c9fdcf37fc8190ba82116e33fb28c5", "fc_67ca09c6bedc8190a7abfec07b1a1332", "call_unLAR8MvFNptuiZK6K6HCy5k"
	item := func(id string) model.ProviderMetadata { return model.ProviderMetadata{"openai": {"itemId": id}} }
	want := []model.StreamPart{
		{Type: model.PartStreamStart, Warnings: []model.Warning{{Type: "unsupported-setting", Setting: "seed"}}},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "resp_67c9fdcecf488190bdd9a0409de3a1ec", ModelID: "gpt-4.1-2025-04-14", Timestamp: oaitest.Time(1741290958)}},
		{Type: model.PartTextStart, ID: msg, ProviderMetadata: item(msg)},
		{Type: model.PartTextDelta, ID: msg, Delta: "Checking"},
		{Type: model.PartTextDelta, ID: msg, Delta: " now."},
		{Type: model.PartTextEnd, ID: msg, ProviderMetadata: item(msg)},
		{Type: model.PartToolInputStart, ID: call, ToolName: "get_weather"},
		{Type: model.PartToolInputDelta, ID: call, Delta: `{"city":`},
		{Type: model.PartToolInputDelta, ID: call, Delta: `"Paris"}`},
		{Type: model.PartToolInputEnd, ID: call},
		{Type: model.PartToolCall, ToolCallID: call, ToolName: "get_weather", Input: `{"city":"Paris"}`, ProviderMetadata: item(fc)},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls,
			Usage:            model.Usage{InputTokens: 37, OutputTokens: 11, TotalTokens: 48, CachedInputTokens: 5, ReasoningTokens: 2},
			ProviderMetadata: model.ProviderMetadata{"openai": {"responseId": "resp_67c9fdcecf488190bdd9a0409de3a1ec"}}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}

	if fs.Requests()[0].Path != "/v1/responses" {
		t.Errorf("path %q", fs.Requests()[0].Path)
	}
	body := fs.JSONBody(t, 0)
	wantInput := []any{
		map[string]any{"role": "system", "content": "Be brief."},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "input_text", "text": "Weather?"},
			map[string]any{"type": "input_image", "detail": "auto", "image_url": "data:image/png;base64,aGVsbG8="},
		}},
		map[string]any{"role": "assistant", "content": "Calling."},
		map[string]any{"type": "function_call", "call_id": "call_prev", "name": "get_weather", "arguments": `{"city":"Lyon"}`},
		map[string]any{"type": "function_call_output", "call_id": "call_prev", "output": `{"temp":21}`},
		map[string]any{"type": "function_call_output", "call_id": "call_img", "output": []any{
			map[string]any{"type": "input_text", "text": "see"},
			map[string]any{"type": "input_image", "image_url": "https://example.com/a.png"},
		}},
	}
	if d := cmp.Diff(wantInput, body["input"]); d != "" {
		t.Errorf("input (-want +got):\n%s", d)
	}
	wantTools := []any{
		map[string]any{"type": "function", "name": "get_weather", "description": "Weather",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}},
		map[string]any{"type": "web_search"},
	}
	if d := cmp.Diff(wantTools, body["tools"]); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	for k, v := range map[string]any{
		"tool_choice": "required", "max_output_tokens": 50.0, "temperature": 0.3, "stream": true,
		"parallel_tool_calls": false, "store": false, "reasoning": map[string]any{"effort": "low"}, "model": "gpt-4.1",
	} {
		if d := cmp.Diff(v, body[k]); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}
}

func TestResponsesIncomplete(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_incomplete.sse"})
	m := newResponsesModel(t, fs)
	resp, err := model.Collect(t.Context(), m, &model.Request{
		Messages:       []model.Message{model.UserText("story")},
		ResponseFormat: &model.ResponseFormat{Type: "json", Schema: &jsonschema.Schema{Type: "object"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Once upon" || resp.FinishReason != model.FinishLength || resp.RawFinishReason != "max_output_tokens" || resp.Usage.TotalTokens != 13 {
		t.Errorf("response %+v", resp)
	}
	want := map[string]any{"format": map[string]any{"type": "json_schema", "name": "response", "schema": map[string]any{"type": "object"}}}
	if d := cmp.Diff(want, fs.JSONBody(t, 0)["text"]); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
}

func TestResponsesHTTPErrorAndRetry(t *testing.T) {
	fs := providertest.New(t,
		providertest.Reply{Status: 429, Fixture: "error_429.json", Headers: map[string]string{"Retry-After": "0"}},
		providertest.Reply{Fixture: "responses_incomplete.sse"},
	)
	m := newResponsesModel(t, fs)
	if _, err := model.Collect(t.Context(), m, &model.Request{Messages: []model.Message{model.UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	fs2 := providertest.New(t, providertest.Reply{Status: 401, Fixture: "error_401.json"})
	m2 := newResponsesModel(t, fs2)
	_, err := oaitest.Parts(t, m2, &model.Request{Messages: []model.Message{model.UserText("x")}})
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 401 || fs2.Calls() != 1 {
		t.Errorf("err %v, %d requests", err, fs2.Calls())
	}
}

func TestResponsesErrorEvent(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_error.sse"})
	m := newResponsesModel(t, fs)
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 3 || parts[2].Type != model.PartError || parts[2].Err == nil ||
		parts[2].Err.Error() != "openai: The server had an error while processing your request. (code server_error)" {
		t.Errorf("parts %+v", parts)
	}
}

// The provider's own web search: a provider-executed call and result
// under the request's tool name, url citations as sources, the request's
// tool as {"type":"web_search"}.
func TestResponsesWebSearch(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_web_search.sse"})
	m := newResponsesModel(t, fs)
	resp, err := model.Collect(t.Context(), m, &model.Request{
		Messages: []model.Message{model.UserText("Weather in Lisbon?")},
		Tools:    []model.ToolDefinition{{Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "openai.web_search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	const id = "ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609"
	if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ToolCallID != id || resp.ToolCalls[0].ToolName != "web_search" || !resp.ToolCalls[0].ProviderExecuted {
		t.Errorf("calls %+v", resp.ToolCalls)
	}
	wantResult := map[string]any{"action": map[string]any{"type": "search", "query": "weather Lisbon today"},
		"sources": []map[string]any{{"type": "url", "url": "https://weather.example/lisbon"}}}
	if len(resp.ToolResults) != 1 || resp.ToolResults[0].ToolCallID != id {
		t.Fatalf("results %+v", resp.ToolResults)
	}
	got, _ := json.Marshal(resp.ToolResults[0].Output.Value)
	want, _ := json.Marshal(wantResult)
	if string(got) != string(want) {
		t.Errorf("result %s, want value %s", got, want)
	}
	if len(resp.Sources) != 1 || resp.Sources[0].URL != "https://weather.example/lisbon" || resp.Sources[0].Title != "Lisbon weather" || resp.Sources[0].SourceType != "url" {
		t.Errorf("sources %+v", resp.Sources)
	}
	if resp.Text != "Sunny, 21°C." || resp.FinishReason != model.FinishStop {
		t.Errorf("text %q, finish %s", resp.Text, resp.FinishReason)
	}
	if d := cmp.Diff([]any{map[string]any{"type": "web_search"}}, fs.JSONBody(t, 0)["tools"]); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}
