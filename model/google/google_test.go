package google

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/gomastra/mastra/internal/providertest"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"google.golang.org/genai"

	"github.com/gomastra/mastra/model"
)

const testModel = "gemini-2.5-flash"

// received is one request the test server got, its body decoded.
type received struct {
	Method, Path, Query string
	Header              http.Header
	Body                map[string]any
}

// fakeServer is a local Gemini API (see package providertest).
type fakeServer struct{ *providertest.Server }

func (s *fakeServer) requests() []received {
	var out []received
	for _, r := range s.Requests() {
		var body map[string]any
		_ = json.Unmarshal(r.Body, &body)
		out = append(out, received{r.Method, r.Path, r.Query, r.Header, body})
	}
	return out
}

// serve starts a server on 127.0.0.1 answering every request with the
// fixture: an .sse file as an event stream, anything else as a JSON body
// with status.
func serve(t *testing.T, fixture string, status int) *fakeServer {
	t.Helper()
	return &fakeServer{providertest.New(t, providertest.Reply{Status: status, Fixture: fixture})}
}

func newTestModel(t *testing.T, srv *fakeServer, headers map[string]string) *Model {
	t.Helper()
	m, err := New(testModel, Config{APIKey: "test-key", BaseURL: srv.URL, Headers: headers, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// run drains a stream. It checks and drops the response headers and the
// finish part's provider metadata (checked separately).
func run(t *testing.T, m *Model, req *model.Request) ([]model.StreamPart, []model.ProviderMetadata, error) {
	t.Helper()
	var (
		parts []model.StreamPart
		mds   []model.ProviderMetadata
	)
	for p, err := range m.Stream(context.Background(), req) {
		if err != nil {
			return parts, mds, err
		}
		if p.Type == model.PartResponseMetadata && p.Response != nil {
			if got := p.Response.Headers["content-type"]; got != "text/event-stream" {
				t.Errorf("response headers content-type = %q", got)
			}
			p.Response.Headers = nil
			if p.Response.Timestamp.IsZero() {
				t.Error("response timestamp is zero")
			}
			p.Response.Timestamp = time.Time{}
		}
		if p.Type == model.PartFinish {
			mds = append(mds, p.ProviderMetadata)
			p.ProviderMetadata = nil
		}
		parts = append(parts, p)
	}
	return parts, mds, nil
}

func meta(id, modelID string) model.StreamPart {
	return model.StreamPart{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: id, ModelID: modelID}}
}

func jsonMap(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad expected JSON: %v", err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

func TestTextStreamAndRequest(t *testing.T) {
	srv := serve(t, "text.sse", http.StatusOK)
	m := newTestModel(t, srv, map[string]string{"X-Client": "gomastra"})
	if m.Provider() != "google.generative-ai" || m.ModelID() != testModel {
		t.Fatalf("Provider, ModelID = %q, %q", m.Provider(), m.ModelID())
	}
	schema := &jsonschema.Schema{
		Schema:     "http://json-schema.org/draft-07/schema#",
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"city": {Type: "string", Description: "City name"}},
		Required:   []string{"city"},
	}
	req := &model.Request{
		Messages: []model.Message{
			model.System("Be brief."),
			model.User(model.Text("What is in this picture?"), model.Image("aGVsbG8=", "image/png")),
			model.Assistant(model.Text("Let me check."), model.ToolCall("call-1", "get_weather", json.RawMessage(`{"city":"Paris"}`))),
			model.ToolMessage(model.ToolResultPart{ToolCallID: "call-1", ToolName: "get_weather", Output: model.JSONOutput(map[string]any{"temp": 21})}),
			model.UserText("And tomorrow?"),
		},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "get_weather", Description: "Weather for a city", InputSchema: schema},
			{Type: model.ToolTypeFunction, Name: "ping", InputSchema: &jsonschema.Schema{Type: "object"}},
		},
		ToolChoice: model.ToolChoiceAuto,
		Settings: model.CallSettings{
			MaxOutputTokens: ptr(256), Temperature: ptr(0.5), TopP: ptr(0.25), TopK: ptr(40),
			StopSequences: []string{"END"}, Seed: ptr(42),
		},
		Headers: map[string]string{"X-Request": "r1"},
	}
	parts, mds, err := run(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("resp-text-1", "gemini-2.5-flash"),
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "Hello"},
		{Type: model.PartTextDelta, ID: "0", Delta: ", wor"},
		{Type: model.PartTextDelta, ID: "0", Delta: "ld!"},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartFinish, FinishReason: model.FinishStop, RawFinishReason: "STOP",
			Usage: model.Usage{InputTokens: 7, OutputTokens: 4, TotalTokens: 11}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	if u, ok := mds[0]["google"]["usageMetadata"].(*genai.GenerateContentResponseUsageMetadata); !ok || u.TotalTokenCount != 11 {
		t.Errorf("finish provider metadata = %#v", mds[0])
	}

	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1beta/models/gemini-2.5-flash:streamGenerateContent" || r.Query != "alt=sse" {
		t.Errorf("request %s %s?%s", r.Method, r.Path, r.Query)
	}
	for k, v := range map[string]string{"x-goog-api-key": "test-key", "X-Client": "gomastra", "X-Request": "r1", "Content-Type": "application/json"} {
		if got := r.Header.Get(k); got != v {
			t.Errorf("header %s = %q, want %q", k, got, v)
		}
	}
	wantBody := jsonMap(t, `{
		"systemInstruction": {"role": "user", "parts": [{"text": "Be brief."}]},
		"contents": [
			{"role": "user", "parts": [
				{"text": "What is in this picture?"},
				{"inlineData": {"mimeType": "image/png", "data": "aGVsbG8="}}
			]},
			{"role": "model", "parts": [
				{"text": "Let me check."},
				{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
			]},
			{"role": "user", "parts": [
				{"functionResponse": {"name": "get_weather", "response": {"name": "get_weather", "content": {"temp": 21}}}}
			]},
			{"role": "user", "parts": [{"text": "And tomorrow?"}]}
		],
		"tools": [{"functionDeclarations": [
			{"name": "get_weather", "description": "Weather for a city", "parametersJsonSchema": {
				"type": "object",
				"properties": {"city": {"type": "string", "description": "City name"}},
				"required": ["city"]
			}},
			{"name": "ping"}
		]}],
		"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
		"generationConfig": {
			"maxOutputTokens": 256, "temperature": 0.5, "topP": 0.25, "topK": 40,
			"stopSequences": ["END"], "seed": 42
		}
	}`)
	if d := cmp.Diff(wantBody, r.Body); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
}

