package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/workflows"
)

type namedProcessor string

func (p namedProcessor) ID() string                                        { return string(p) }
func (namedProcessor) ProcessStep(context.Context, *agent.StepInput) error { return nil }

// The agent routes list an agent's sub-agents, workflows and processors
// as Mastra's formatAgent does.
func TestAgentInfoListsSubAgentsWorkflowsAndProcessors(t *testing.T) {
	writer, err := agent.New(agent.Config{ID: "writer-agent", Name: "Writer", Model: mock.New()})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, withAgent(func(c *agent.Config) {
		c.Agents = map[string]*agent.Agent{"writer": writer}
		c.Workflows = map[string]*workflows.Workflow{"approveWf": approvalWorkflow()}
		c.Processors = []agent.StepProcessor{namedProcessor("a"), namedProcessor("b")}
	}))
	for _, path := range []string{"/api/agents/calcAgent", "/api/agents"} {
		resp, body := f.do(t, "GET", path, "")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		var info struct {
			Agents          json.RawMessage `json:"agents"`
			Workflows       json.RawMessage `json:"workflows"`
			InputProcessors json.RawMessage `json:"inputProcessors"`
		}
		if path == "/api/agents" {
			var all map[string]json.RawMessage
			if err := json.Unmarshal(body, &all); err != nil {
				t.Fatal(err)
			}
			body = all["calc-agent"]
		}
		if err := json.Unmarshal(body, &info); err != nil {
			t.Fatal(err)
		}
		checks := []struct{ name, got, want string }{
			{"agents", string(info.Agents), `{"writer":{"id":"writer-agent","name":"Writer"}}`},
			{"workflows", string(info.Workflows), `{"approveWf":{"name":"approve-wf","steps":{"double":{"id":"double","description":"Doubles n"},"wait":{"id":"wait"}}}}`},
			{"inputProcessors", string(info.InputProcessors), `[{"id":"calc-agent-input-processor","name":"calc-agent-input-processor"}]`},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s %s:\n got  %s\n want %s", path, c.name, c.got, c.want)
			}
		}
	}
}
