package weather_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func TestUserLocationToolIsAClientTool(t *testing.T) {
	tool := weather.UserLocationTool
	if !tool.IsClientTool() || tool.ID() != "user-location" {
		t.Errorf("client %v, id %q", tool.IsClientTool(), tool.ID())
	}
	b, _ := json.Marshal(tool.OutputSchema().JSONSchema())
	if want := `{"type":"object","properties":{"location":{"type":"string","description":"City name of the user's location, e.g. San Francisco"}},"required":["location"],"additionalProperties":false}`; string(b) != want {
		t.Errorf("output schema %s", b)
	}
}

// TestClientToolRoundTrip: the weather agent is offered the browser's
// user location tool for a run. The model calls it; the run stops there
// (finishReason tool-calls, no result). The client runs the tool and sends
// the conversation back with the result; the second run continues from
// it to the weather and an answer.
func TestClientToolRoundTrip(t *testing.T) {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-loc", Name: "userLocationTool", Args: `{}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-w", Name: "weatherTool", Args: `{"location":"Oklahoma City"}`}}},
		mock.Step{Text: "In Oklahoma City it is 31 °C with heavy rain and thunder."},
	)
	a := newWeatherAgent(t, m)
	clientTools := agent.WithClientTools(tools.Set{"userLocationTool": weather.UserLocationTool})
	const question = "What's the weather where I am?"

	// First request: the run stops at the client tool's call.
	out, err := a.Generate(context.Background(), question, clientTools)
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "tool-calls" || len(out.ToolCalls) != 1 || len(out.ToolResults) != 0 || out.Text != "" {
		t.Fatalf("first run: finish %s, %d calls, %d results, text %q", out.FinishReason, len(out.ToolCalls), len(out.ToolResults), out.Text)
	}
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolResult || c.Type == stream.TypeToolError {
			t.Errorf("first run has a %s chunk: the server cannot run a client tool", c.Type)
		}
	}
	if n := len(m.Calls()); n != 1 {
		t.Fatalf("the model was called %d times in the first run, want 1", n)
	}
	var offered []string
	for _, d := range m.Calls()[0].Tools {
		offered = append(offered, d.Name)
	}
	slices.Sort(offered)
	if diff := cmp.Diff([]string{"hazardsTool", "userLocationTool", "weatherTool"}, offered); diff != "" {
		t.Errorf("offered tools (-want +got):\n%s", diff)
	}
	call, ok := out.ToolCalls[0].Payload.(stream.ToolCallPayload)
	if !ok || call.ToolName != "userLocationTool" || call.ToolCallID != "call-loc" {
		t.Fatalf("pending call %+v", out.ToolCalls[0].Payload)
	}

	// The browser runs the tool; the client sends the conversation back:
	// the question, the assistant's tool call and the tool's result.
	located := weather.UserLocation{Location: "Oklahoma City"}
	history := []model.Message{
		model.UserText(question),
		model.Assistant(model.ToolCall(call.ToolCallID, call.ToolName, call.Args)),
		model.ToolMessage(model.ToolResultPart{ToolCallID: call.ToolCallID, ToolName: call.ToolName, Output: model.JSONOutput(located)}),
	}
	out, err = a.Generate(context.Background(), history, clientTools)
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "stop" || out.Text != "In Oklahoma City it is 31 °C with heavy rain and thunder." {
		t.Errorf("second run: finish %s, text %q", out.FinishReason, out.Text)
	}
	if diff := cmp.Diff(map[string]string{"weatherTool": wantStormResults["weatherTool"]}, toolResults(t, out.Chunks)); diff != "" {
		t.Errorf("second run tool results (-want +got):\n%s", diff)
	}

	// The model's second request carries the call and its result.
	calls := m.Calls()
	if len(calls) != 3 {
		t.Fatalf("model calls: %d, want 3", len(calls))
	}
	var got []string
	for _, msg := range calls[1].Messages {
		b, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{
		`{"role":"system","content":` + jsonString(weather.Instructions) + `}`,
		`{"role":"user","content":[{"type":"text","text":"What's the weather where I am?"}]}`,
		`{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-loc","toolName":"userLocationTool","input":{}}]}`,
		// The result carries its call's input, as Mastra gives every tool
		// result in a prompt (its ensureAnthropicCompatibleMessages).
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-loc","toolName":"userLocationTool","output":{"type":"json","value":{"location":"Oklahoma City"}},"input":{}}]}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("second model request (-want +got):\n%s", diff)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
