package weather_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// The example points the tool at a local stand-in for wttr.in; in a
// program, use weather.WeatherTool or NewWeatherTool("https://wttr.in", nil).
func ExampleNewWeatherTool() {
	wttr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// GET /San%20Francisco?format=j1, answered in wttr.in's j1 shape.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"current_condition":[{"temp_C":"14","humidity":"77",
			"weatherDesc":[{"value":"Partly cloudy"}],"windspeedKmph":"15"}]}`)
	}))
	defer wttr.Close()

	tool := weather.NewWeatherTool(wttr.URL, wttr.Client())
	res, err := tool.Execute(context.Background(),
		json.RawMessage(`{"location":"San Francisco"}`),
		&tools.Invocation{ToolCallID: "call-1"})
	if err != nil {
		fmt.Println("tool error:", err)
		return
	}
	out, _ := res.JSON()
	fmt.Println(string(out))

	// Input that does not match the schema is a result the model can read
	// and correct, not an error; Execute's function is not called.
	res, _ = tool.Execute(context.Background(), json.RawMessage(`{"location":5}`), nil)
	fmt.Println(res.ValidationError().Message)
	// Output:
	// {"location":"San Francisco","temperatureCelsius":14,"conditions":"Partly cloudy"}
	// Tool input validation failed for weather-tool. Please fix the following errors and try again:
	// - location: Invalid input: expected string, received number
	//
	// Provided arguments: {
	//   "location": 5
	// }
}

// The input schema the model is given, inferred from weather.Input.
func Example_inputSchema() {
	b, _ := json.MarshalIndent(weather.WeatherTool.InputSchema().JSONSchema(), "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "type": "object",
	//   "properties": {
	//     "location": {
	//       "type": "string",
	//       "description": "City name, e.g. San Francisco"
	//     }
	//   },
	//   "required": [
	//     "location"
	//   ],
	//   "additionalProperties": false
	// }
}

// The hazards tool reads the same j1 answer as the weather tool and lists
// what its current conditions make risky (thresholds in NewHazardsTool's
// documentation).
func ExampleNewHazardsTool() {
	wttr := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"current_condition":[{"temp_C":"29","FeelsLikeC":"33",
			"windspeedKmph":"56","precipMM":"3.1","uvIndex":"4","visibility":"8",
			"weatherDesc":[{"value":"Thundery outbreaks possible"}]}]}`)
	}))
	defer wttr.Close()

	tool := weather.NewHazardsTool(wttr.URL, wttr.Client())
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"location":"Miami"}`), nil)
	if err != nil {
		fmt.Println("tool error:", err)
		return
	}
	for _, h := range res.Output.(weather.HazardsOutput).Hazards {
		fmt.Printf("%s (%s): %s\n", h.Type, h.Severity, h.Description)
	}
	// Output:
	// thunderstorm (moderate): Thunderstorms: Thundery outbreaks possible
	// wind (moderate): Strong wind: 56 km/h
	// heat (moderate): Heat: feels like 33 °C
}

// The guide's supervisor delegates to its writer through the
// "agent-writer" tool. Scripted models stand in for real ones here; use
// a provider's model (e.g. openai.New) in a program.
func ExampleNewSupervisor() {
	writer, err := weather.NewWriter(mock.New(
		mock.Step{Text: "Fog spills over the hills at dusk."},
	))
	if err != nil {
		fmt.Println(err)
		return
	}
	supervisor, err := weather.NewSupervisor(mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"One line about fog."}`}}},
		mock.Step{Text: "Done: the writer wrote one line."},
	), writer)
	if err != nil {
		fmt.Println(err)
		return
	}
	var writerText, answer strings.Builder
	for c, err := range supervisor.Stream(context.Background(), "Write one line about fog.") {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch p := c.Payload.(type) {
		case stream.ToolOutputPayload: // one of the writer's own chunks
			inner := p.Output.(stream.Chunk)
			if tp, ok := inner.Payload.(stream.TextPayload); ok && inner.Type == stream.TypeTextDelta {
				writerText.WriteString(tp.Text)
			}
		case stream.ToolResultPayload: // {"text": ..., "finishReason": ..., ...}
			var res struct{ Text string }
			b, _ := json.Marshal(p.Result)
			_ = json.Unmarshal(b, &res)
			fmt.Printf("%s result text: %s\n", p.ToolName, res.Text)
		case stream.TextPayload:
			if c.Type == stream.TypeTextDelta {
				answer.WriteString(p.Text)
			}
		}
	}
	fmt.Println("writer streamed:", writerText.String())
	fmt.Println("supervisor:", answer.String())
	// Output:
	// agent-writer result text: Fog spills over the hills at dusk.
	// writer streamed: Fog spills over the hills at dusk.
	// supervisor: Done: the writer wrote one line.
}

