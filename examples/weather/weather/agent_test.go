package weather_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/model/openai/chat"
	"github.com/gomastra/mastra/stream"
)

// wttrServer is a local wttr.in: testdata/oklahoma-city-storm.j1.json
// for Oklahoma City, testdata/san-francisco.j1.json for anywhere else.
func wttrServer(t *testing.T) *httptest.Server {
	t.Helper()
	sf, err := os.ReadFile("testdata/san-francisco.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	storm, err := os.ReadFile("testdata/oklahoma-city-storm.j1.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/Oklahoma City" {
			_, _ = w.Write(storm)
			return
		}
		_, _ = w.Write(sf)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newWeatherAgent is the guide's weather agent on m, both tools querying
// wttrServer.
func newWeatherAgent(t *testing.T, m model.LanguageModel) *agent.Agent {
	t.Helper()
	wttr := wttrServer(t).URL
	a, err := weather.NewAgent(m, weather.NewWeatherTool(wttr, nil), weather.NewHazardsTool(wttr, nil))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestWeatherAgentWithScriptedModel(t *testing.T) {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"San Francisco"}`, ChunkSize: 5}}},
		mock.Step{Text: "It is foggy in San Francisco."},
	)
	out, err := newWeatherAgent(t, m).Generate(context.Background(), "What's the weather in San Francisco?")
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
// Chat Completions provider (model/openai/chat) against a local server
// speaking the real wire format, the loop, the tool against a local
// wttr.in.
func TestWeatherAgentOnAnOpenAICompatibleServer(t *testing.T) {
	llm, requests := openAIServer(t)
	m, err := chat.New("gpt-4o", chat.Config{APIKey: "test-key", BaseURL: llm.URL})
	if err != nil {
		t.Fatal(err)
	}
	a := newWeatherAgent(t, m)
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
	if got := offeredTools(first); !cmp.Equal(got, []string{"hazardsTool", "weatherTool"}) {
		t.Errorf("the model was offered %v, want hazardsTool and weatherTool", got)
	}
	if !strings.Contains(strings.Join(types, ","), "tool-call-delta,tool-call-delta") || types[len(types)-1] != stream.TypeFinish {
		t.Errorf("chunks: %v", types)
	}
}

// offeredTools lists the function names of a Chat Completions request's
// tools, sorted.
func offeredTools(req map[string]any) []string {
	var names []string
	list, _ := req["tools"].([]any)
	for _, t := range list {
		fn, _ := t.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// chunkTypes lists the chunks' types, runs of the same type (deltas)
// folded into one.
func chunkTypes(chunks []stream.Chunk) []string {
	var types []string
	for _, c := range chunks {
		if len(types) == 0 || types[len(types)-1] != c.Type {
			types = append(types, c.Type)
		}
	}
	return types
}

// toolResults maps the tool-result chunks' tool names to their results'
// JSON.
func toolResults(t *testing.T, chunks []stream.Chunk) map[string]string {
	t.Helper()
	results := map[string]string{}
	for _, c := range chunks {
		if p, ok := c.Payload.(stream.ToolResultPayload); ok && c.Type == stream.TypeToolResult {
			b, err := json.Marshal(p.Result)
			if err != nil {
				t.Fatal(err)
			}
			results[p.ToolName] = string(b)
		}
	}
	return results
}

// decode decodes JSON text, failing the test if it is not JSON.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

func decodeAll(t *testing.T, m map[string]string) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, s := range m {
		out[k] = decode(t, s)
	}
	return out
}

// wantStormResults are the two tools' results for Oklahoma City.
var wantStormResults = map[string]string{
	"weatherTool": `{"location":"Oklahoma City","temperatureCelsius":31,"conditions":"Moderate or heavy rain with thunder"}`,
	"hazardsTool": `{"location":"Oklahoma City","hazards":[` +
		`{"type":"thunderstorm","severity":"severe","description":"Thunderstorms: Moderate or heavy rain with thunder"},` +
		`{"type":"wind","severity":"moderate","description":"Strong wind: 62 km/h"},` +
		`{"type":"precipitation","severity":"moderate","description":"Heavy precipitation: 12.4 mm"},` +
		`{"type":"heat","severity":"moderate","description":"Heat: feels like 36 °C"}]}`,
}

// wantToolStep is the chunk types of a step calling one tool with
// streamed arguments.
var wantToolStep = []string{
	stream.TypeStepStart,
	stream.TypeToolCallInputStreamingStart, stream.TypeToolCallDelta, stream.TypeToolCallInputStreamingEnd,
	stream.TypeToolCall, stream.TypeToolResult, stream.TypeStepFinish,
}

// TestWeatherAgentUsesBothTools: the guide's "multiple tools" agent on a
// scripted model that calls weatherTool, then hazardsTool, then answers.
func TestWeatherAgentUsesBothTools(t *testing.T) {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-w", Name: "weatherTool", Args: `{"location":"Oklahoma City"}`, ChunkSize: 6}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-h", Name: "hazardsTool", Args: `{"location":"Oklahoma City"}`, ChunkSize: 6}}},
		mock.Step{Text: "Heavy rain and thunder at 31 °C; expect strong wind and heat."},
	)
	out, err := newWeatherAgent(t, m).Generate(context.Background(), "Is it safe to go out in Oklahoma City?")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Heavy rain and thunder at 31 °C; expect strong wind and heat." || out.FinishReason != "stop" {
		t.Errorf("output %q, finish %s", out.Text, out.FinishReason)
	}

	want := []string{stream.TypeStart}
	want = append(want, wantToolStep...)
	want = append(want, wantToolStep...)
	want = append(want, stream.TypeStepStart, stream.TypeTextStart, stream.TypeTextDelta, stream.TypeTextEnd, stream.TypeStepFinish, stream.TypeFinish)
	if diff := cmp.Diff(want, chunkTypes(out.Chunks)); diff != "" {
		t.Errorf("chunk types (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantStormResults, toolResults(t, out.Chunks)); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
	if len(out.Steps) != 3 || !cmp.Equal(out.Steps[0].ToolNames(), []string{"weatherTool"}) || !cmp.Equal(out.Steps[1].ToolNames(), []string{"hazardsTool"}) {
		t.Errorf("steps: %d", len(out.Steps))
	}

	calls := m.Calls()
	if len(calls) != 3 {
		t.Fatalf("%d model calls, want 3", len(calls))
	}
	// The guide's instructions, both tools offered.
	first := calls[0]
	if first.Messages[0].Role != model.RoleSystem || first.Messages[0].TextContent() != weather.Instructions {
		t.Errorf("system message %+v", first.Messages[0])
	}
	var offered []string
	for _, d := range first.Tools {
		offered = append(offered, d.Name+": "+d.Description)
	}
	slices.Sort(offered)
	if diff := cmp.Diff([]string{
		"hazardsTool: " + weather.HazardsTool.Description(),
		"weatherTool: Fetches weather for a location",
	}, offered); diff != "" {
		t.Errorf("offered tools (-want +got):\n%s", diff)
	}
	// The last call sees both results (as JSON values: key order is the
	// loop's business, not this example's).
	seen := map[string]any{}
	for _, msg := range calls[2].Messages {
		for _, p := range msg.Content {
			if p.ToolResult != nil {
				b, _ := json.Marshal(p.ToolResult.Output.Value)
				seen[p.ToolResult.ToolName] = decode(t, string(b))
			}
		}
	}
	if diff := cmp.Diff(decodeAll(t, wantStormResults), seen); diff != "" {
		t.Errorf("tool results the model saw (-want +got):\n%s", diff)
	}
}

// TestWeatherAgentUsesBothToolsOverOpenAI is the same run through the
// Chat Completions provider (model/openai/chat), against a local server
// replaying Chat Completions streams (testdata/openai/*.sse) and the
// local wttr.in.
func TestWeatherAgentUsesBothToolsOverOpenAI(t *testing.T) {
	llm := providertest.New(t,
		providertest.Reply{Fixture: "openai/weather-call.sse"},
		providertest.Reply{Fixture: "openai/hazards-call.sse"},
		providertest.Reply{Fixture: "openai/answer.sse"},
	)
	m, err := chat.New("gpt-4o", chat.Config{APIKey: "test-key", BaseURL: llm.URL})
	if err != nil {
		t.Fatal(err)
	}
	var chunks []stream.Chunk
	for c, err := range newWeatherAgent(t, m).Stream(context.Background(), "Is it safe to go out in Oklahoma City?") {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}

	want := []string{stream.TypeStart}
	want = append(want, wantToolStep...)
	want = append(want, wantToolStep...)
	want = append(want, stream.TypeStepStart, stream.TypeTextStart, stream.TypeTextDelta, stream.TypeTextEnd, stream.TypeStepFinish, stream.TypeFinish)
	if diff := cmp.Diff(want, chunkTypes(chunks)); diff != "" {
		t.Errorf("chunk types (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantStormResults, toolResults(t, chunks)); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
	var ids, text []string
	for _, c := range chunks {
		switch p := c.Payload.(type) {
		case stream.ToolCallPayload:
			ids = append(ids, p.ToolCallID)
		case stream.TextPayload:
			if c.Type == stream.TypeTextDelta {
				text = append(text, p.Text)
			}
		}
	}
	if !cmp.Equal(ids, []string{"call_weather", "call_hazards"}) {
		t.Errorf("tool call ids %v", ids)
	}
	if got := strings.Join(text, ""); got != "It is 31 °C with heavy rain and thunder in Oklahoma City. Watch out for the storm, strong wind and heat." {
		t.Errorf("text %q", got)
	}

	if llm.Calls() != 3 {
		t.Fatalf("%d model requests, want 3", llm.Calls())
	}
	first := llm.JSONBody(t, 0)
	if got := offeredTools(first); !cmp.Equal(got, []string{"hazardsTool", "weatherTool"}) {
		t.Errorf("offered tools %v", got)
	}
	msgs, _ := first["messages"].([]any)
	if sys, _ := msgs[0].(map[string]any); sys["role"] != "system" || sys["content"] != weather.Instructions {
		t.Errorf("system message %v", msgs[0])
	}
	// The last request carries both calls and both results, as Chat
	// Completions messages.
	toolMsgs := map[string]any{}
	last, _ := llm.JSONBody(t, 2)["messages"].([]any)
	for _, raw := range last {
		msg := raw.(map[string]any)
		if msg["role"] == "tool" {
			toolMsgs[msg["tool_call_id"].(string)] = decode(t, fmt.Sprint(msg["content"]))
		}
	}
	if diff := cmp.Diff(map[string]any{
		"call_weather": decode(t, wantStormResults["weatherTool"]),
		"call_hazards": decode(t, wantStormResults["hazardsTool"]),
	}, toolMsgs); diff != "" {
		t.Errorf("tool messages of the last request (-want +got):\n%s", diff)
	}
}
