package agent_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type WeatherInput struct {
	Location string `json:"location" jsonschema:"City name, e.g. San Francisco"`
}

type WeatherOutput struct {
	Location           string  `json:"location"`
	TemperatureCelsius float64 `json:"temperatureCelsius"`
	Conditions         string  `json:"conditions"`
}

// The guide's weather agent, run with a scripted model.
func ExampleAgent_Stream() {
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Name: "Weather Agent",
		Instructions: "You are a helpful weather assistant. Use the weatherTool to fetch current weather data.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "weatherTool", Args: `{"location":"Paris"}`}}},
			mock.Step{Text: "It is 21°C and sunny in Paris."},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
	})
	if err != nil {
		panic(err)
	}
	for chunk, err := range weatherAgent.Stream(context.Background(), "Weather in Paris?") {
		if err != nil {
			panic(err)
		}
		fmt.Println(chunk.Type)
	}
	// Output:
	// start
	// step-start
	// tool-call-input-streaming-start
	// tool-call-delta
	// tool-call-input-streaming-end
	// tool-call
	// tool-result
	// step-finish
	// step-start
	// text-start
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-delta
	// text-end
	// step-finish
	// finish
}

// A structured answer after a tool call: the model answers in JSON that
// matches the Go type, which GenerateObject decodes.
func ExampleGenerateObject() {
	type Forecast struct {
		City       string  `json:"city"`
		TempC      float64 `json:"tempC"`
		Conditions string  `json:"conditions"`
	}
	weatherTool := tools.New(tools.Config[WeatherInput, WeatherOutput]{
		ID: "weather-tool", Description: "Fetches weather for a location",
		Execute: func(ctx tools.Context, in WeatherInput) (WeatherOutput, error) {
			return WeatherOutput{Location: in.Location, TemperatureCelsius: 21, Conditions: "Sunny"}, nil
		},
	})
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Instructions: "You are a helpful weather assistant.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "weatherTool", Args: `{"location":"Paris"}`}}},
			mock.Step{Text: `{"city":"Paris","tempC":21,"conditions":"Sunny"}`},
		),
		Tools: tools.Set{"weatherTool": weatherTool},
	})
	if err != nil {
		panic(err)
	}
	forecast, out, err := agent.GenerateObject[Forecast](context.Background(), weatherAgent, "Weather in Paris?", agent.StructuredOutput{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v after %d steps\n", forecast, len(out.Steps))
	// Output:
	// {City:Paris TempC:21 Conditions:Sunny} after 2 steps
}

// A supervisor delegating to a writer: the writer is the tool
// "agent-writer", and the supervisor's model sees only its text.
func ExampleAgentTool() {
	writer, _ := agent.New(agent.Config{
		ID: "writer", Description: "Drafts and edits written content", Instructions: "You are a skilled writer.",
		Model: mock.New(mock.Step{Text: "Roses are red."}),
	})
	supervisor, _ := agent.New(agent.Config{
		ID: "supervisor", Instructions: "Coordinate the writer to produce content.",
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{Name: "agent-writer", Args: `{"prompt":"a two-word poem"}`}}},
			mock.Step{Text: "The writer says: Roses are red."},
		),
		Agents: map[string]*agent.Agent{"writer": writer},
	})
	out, err := supervisor.Generate(context.Background(), "Write me a poem.")
	if err != nil {
		panic(err)
	}
	fmt.Println(out.ToolCalls[0].Payload.(stream.ToolCallPayload).ToolName)
	fmt.Println(out.Text)
	// Output:
	// agent-writer
	// The writer says: Roses are red.
}
