package weather_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/stream"
)

// wttrServer serves the recorded-shape j1 fixture for any location.
func wttrServer(t *testing.T) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile("testdata/san-francisco.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestWeatherAgentWithScriptedModel(t *testing.T) {
	tool := weather.NewWeatherTool(wttrServer(t).URL, nil)
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"San Francisco"}`, ChunkSize: 5}}},
		mock.Step{Text: "It is foggy in San Francisco."},
	)
	a, err := weather.NewAgent(m, tool)
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "What's the weather in San Francisco?")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "It is foggy in San Francisco." || out.FinishReason != "stop" {
		t.Errorf("output: %q %s", out.Text, out.FinishReason)
	}
	second := m.Calls()[1]
	last := second.Messages[len(second.Messages)-1]
	b, _ := json.Marshal(last)
	if !strings.Contains(string(b), `"temperatureCelsius"`) {
		t.Errorf("the model must see the tool result: %s", b)
	}
}

// openAIServer speaks OpenAI's Chat Completions streaming format: a
// weatherTool call first, then, once the tool result is in the request,
// a text answer.
func openAIServer(t *testing.T) (*httptest.Server, *[]map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var requests []map[string]any
	chunk := func(delta string, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		return fmt.Sprintf(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n", delta, f)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req map[string]any
		_ = json.Unmarshal(raw, &req)
		mu.Lock()
		requests = append(requests, req)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if !strings.Contains(string(raw), `"role":"tool"`) {
			fmt.Fprint(w, chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_abc","type":"function","function":{"name":"weatherTool","arguments":""}}]}`, ""))
			fmt.Fprint(w, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"location\":"}}]}`, ""))
			fmt.Fprint(w, chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"San Francisco\"}"}}]}`, ""))
			fmt.Fprint(w, chunk(`{}`, "tool_calls"))
		} else {
			fmt.Fprint(w, chunk(`{"role":"assistant","content":"It is "}`, ""))
			fmt.Fprint(w, chunk(`{"content":"foggy."}`, ""))
			fmt.Fprint(w, chunk(`{}`, "stop"))
		}
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

// TestWeatherAgentOnAnOpenAICompatibleServer runs the whole path: the
// OpenAI provider against a local server speaking the real wire format,
// the loop, the tool against a local wttr.in.
func TestWeatherAgentOnAnOpenAICompatibleServer(t *testing.T) {
	llm, requests := openAIServer(t)
	m, err := openai.New("gpt-4o", openai.Config{APIKey: "test-key", BaseURL: llm.URL, API: openai.APIChat})
	if err != nil {
		t.Fatal(err)
	}
	a, err := weather.NewAgent(m, weather.NewWeatherTool(wttrServer(t).URL, nil))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	var result stream.ToolResultPayload
	for c, err := range a.Stream(context.Background(), "What's the weather in San Francisco?") {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, c.Type)
		if p, ok := c.Payload.(stream.ToolResultPayload); ok {
			result = p
		}
	}
	if result.ToolName != "weatherTool" || result.ToolCallID != "call_abc" {
		t.Fatalf("tool result: %+v (chunks %v)", result, types)
	}
	b, _ := json.Marshal(result.Result)
	if !strings.Contains(string(b), `"location":"San Francisco"`) {
		t.Errorf("result %s", b)
	}
	if len(*requests) != 2 {
		t.Fatalf("%d model requests, want 2", len(*requests))
	}
	first := (*requests)[0]
	tools, _ := first["tools"].([]any)
	if len(tools) != 1 || !strings.Contains(fmt.Sprint(tools[0]), "weatherTool") {
		t.Errorf("the model was not offered weatherTool: %v", first["tools"])
	}
	if !strings.Contains(strings.Join(types, ","), "tool-call-delta,tool-call-delta") || types[len(types)-1] != stream.TypeFinish {
		t.Errorf("chunks: %v", types)
	}
}
