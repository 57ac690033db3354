package mastra_test

import (
	"errors"
	"fmt"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type weatherIn struct {
	Location string `json:"location"`
}

type weatherOut struct {
	Conditions string `json:"conditions"`
}

func weatherTool() *tools.Tool {
	return tools.New(tools.Config[weatherIn, weatherOut]{
		ID:          "weather-tool",
		Description: "Fetches weather for a location",
		Execute: func(_ tools.Context, in weatherIn) (weatherOut, error) {
			return weatherOut{Conditions: "sunny in " + in.Location}, nil
		},
	})
}

func calculatorTool() *tools.Tool {
	return tools.New(tools.Config[struct {
		A int `json:"a"`
		B int `json:"b"`
	}, struct {
		Sum int `json:"sum"`
	}]{
		ID:          "calculator-tool",
		Description: "Adds two numbers",
	})
}

func ExampleNew() {
	m := mastra.New(mastra.Config{
		Tools: tools.Set{
			"weather":    weatherTool(),
			"calculator": calculatorTool(),
		},
	})

	// Keys are registered in sorted order.
	fmt.Println(m.ToolKeys())

	// Look a tool up by its registry key.
	t, err := m.GetTool("weather")
	fmt.Println(t.ID(), err)

	// The first registration under a key wins.
	_ = m.AddTool(calculatorTool(), "weather")
	t, _ = m.GetTool("weather")
	fmt.Println(t.ID())

	// Without a key, the tool's ID is the key.
	_ = m.AddTool(weatherTool(), "")
	fmt.Println(m.ToolKeys())

	// A missing tool is a *mastra.Error with Mastra's id, text and details.
	_, err = m.GetTool("search")
	var merr *mastra.Error
	if errors.As(err, &merr) {
		fmt.Println(merr.ID)
		fmt.Println(merr.Message)
		fmt.Println(merr.Details["tools"])
	}
	fmt.Println(errors.Is(err, mastra.ErrToolNotFound))

	// Output:
	// [calculator weather]
	// weather-tool <nil>
	// weather-tool
	// [calculator weather weather-tool]
	// MASTRA_GET_TOOL_BY_NAME_NOT_FOUND
	// Tool with name search not found
	// calculator, weather, weather-tool
	// true
}

func ExampleMastra_GetToolByID() {
	m := mastra.New(mastra.Config{
		Tools: tools.Set{"weather": weatherTool()},
	})

	// By the tool's own ID...
	t, _ := m.GetToolByID("weather-tool")
	fmt.Println(t.ID())

	// ...falling back to the registry key.
	t, _ = m.GetToolByID("weather")
	fmt.Println(t.ID())

	_, err := m.GetToolByID("calculator-tool")
	fmt.Println(err)
	fmt.Println(errors.Is(err, mastra.ErrToolNotFound))

	// Output:
	// weather-tool
	// weather-tool
	// Tool with id calculator-tool not found
	// true
}

// Agents and workflows are registered beside the tools, each under its
// own keys, and looked up the same way.
func ExampleMastra_GetAgent() {
	weatherAgent, err := agent.New(agent.Config{
		ID: "weather-agent", Instructions: "You are a helpful weather assistant.",
		Model: mock.New(mock.Step{Text: "Sunny."}),
		Tools: tools.Set{"weatherTool": weatherTool()},
	})
	if err != nil {
		panic(err)
	}
	report := workflows.NewStep(workflows.StepConfig[weatherIn, weatherOut]{ID: "report",
		Execute: func(_ workflows.StepContext, in weatherIn) (weatherOut, error) {
			return weatherOut{Conditions: "sunny in " + in.Location}, nil
		}})
	weatherWorkflow := workflows.New(workflows.Config{ID: "weather-workflow"}).Then(report)
	if err := weatherWorkflow.Commit(); err != nil {
		panic(err)
	}
	m := mastra.New(mastra.Config{
		Tools:     tools.Set{"weather": weatherTool()},
		Agents:    map[string]*agent.Agent{"weatherAgent": weatherAgent},
		Workflows: map[string]*workflows.Workflow{"weatherWorkflow": weatherWorkflow},
	})

	a, err := m.GetAgent("weatherAgent")
	fmt.Println(a.ID(), err)
	fmt.Println(m.AgentKeys(), m.WorkflowKeys())

	_, err = m.GetWorkflow("forecast")
	fmt.Println(err)
	fmt.Println(errors.Is(err, mastra.ErrWorkflowNotFound))

	// Output:
	// weather-agent <nil>
	// [weatherAgent] [weatherWorkflow]
	// Workflow with ID forecast not found
	// true
}
