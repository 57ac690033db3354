package weather

import (
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// AgentID is the weather agent's id.
const AgentID = "weather-agent"

// Instructions are the guide's instructions for the weather agent.
const Instructions = `You are a helpful weather assistant.
Use the weatherTool to fetch current weather data.`

// NewAgent returns the guide's weather agent: m answers, weatherTool
// (under the model-facing name "weatherTool") fetches the weather.
func NewAgent(m model.LanguageModel, weatherTool *tools.Tool) (*agent.Agent, error) {
	return agent.New(agent.Config{
		ID:           AgentID,
		Name:         "Weather Agent",
		Instructions: Instructions,
		Model:        m,
		Tools:        tools.Set{"weatherTool": weatherTool},
	})
}
