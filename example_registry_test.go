package mastra_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

type Question struct {
	Text string `json:"text"`
}

type Answer struct {
	Text string `json:"text"`
}

// A tool that asks another agent of its registry: FromContext is the
// registry the tool was reached through, typed.
func ExampleFromContext() {
	askExpert := tools.New(tools.Config[Question, Answer]{
		ID: "ask-expert", Description: "Asks the expert agent",
		Execute: func(ctx tools.Context, q Question) (Answer, error) {
			expert, err := mastra.FromContext(ctx).GetAgent("expert")
			if err != nil {
				return Answer{}, err
			}
			out, err := expert.Generate(ctx, q.Text)
			if err != nil {
				return Answer{}, err
			}
			return Answer{Text: out.Text}, nil
		},
	})
	expert, _ := agent.New(agent.Config{ID: "expert", Model: mock.New(mock.Step{Text: "42"})})
	front, _ := agent.New(agent.Config{ID: "front", Tools: tools.Set{"askExpert": askExpert},
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "askExpert", Args: `{"text":"the answer?"}`}}},
			mock.Step{Text: "The expert says 42."},
		)})
	m := mastra.New(mastra.Config{})
	for key, a := range map[string]*agent.Agent{"expert": expert, "front": front} {
		if err := m.AddAgent(a, key); err != nil {
			panic(err)
		}
	}
	out, err := front.Generate(context.Background(), "What is the answer?")
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Text)
	// Output:
	// The expert says 42.
}

// Tools given only to an agent are reachable through the registry.
func ExampleMastra_AllTools() {
	newTool := func(id string) *tools.Tool {
		return tools.New(tools.Config[Question, Answer]{ID: id, Description: id,
			Execute: func(_ tools.Context, q Question) (Answer, error) { return Answer(q), nil }})
	}
	search, echo := newTool("search"), newTool("echo")
	helper, _ := agent.New(agent.Config{ID: "helper", Model: mock.New(), Tools: tools.Set{"echoTool": echo, "searchTool": search}})
	m := mastra.New(mastra.Config{Tools: tools.Set{"search": search}, Agents: map[string]*agent.Agent{"helper": helper}})
	keys, _ := m.AllTools()
	fmt.Println(keys)
	t, err := m.GetToolByID("echo")
	fmt.Println(t.ID(), err)
	// Output:
	// [search echo]
	// echo <nil>
}
