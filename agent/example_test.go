package agent_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
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
