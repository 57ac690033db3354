package temporal_test

import (
	"context"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/temporal"
)

// A sub-agent's run, on a worker whose agents launch their runs
// (NewWorker), is a workflow of its own whose id derives from the
// parent's call; the parent's answer is the sub-agent's.
func TestSubAgentRunIsAWorkflow(t *testing.T) {
	store := newStore(t)
	helper, err := agent.New(agent.Config{ID: "helper", Name: "Helper", Instructions: "Greet.", Description: "Greets.", Storage: store,
		Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "hi from helper"} })})
	if err != nil {
		t.Fatal(err)
	}
	parent, err := agent.New(agent.Config{ID: "parent", Name: "Parent", Instructions: "Delegate.", Storage: store,
		Agents: map[string]*agent.Agent{"helper": helper},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			if req.Messages[len(req.Messages)-1].Role == model.RoleTool {
				return mock.Step{Text: "Relayed."}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-helper", Args: `{"prompt":"Say hi."}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"helper": helper, "parent": parent}})
	ts := newServer(t)
	w, err := temporal.NewWorker(ts.GetDefaultClient(), "sub", m, temporal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := temporal.NewClient(ts.GetDefaultClient(), "sub", m)
	runID, err := c.Start(ctx, temporal.RunInput{AgentKey: "parent", LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Greet.")}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Result(ctx, runID)
	if err != nil || res.Text != "Relayed." {
		t.Fatalf("parent: %+v, %v", res, err)
	}
	sub, err := c.Result(ctx, uuid.Derived(runID, "agent-helper", "s1"))
	if err != nil || sub.Text != "hi from helper" {
		t.Fatalf("the sub-agent's workflow: %+v, %v", sub, err)
	}
}