func TestFunctionCall(t *testing.T) {
	srv := serve(t, "function_call.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	req := &model.Request{
		Messages:   []model.Message{model.UserText("Weather in Paris?")},
		Tools:      []model.ToolDefinition{{Type: model.ToolTypeFunction, Name: "get_weather", InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}}},
		ToolChoice: model.ToolChoiceTool("get_weather"),
	}
	parts, _, err := run(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	args := `{"city":"Paris","unit":"celsius"}`
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("resp-fc-1", "gemini-2.5-flash"),
		{Type: model.PartToolInputStart, ID: "call-1", ToolName: "get_weather"},
		{Type: model.PartToolInputDelta, ID: "call-1", Delta: args},
		{Type: model.PartToolInputEnd, ID: "call-1"},
		{Type: model.PartToolCall, ToolCallID: "call-1", ToolName: "get_weather", Input: args},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "STOP",
			Usage: model.Usage{InputTokens: 40, OutputTokens: 9, TotalTokens: 49}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	got := srv.requests()[0].Body["toolConfig"]
	wantTC := jsonMap(t, `{"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}}`)
	if d := cmp.Diff(any(wantTC), got); d != "" {
		t.Errorf("toolConfig (-want +got):\n%s", d)
	}
}

func TestTwoFunctionCalls(t *testing.T) {
	srv := serve(t, "two_function_calls.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	req := &model.Request{
		Messages: []model.Message{model.UserText("Weather and time in Paris?")},
		Tools: []model.ToolDefinition{
			{Type: model.ToolTypeFunction, Name: "get_weather"},
			{Type: model.ToolTypeFunction, Name: "get_time"},
		},
		ToolChoice: model.ToolChoiceRequired,
	}
	parts, _, err := run(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	a1, a2 := `{"city":"Paris"}`, `{"zone":"Europe/Paris"}`
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		meta("resp-fc-2", "gemini-2.5-flash"),
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: "Checking both."},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartToolInputStart, ID: "call-1", ToolName: "get_weather"},
		{Type: model.PartToolInputDelta, ID: "call-1", Delta: a1},
		{Type: model.PartToolInputEnd, ID: "call-1"},
		{Type: model.PartToolCall, ToolCallID: "call-1", ToolName: "get_weather", Input: a1},
		{Type: model.PartToolInputStart, ID: "srv-call-7", ToolName: "get_time"},
		{Type: model.PartToolInputDelta, ID: "srv-call-7", Delta: a2},
		{Type: model.PartToolInputEnd, ID: "srv-call-7"},
		{Type: model.PartToolCall, ToolCallID: "srv-call-7", ToolName: "get_time", Input: a2},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "STOP",
			Usage: model.Usage{InputTokens: 52, OutputTokens: 21, TotalTokens: 73}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	body := srv.requests()[0].Body
	wantPart := jsonMap(t, `{
		"tools": [{"functionDeclarations": [{"name": "get_weather"}, {"name": "get_time"}]}],
		"toolConfig": {"functionCallingConfig": {"mode": "ANY"}}
	}`)
	got := map[string]any{"tools": body["tools"], "toolConfig": body["toolConfig"]}
	if d := cmp.Diff(wantPart, got); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}

