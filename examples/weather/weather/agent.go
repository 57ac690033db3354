package weather

import (
	"errors"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// AgentID is the weather agent's id.
const AgentID = "weather-agent"

// Instructions are the guide's instructions for the weather agent with
// both tools (its "multiple tools" section), without the template
// literal's indentation.
const Instructions = `You are a helpful weather assistant.
Use the weatherTool to fetch current weather data.
Use the hazardsTool to provide information about potential weather hazards.`

// NewAgent returns the guide's weather agent: m answers, weatherTool and
// hazardsTool (under the model-facing names "weatherTool" and
// "hazardsTool") fetch the weather and its hazards. A nil tool means the
// package's default ([WeatherTool], [HazardsTool]), which queries wttr.in.
func NewAgent(m model.LanguageModel, weatherTool, hazardsTool *tools.Tool) (*agent.Agent, error) {
	if weatherTool == nil {
		weatherTool = WeatherTool
	}
	if hazardsTool == nil {
		hazardsTool = HazardsTool
	}
	return agent.New(agent.Config{
		ID:           AgentID,
		Name:         "Weather Agent",
		Description:  "Answers questions about the weather and its hazards",
		Instructions: Instructions,
		Model:        m,
		Tools:        tools.Set{"weatherTool": weatherTool, "hazardsTool": hazardsTool},
	})
}

// NewWriter returns the guide's writer agent, the sub-agent of
// [NewSupervisor]; m answers.
func NewWriter(m model.LanguageModel) (*agent.Agent, error) {
	return agent.New(agent.Config{
		ID:           "writer",
		Name:         "Writer",
		Description:  "Drafts and edits written content",
		Instructions: "You are a skilled writer.",
		Model:        m,
	})
}

// NewSupervisor returns the guide's supervisor: m answers, and writer
// (made with [NewWriter]) is offered to it as the tool "agent-writer",
// whose description is the writer's. When the model calls it with a
// prompt, the writer runs; its chunks reach the supervisor's stream as
// tool-output chunks of that call, the call's result is
// {"text": <the writer's answer>, ...} and the model sees the text.
func NewSupervisor(m model.LanguageModel, writer *agent.Agent) (*agent.Agent, error) {
	if writer == nil {
		return nil, errors.New("weather: the supervisor needs a writer")
	}
	return agent.New(agent.Config{
		ID:           "supervisor",
		Name:         "Supervisor",
		Description:  "Coordinates the writer to produce content",
		Instructions: "Coordinate the writer to produce content.",
		Model:        m,
		Agents:       map[string]*agent.Agent{"writer": writer},
	})
}
