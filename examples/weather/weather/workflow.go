package weather

import (
	"fmt"
	"strings"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// Plan is the activity workflow's result: the weather and what to do in
// it.
type Plan struct {
	Location   string   `json:"location"`
	Conditions string   `json:"conditions"`
	Activities []string `json:"activities"`
}

// NewActivityWorkflow is a workflow of two steps: the weather tool used
// as a step (its id, "weather-tool"), then "plan-activities", which
// suggests what to do in that weather. As an agent tool it is
// "workflow-<key>".
func NewActivityWorkflow(weatherTool *tools.Tool) (*workflows.Workflow, error) {
	if weatherTool == nil {
		weatherTool = WeatherTool
	}
	fetch, err := workflows.FromTool(weatherTool)
	if err != nil {
		return nil, err
	}
	plan := workflows.NewStep(workflows.StepConfig[Output, Plan]{
		ID:          "plan-activities",
		Description: "Suggests activities for the weather",
		Execute: func(_ workflows.StepContext, w Output) (Plan, error) {
			return Plan{Location: w.Location, Conditions: w.Conditions, Activities: activities(w)}, nil
		},
	})
	wf := workflows.New(workflows.Config{
		ID:          "activity-planning",
		Description: "Fetches the weather for a location and suggests activities for it",
		InputSchema: weatherTool.InputSchema(), OutputSchema: schema.MustFor[Plan](),
	}).Then(fetch).Then(plan)
	if err := wf.Commit(); err != nil {
		return nil, fmt.Errorf("weather: %w", err)
	}
	return wf, nil
}

// activities suggests what to do: indoors in rain, snow, storms or
// extreme temperatures; outdoors otherwise.
func activities(w Output) []string {
	c := strings.ToLower(w.Conditions)
	switch {
	case strings.Contains(c, "thunder"), strings.Contains(c, "storm"):
		return []string{"visit a museum", "see a film"}
	case strings.Contains(c, "rain"), strings.Contains(c, "drizzle"), strings.Contains(c, "shower"):
		return []string{"visit a museum", "find a café", "browse a bookshop"}
	case strings.Contains(c, "snow"), w.TemperatureCelsius <= 0:
		return []string{"go ice skating", "warm up in a café"}
	case w.TemperatureCelsius >= 32:
		return []string{"go for a swim", "stay in the shade in a park"}
	}
	return []string{"walk in a park", "ride a bike", "eat outdoors"}
}
