package weather

import (
	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
	"github.com/gomastra/mastra/workflows"
)

// AppConfig configures the example application.
type AppConfig struct {
	// Model answers for every agent.
	Model model.LanguageModel
	// Storage keeps runs, threads and task lists (nil: in memory).
	Storage storage.Store
	// WeatherTool and HazardsTool default to the wttr.in ones.
	WeatherTool, HazardsTool *tools.Tool
}

// NewMastra is the example application as the dev server serves it: the
// guide's tools (weather, hazards, the built-ins ask_user and
// submit_plan), its weather agent (with memory and the task list when
// there is storage), the supervisor with its writer, and the activity
// workflow, which the weather agent may also call as
// "workflow-activityPlanning".
func NewMastra(cfg AppConfig) (*mastra.Mastra, error) {
	weatherTool, hazardsTool := cfg.WeatherTool, cfg.HazardsTool
	if weatherTool == nil {
		weatherTool = WeatherTool
	}
	if hazardsTool == nil {
		hazardsTool = HazardsTool
	}
	wf, err := NewActivityWorkflow(weatherTool)
	if err != nil {
		return nil, err
	}
	acfg := agent.Config{
		ID: AgentID, Name: "Weather Agent", Description: "Answers questions about the weather and its hazards", Instructions: Instructions, Model: cfg.Model,
		Tools:     tools.Set{"weatherTool": weatherTool, "hazardsTool": hazardsTool, "askUser": builtin.AskUserTool},
		Workflows: map[string]*workflows.Workflow{"activityPlanning": wf},
	}
	if cfg.Storage != nil {
		acfg.Storage, acfg.Memory = cfg.Storage, &agent.MemoryOptions{}
		acfg.Signals = []agent.Signal{builtin.NewTaskSignalProvider(cfg.Storage)}
	}
	weatherAgent, err := agent.New(acfg)
	if err != nil {
		return nil, err
	}
	writer, err := NewWriter(cfg.Model)
	if err != nil {
		return nil, err
	}
	supervisor, err := NewSupervisor(cfg.Model, writer)
	if err != nil {
		return nil, err
	}
	return mastra.New(mastra.Config{
		Tools: tools.Set{
			"weatherTool": weatherTool, "hazardsTool": hazardsTool,
			"askUserTool": builtin.AskUserTool, "submitPlanTool": builtin.SubmitPlanTool,
			"webFetchTool": builtin.WebFetchTool,
		},
		Agents:    map[string]*agent.Agent{"weatherAgent": weatherAgent, "supervisor": supervisor, "writer": writer},
		Workflows: map[string]*workflows.Workflow{"activityPlanning": wf},
	}), nil
}
