package mastra_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// agentWith is an agent holding set.
func agentWith(t testing.TB, id string, set tools.Set) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{ID: id, Model: mock.New(mock.Step{Text: "ok"}), Tools: set})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A tool given only to an agent is found by id through the registry, as
// Mastra registers agents' tools under their ids.
func TestGetToolByIDFindsAgentsTools(t *testing.T) {
	add, mul := newTool(t, "add"), newTool(t, "mul")
	m := mastra.New(mastra.Config{
		Tools:  tools.Set{"add": add},
		Agents: map[string]*agent.Agent{"calc": agentWith(t, "calc", tools.Set{"multiply": mul, "plus": add})},
	})
	if got, err := m.GetToolByID("mul"); err != nil || got != mul {
		t.Errorf("GetToolByID(mul) = %v, %v; want the agent's tool", idOf(got), err)
	}
	if got, err := m.GetToolByID("add"); err != nil || got != add {
		t.Errorf("GetToolByID(add) = %v, %v", idOf(got), err)
	}
	if _, err := m.GetToolByID("nope"); err == nil || err.Error() != "Tool with id nope not found" {
		t.Errorf("GetToolByID(nope) = %v", err)
	}
}

// AllTools lists the registry's tools, then the agents' (in agent key
// order, keyed by tool id), one entry per tool id.
func TestAllTools(t *testing.T) {
	add, mul, sub, other := newTool(t, "add"), newTool(t, "mul"), newTool(t, "sub"), newTool(t, "add")
	m := mastra.New(mastra.Config{Tools: tools.Set{"addTool": add}})
	for _, a := range []struct {
		key string
		set tools.Set
	}{
		{"zeta", tools.Set{"m": mul, "again": add}},
		{"alpha", tools.Set{"s": sub, "m": mul, "clash": other}},
	} {
		if err := m.AddAgent(agentWith(t, a.key, a.set), a.key); err != nil {
			t.Fatal(err)
		}
	}
	keys, set := m.AllTools()
	if diff := cmp.Diff([]string{"addTool", "mul", "sub"}, keys); diff != "" {
		t.Errorf("AllTools keys (-want +got):\n%s", diff)
	}
	if set["addTool"] != add || set["mul"] != mul || set["sub"] != sub || len(set) != 3 {
		t.Errorf("AllTools set = %v", ids(set))
	}
}
