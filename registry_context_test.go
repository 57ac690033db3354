package mastra_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type probeIn struct{}

type probeOut struct {
	Found string `json:"found"`
}

// probeTool looks the agent "helper" up through the registry it runs in
// and reports its id ("" when there is no registry).
func probeTool(t testing.TB) *tools.Tool {
	t.Helper()
	return tools.New(tools.Config[probeIn, probeOut]{
		ID: "probe",
		Execute: func(ctx tools.Context, _ probeIn) (probeOut, error) {
			m := mastra.FromContext(ctx)
			if m == nil {
				return probeOut{}, nil
			}
			a, err := m.GetAgent("helper")
			if err != nil {
				return probeOut{}, err
			}
			return probeOut{Found: a.ID()}, nil
		},
	})
}

func newHelper(t testing.TB) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{ID: "helper", Model: mock.New(mock.Step{Text: "hi"})})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// callsProbe is an agent whose model calls name once, then answers.
func callsProbe(t testing.TB, id, name string, cfg agent.Config) *agent.Agent {
	t.Helper()
	return callsWith(t, id, name, `{}`, cfg)
}

// callsWith is an agent whose model calls name with args once, then
// answers.
func callsWith(t testing.TB, id, name, args string, cfg agent.Config) *agent.Agent {
	t.Helper()
	cfg.ID = id
	cfg.Model = mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: name, Args: args}}},
		mock.Step{Text: "done"},
	)
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// foundHelper reports whether the agent's output holds the probe's
// answer "helper".
func foundHelper(t testing.TB, out *agent.Output) bool {
	t.Helper()
	return strings.Contains(string(mustJSON(t, out.ToolResults)), `"found":"helper"`)
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestToolsInAgentRunsReachTheRegistry(t *testing.T) {
	m := mastra.New(mastra.Config{})
	if err := m.AddAgent(newHelper(t), ""); err != nil {
		t.Fatal(err)
	}
	parent := callsProbe(t, "parent", "probe", agent.Config{Tools: tools.Set{"probe": probeTool(t)}})
	if err := m.AddAgent(parent, ""); err != nil {
		t.Fatal(err)
	}
	out, err := parent.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if !foundHelper(t, out) {
		t.Errorf("the agent's tool did not find the helper through its registry: %s", mustJSON(t, out.ToolResults))
	}
}

func TestToolsInSubAgentsReachTheParentsRegistry(t *testing.T) {
	m := mastra.New(mastra.Config{})
	if err := m.AddAgent(newHelper(t), ""); err != nil {
		t.Fatal(err)
	}
	sub := callsProbe(t, "sub", "probe", agent.Config{Description: "sub", Tools: tools.Set{"probe": probeTool(t)}})
	parent := callsWith(t, "parent", "agent-sub", `{"prompt":"go"}`, agent.Config{Agents: map[string]*agent.Agent{"sub": sub}})
	if err := m.AddAgent(parent, ""); err != nil {
		t.Fatal(err)
	}
	var found string
	for c, err := range parent.Stream(context.Background(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		// The sub-agent's tool-result chunk streams through as tool-output.
		if s := string(mustJSON(t, c)); found == "" && strings.Contains(s, `"found":"helper"`) {
			found = "helper"
		}
	}
	if found != "helper" {
		t.Errorf("the sub-agent's tool did not reach the parent's registry")
	}
}

func TestWorkflowStepsReachTheRegistry(t *testing.T) {
	m := mastra.New(mastra.Config{})
	if err := m.AddAgent(newHelper(t), ""); err != nil {
		t.Fatal(err)
	}
	step, err := workflows.FromTool(probeTool(t))
	if err != nil {
		t.Fatal(err)
	}
	wf := workflows.New(workflows.Config{ID: "wf", Description: "probes"}).Then(step)
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := m.AddWorkflow(wf, ""); err != nil {
		t.Fatal(err)
	}
	res, err := wf.CreateRun().Start(context.Background(), map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Result); got != `{"found":"helper"}` {
		t.Errorf("the step's tool returned %s, want {\"found\":\"helper\"}", got)
	}

	// The same workflow as an agent's workflow-<key> tool: its steps reach
	// the agent's registry.
	loose := workflows.New(workflows.Config{ID: "loose", Description: "probes"}).Then(step)
	if err := loose.Commit(); err != nil {
		t.Fatal(err)
	}
	parent := callsWith(t, "parent", "workflow-loose", `{"inputData":{}}`, agent.Config{Workflows: map[string]*workflows.Workflow{"loose": loose}})
	if err := m.AddAgent(parent, ""); err != nil {
		t.Fatal(err)
	}
	out, err := parent.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if !foundHelper(t, out) {
		t.Errorf("the workflow tool's step did not reach the agent's registry: %s", mustJSON(t, out.ToolResults))
	}
}

func TestFromContextWithoutRegistry(t *testing.T) {
	if m := mastra.FromContext(context.Background()); m != nil {
		t.Errorf("FromContext(Background) = %v, want nil", m)
	}
	res, err := probeTool(t).Execute(context.Background(), []byte(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Output.(probeOut).Found; got != "" {
		t.Errorf("a bare direct call found %q", got)
	}
}
