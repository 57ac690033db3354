package temporal_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

// A worker runs the registry's agents; a client starts a run and reads
// its chunks from the run's log in the agents' storage. In production
// the client dials your Temporal (client.Dial) and the workers run on
// other machines; here both dial the tests' server.
func ExampleNewClient() {
	tc := exampleTemporalClient()
	defer tc.Close()
	store, _ := sqlite.Open(context.Background(), sqlite.Memory)
	defer store.Close()
	greet := tools.New(tools.Config[struct{}, string]{ID: "greet", Description: "Greets.",
		Execute: func(tools.Context, struct{}) (string, error) { return "hello", nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "greet", Args: `{}`}}}, mock.Step{Text: "It said hello."})
	greeter, _ := agent.New(agent.Config{ID: "greeter", Name: "Greeter", Instructions: "Greet.", Model: m,
		Tools: tools.Set{"greet": greet}, Storage: store})
	app := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"greeter": greeter}})

	w, err := temporal.NewWorker(tc, "example", app, temporal.Options{})
	if err == nil {
		err = w.Start()
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Stop()
	c := temporal.NewClient(tc, "example", app)
	in := temporal.RunInput{AgentKey: "greeter", LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Greet me.")}}}
	for chunk, err := range c.Stream(context.Background(), in) {
		if err != nil {
			fmt.Println(err)
			return
		}
		if chunk.Type == "tool-result" || chunk.Type == "finish" {
			fmt.Println(chunk.Type)
		}
	}
	// Output:
	// tool-result
	// finish
}

// An app's main: `myapp` serves the API and starts runs on Temporal when
// MASTRA_ENGINE (or -engine) is temporal://host:port/namespace, and
// `myapp worker` runs them.
func ExampleServeOption() {
	build := func(ctx context.Context, env serve.Env) (*mastra.Mastra, error) {
		return mastra.New(mastra.Config{}), nil // your agents, on env.Storage
	}
	_ = func() { serve.Main(build, temporal.ServeOption(temporal.Options{})) }
}

func ExampleParseEngine() {
	e, _ := temporal.ParseEngine("temporal://127.0.0.1:7233/default?taskQueue=agents")
	fmt.Println(e.HostPort, e.Namespace, e.TaskQueue)
	// Output: 127.0.0.1:7233 default agents
}
