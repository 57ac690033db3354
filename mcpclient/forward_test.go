package mcpclient

import (
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// TestAgentGetsForwardedInstructions: an agent offering a forwarding
// server's tools sends its instructions to the model as a system message
// after the agent's own; a server that does not forward adds nothing.
func TestAgentGetsForwardedInstructions(t *testing.T) {
	srv := newTestServer()
	c := newClient(t, Config{Servers: map[string]ServerConfig{
		"fwd":   {URL: httpServer(t, newTestServer()).URL, ForwardInstructions: true},
		"quiet": inMemory(srv),
	}})
	set := c.ListTools(ctxT(t))
	for _, tt := range []struct {
		name string
		set  tools.Set
		want []string
	}{
		{"forwarding", set, []string{"You add.", "## Guidance from MCP server \"fwd\"\n\nUse add for sums. Always be brief."}},
		{"not forwarding", tools.Set{"quiet_add": set["quiet_add"]}, []string{"You add."}},
	} {
		m := mock.New(mock.Step{Text: "ok"})
		a, err := agent.New(agent.Config{ID: "a", Instructions: "You add.", Model: m, Tools: tt.set})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Generate(ctxT(t), "2+2?"); err != nil {
			t.Fatal(err)
		}
		var system []string
		for _, msg := range m.Calls()[0].Messages {
			if msg.Role == model.RoleSystem {
				system = append(system, msg.TextContent())
			}
		}
		if len(system) != len(tt.want) {
			t.Fatalf("%s: system messages %q, want %q", tt.name, system, tt.want)
		}
		for i := range system {
			if system[i] != tt.want[i] {
				t.Errorf("%s: system message %d = %q, want %q", tt.name, i, system[i], tt.want[i])
			}
		}
	}
}
