package temporal_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

type numbers struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sum struct {
	Sum int `json:"sum"`
}

func TestSmokeToolLoop(t *testing.T) {
	var runs atomic.Int64
	add := tools.New(tools.Config[numbers, sum]{ID: "add", Description: "Adds.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		runs.Add(1)
		return sum{Sum: in.A + in.B}, nil
	}})
	store := newStore(t)
	m := mock.NewFunc(mock.ToolSteps(2, mock.ToolCall{Name: "add", Args: `{"a":1,"b":2}`}, mock.Step{Text: "The sum is 3."}))
	a, err := agent.New(agent.Config{ID: "adder", Name: "Adder", Instructions: "Add.", Model: m, Tools: tools.Set{"add": add}, Storage: store})
	if err != nil {
		t.Fatal(err)
	}
	reg := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"adder": a}})
	e := newEnv(t, reg, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var types []string
	for c, err := range e.client.Stream(ctx, temporal.RunInput{AgentKey: "adder", Messages: []model.Message{model.UserText("1+2, twice")}}) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, c.Type)
	}
	t.Log(types)
	if runs.Load() != 2 {
		t.Errorf("add ran %d times, want 2", runs.Load())
	}
}