// localWttr stands in for wttr.in in the examples below: a thunderstorm
// wherever you ask.
func localWttr() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"current_condition":[{"temp_C":"24","FeelsLikeC":"26",
			"windspeedKmph":"64","precipMM":"9.0","uvIndex":"1","visibility":"4",
			"weatherDesc":[{"value":"Moderate or heavy rain with thunder"}]}]}`)
	}))
}

// The guide's weather agent with both tools, on a scripted model that
// calls weatherTool, then hazardsTool, then answers.
func ExampleNewAgent() {
	wttr := localWttr()
	defer wttr.Close()
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{Name: "weatherTool", Args: `{"location":"Tulsa"}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{Name: "hazardsTool", Args: `{"location":"Tulsa"}`}}},
		mock.Step{Text: "Stay inside: a thunderstorm with gale-force wind."},
	)
	weatherAgent, err := weather.NewAgent(m,
		weather.NewWeatherTool(wttr.URL, wttr.Client()), weather.NewHazardsTool(wttr.URL, wttr.Client()))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := weatherAgent.Generate(context.Background(), "Should I go out in Tulsa?")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range out.Results() {
		fmt.Printf("%s: %s\n", r.ToolName, r.Result)
	}
	fmt.Println(out.FinishReason+":", out.Text)
	// Output:
	// weatherTool: {"location":"Tulsa","temperatureCelsius":24,"conditions":"Moderate or heavy rain with thunder"}
	// hazardsTool: {"location":"Tulsa","hazards":[{"type":"thunderstorm","severity":"severe","description":"Thunderstorms: Moderate or heavy rain with thunder"},{"type":"wind","severity":"moderate","description":"Strong wind: 64 km/h"},{"type":"precipitation","severity":"moderate","description":"Heavy precipitation: 9 mm"}]}
	// stop: Stay inside: a thunderstorm with gale-force wind.
}

// A client tool: the run stops at its call; the client runs it and sends
// the result back in a new request, which continues the run.
func Example_clientTool() {
	wttr := localWttr()
	defer wttr.Close()
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "userLocationTool", Args: `{}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{Name: "weatherTool", Args: `{"location":"Tulsa"}`}}},
		mock.Step{Text: "It is 24 °C and stormy in Tulsa."},
	)
	weatherAgent, err := weather.NewAgent(m,
		weather.NewWeatherTool(wttr.URL, wttr.Client()), weather.NewHazardsTool(wttr.URL, wttr.Client()))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	clientTools := agent.WithClientTools(tools.Set{"userLocationTool": weather.UserLocationTool})

	out, err := weatherAgent.Generate(ctx, "Weather here?", clientTools)
	if err != nil {
		fmt.Println(err)
		return
	}
	call := out.ClientToolCalls()[0]
	fmt.Printf("%s, pending %s, %d results\n", out.FinishReason, call.ToolName, len(out.Results()))

	// The browser answers; the client sends the conversation back.
	location := weather.UserLocation{Location: "Tulsa"}
	next, err := out.ContinueMessages(agent.ClientToolResult{ToolCallID: call.ToolCallID, Output: location})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err = weatherAgent.Generate(ctx, next, clientTools)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.FinishReason+":", out.Text)
	// Output:
	// tool-calls, pending userLocationTool, 0 results
	// stop: It is 24 °C and stormy in Tulsa.
}
