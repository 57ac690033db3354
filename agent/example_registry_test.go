package agent_test

import (
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// noRegistry is a registry that holds nothing.
type noRegistry struct{}

func (noRegistry) GetTool(string) (*tools.Tool, error)     { return nil, nil }
func (noRegistry) GetToolByID(string) (*tools.Tool, error) { return nil, nil }

// An agent's tools reach the registry given to UseRegistry as
// ctx.Mastra() (mastra.AddAgent calls it); StaticTools are what a
// registry finds on the agent by id.
func ExampleAgent_UseRegistry() {
	a, err := agent.New(agent.Config{ID: "helper", Model: mock.New(mock.Step{Text: "ok"})})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Registry() == nil, len(a.StaticTools()))
	a.UseRegistry(noRegistry{})
	fmt.Println(a.Registry() != nil)
	// Output:
	// true 0
	// true
}