func TestReasoningAndUsage(t *testing.T) {
	srv := serve(t, "reasoning.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	req := &model.Request{
		Messages: []model.Message{model.UserText("Answer in JSON.")},
		ResponseFormat: &model.ResponseFormat{Type: "json", Schema: &jsonschema.Schema{
			Schema: "http://json-schema.org/draft-07/schema#", Type: "object",
			Properties: map[string]*jsonschema.Schema{"answer": {Type: "string"}},
		}},
	}
	parts, mds, err := run(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	sig := model.ProviderMetadata{"google": {"thoughtSignature": "c2lnLTE="}}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{
			ID: "resp-think-1", ModelID: "gemini-2.5-pro"}},
		{Type: model.PartReasoningStart, ID: "0", ProviderMetadata: sig},
		{Type: model.PartReasoningDelta, ID: "0", Delta: "Thinking about it.", ProviderMetadata: sig},
		{Type: model.PartReasoningEnd, ID: "0"},
		{Type: model.PartTextStart, ID: "1"},
		{Type: model.PartTextDelta, ID: "1", Delta: "The answer is"},
		{Type: model.PartTextEnd, ID: "1"},
		{Type: model.PartFinish, FinishReason: model.FinishLength, RawFinishReason: "MAX_TOKENS",
			Usage: model.Usage{InputTokens: 120, OutputTokens: 3, TotalTokens: 153, ReasoningTokens: 30, CachedInputTokens: 100}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	if mds[0] == nil {
		t.Error("finish part has no provider metadata")
	}
	wantGC := jsonMap(t, `{
		"responseMimeType": "application/json",
		"responseJsonSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}
	}`)
	if d := cmp.Diff(any(wantGC), srv.requests()[0].Body["generationConfig"]); d != "" {
		t.Errorf("generationConfig (-want +got):\n%s", d)
	}
}

func TestHTTPError(t *testing.T) {
	srv := serve(t, "error_400.json", http.StatusBadRequest)
	m := newTestModel(t, srv, nil)
	parts, _, err := run(t, m, &model.Request{Messages: []model.Message{model.UserText("hi")}})
	if len(parts) != 0 {
		t.Errorf("parts before the error: %v", parts)
	}
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want *APIError", err, err)
	}
	if ae.StatusCode != 400 || ae.Status != "INVALID_ARGUMENT" || !strings.Contains(ae.Message, "Unknown name") {
		t.Errorf("APIError = %+v", ae)
	}
	want := `google: HTTP 400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "foo": Cannot find field.`
	if err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if _, err := model.Collect(context.Background(), m, &model.Request{}); !errors.As(err, &ae) {
		t.Errorf("Collect err = %v", err)
	}
}

