package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func weatherRun(t *testing.T) *agent.Output {
	t.Helper()
	weather := tools.New(tools.Config[WeatherInput, WeatherOutput]{ID: "weather-tool",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		}})
	a, err := agent.New(agent.Config{ID: "weather", Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{
			{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`},
			{ID: "call-2", Name: "weatherTool", Args: `{"location":"Lyon"}`},
		}},
		mock.Step{Text: "Sunny in both."},
	), Tools: tools.Set{"weatherTool": weather}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(context.Background(), "Weather in Paris and Lyon?")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOutputCallsAndResults(t *testing.T) {
	out := weatherRun(t)
	wantCalls := []agent.ToolCall{
		{ToolCallID: "call-1", ToolName: "weatherTool", Args: json.RawMessage(`{"location":"Paris"}`)},
		{ToolCallID: "call-2", ToolName: "weatherTool", Args: json.RawMessage(`{"location":"Lyon"}`)},
	}
	if d := cmp.Diff(wantCalls, out.Calls()); d != "" {
		t.Errorf("calls (-want +got)\n%s", d)
	}
	if d := cmp.Diff(wantCalls, out.Steps[0].Calls()); d != "" {
		t.Errorf("step calls (-want +got)\n%s", d)
	}
	wantResults := []agent.ToolResult{
		{ToolCallID: "call-1", ToolName: "weatherTool", Args: json.RawMessage(`{"location":"Paris"}`),
			Result: json.RawMessage(`{"location":"Paris","temperatureCelsius":21,"conditions":"Sunny"}`)},
		{ToolCallID: "call-2", ToolName: "weatherTool", Args: json.RawMessage(`{"location":"Lyon"}`),
			Result: json.RawMessage(`{"location":"Lyon","temperatureCelsius":21,"conditions":"Sunny"}`)},
	}
	if d := cmp.Diff(wantResults, out.Results()); d != "" {
		t.Errorf("results (-want +got)\n%s", d)
	}
	if n := len(out.Steps[1].Results()); n != 0 {
		t.Errorf("the answering step has %d results", n)
	}
	w, err := agent.ToolResultAs[WeatherOutput](out.Results()[1])
	if err != nil || w != (WeatherOutput{Location: "Lyon", TemperatureCelsius: 21, Conditions: "Sunny"}) {
		t.Errorf("ToolResultAs: %+v %v", w, err)
	}
	// Read back from the generate route's JSON, the view is the same.
	back := jsonRoundTrip(t, out)
	if got := back.Results(); len(got) != 2 || got[0].ToolCallID != "call-1" {
		t.Fatalf("decoded results: %+v", got)
	}
	if w, err := agent.ToolResultAs[WeatherOutput](back.Results()[0]); err != nil || w.Location != "Paris" {
		t.Errorf("decoded ToolResultAs: %+v %v", w, err)
	}
}

func TestToolResultError(t *testing.T) {
	out := &agent.Output{ToolResults: []stream.Chunk{
		{Type: stream.TypeToolResult, Payload: stream.ToolResultPayload{ToolCallID: "srv-1", ToolName: "web_search",
			Result: map[string]any{"message": "quota exceeded"}, IsError: true, ProviderExecuted: true}},
		{Type: stream.TypeToolResult, Payload: stream.ToolResultPayload{ToolCallID: "srv-2", ToolName: "web_search",
			Result: "timed out", IsError: true, ProviderExecuted: true}},
	}}
	rs := out.Results()
	if len(rs) != 2 || !rs[0].IsError || rs[0].Error != "quota exceeded" || rs[1].Error != "timed out" || !rs[0].ProviderExecuted {
		t.Fatalf("%+v", rs)
	}
	if _, err := agent.ToolResultAs[map[string]any](rs[0]); err == nil || !strings.Contains(err.Error(), "quota exceeded") {
		t.Errorf("an error result decoded: %v", err)
	}
	if _, err := agent.ToolResultAs[int](weatherRun(t).Results()[0]); err == nil {
		t.Error("a result that does not decode gave no error")
	}
}
