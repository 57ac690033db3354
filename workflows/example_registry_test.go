package workflows_test

import (
	"fmt"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// emptyRegistry is a registry that holds nothing.
type emptyRegistry struct{}

func (emptyRegistry) GetTool(string) (*tools.Tool, error)     { return nil, nil }
func (emptyRegistry) GetToolByID(string) (*tools.Tool, error) { return nil, nil }

// A workflow's steps reach the registry given to UseRegistry as
// ctx.Mastra() (mastra.AddWorkflow calls it, for committed workflows
// only).
func ExampleWorkflow_UseRegistry() {
	w := workflows.New(workflows.Config{ID: "greet"}).Then(workflows.NewStep(workflows.StepConfig[Topic, Summary]{ID: "say",
		Execute: func(_ workflows.StepContext, in Topic) (Summary, error) {
			return Summary{Summary: "hi " + in.Topic}, nil
		}}))
	fmt.Println(w.Committed())
	if err := w.Commit(); err != nil {
		panic(err)
	}
	w.UseRegistry(emptyRegistry{})
	fmt.Println(w.Committed(), w.Registry() != nil)
	// Output:
	// false
	// true true
}