func TestToolResultOutputs(t *testing.T) {
	tr := func(o model.ToolResultOutput) *model.ToolResultPart {
		return &model.ToolResultPart{ToolCallID: "c1", ToolName: "t", Output: o}
	}
	fr := func(content any) map[string]any {
		return map[string]any{"functionResponse": map[string]any{"name": "t", "response": map[string]any{"name": "t", "content": content}}}
	}
	cases := []struct {
		name string
		out  model.ToolResultOutput
		want []map[string]any
	}{
		{"text", model.TextOutput("ok"), []map[string]any{fr("ok")}},
		{"error-text", model.ErrorTextOutput("boom"), []map[string]any{fr("boom")}},
		{"denied", model.ExecutionDeniedOutput(""), []map[string]any{fr("Tool execution denied.")}},
		{"content", model.ContentOutput(model.TextPart("hi"), model.ImageDataPart([]byte("hello"), "image/png")), []map[string]any{
			fr("hi"),
			{"inlineData": map[string]any{"mimeType": "image/png", "data": "aGVsbG8="}},
			{"text": toolImageNote},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts, err := toolResultParts(tr(c.out))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(parts)
			var got []map[string]any
			_ = json.Unmarshal(b, &got)
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestSystemAfterUserIsAnError(t *testing.T) {
	m, err := New(testModel, Config{APIKey: "test-key", BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = model.Collect(context.Background(), m, &model.Request{Messages: []model.Message{model.UserText("hi"), model.System("late")}})
	if err == nil || !strings.Contains(err.Error(), "system messages") {
		t.Errorf("err = %v", err)
	}
}

func TestProviders(t *testing.T) {
	ps := Providers()
	if len(ps) != 1 || ps[0].Name != "google" || ps[0].APIKeyEnv != "GOOGLE_GENERATIVE_AI_API_KEY" || ps[0].BaseURLEnv != "GOOGLE_GENERATIVE_AI_BASE_URL" || ps[0].KeyOptional {
		t.Fatalf("entries %+v", ps)
	}
	if lm, err := ps[0].New("", "k", "", nil); err == nil || lm != nil {
		t.Errorf("empty model id: %v %v", lm, err)
	}
	lm, err := ps[0].New("gemini-2.5-pro", "test-key", "http://127.0.0.1:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if lm.Provider() != ProviderID || lm.ModelID() != "gemini-2.5-pro" {
		t.Errorf("got %s %s", lm.Provider(), lm.ModelID())
	}
}

func TestErrorAfterFirstChunkIsAnErrorPart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}],"responseId":"r1"}`+"\n\n")
		_, _ = io.WriteString(w, `data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}`+"\n\n")
	}))
	defer srv.Close()
	m, err := New(testModel, Config{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var types []model.PartType
	var last model.StreamPart
	for p, err := range m.Stream(context.Background(), &model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, p.Type)
		last = p
	}
	want := []model.PartType{model.PartStreamStart, model.PartResponseMetadata, model.PartTextStart, model.PartTextDelta, model.PartError}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	var ae *APIError
	if !errors.As(last.Err, &ae) || ae.StatusCode != 503 || ae.Status != "UNAVAILABLE" {
		t.Errorf("error part = %v", last.Err)
	}
}

func TestConsumerStops(t *testing.T) {
	srv := serve(t, "text.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	n := 0
	for _, err := range m.Stream(context.Background(), &model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("got %d parts", n)
	}
}

func TestCancelledContext(t *testing.T) {
	srv := serve(t, "text.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var gotErr error
	for _, err := range m.Stream(ctx, &model.Request{Messages: []model.Message{model.UserText("hi")}}) {
		if err != nil {
			gotErr = err
		}
	}
	if !errors.Is(gotErr, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", gotErr)
	}
}

// Google Search grounding: the googleSearch tool in the request, its
// grounding chunks as url sources.
func TestGoogleSearch(t *testing.T) {
	srv := serve(t, "google_search.sse", http.StatusOK)
	m := newTestModel(t, srv, nil)
	resp, err := model.Collect(t.Context(), m, &model.Request{
		Messages: []model.Message{model.UserText("Weather in Lisbon?")},
		Tools:    []model.ToolDefinition{{Type: model.ToolTypeProviderDefined, ID: "google.google_search", Name: "google_search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Source{
		{SourceType: "url", ID: "source-1", URL: "https://weather.example/lisbon", Title: "weather.example"},
		{SourceType: "url", ID: "source-2", URL: "https://news.example/pt", Title: "news.example"},
	}
	if d := cmp.Diff(want, resp.Sources); d != "" || resp.Text != "Sunny in Lisbon, 21°C." {
		t.Errorf("sources (-want +got):\n%s\ntext %q", d, resp.Text)
	}
	if d := cmp.Diff(any([]any{map[string]any{"googleSearch": map[string]any{}}}), srv.requests()[0].Body["tools"]); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}
