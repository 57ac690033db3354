package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

type lookupIn struct{}

type lookupOut struct {
	Found string `json:"found"`
}

// lookupTool reports the id of the agent "helper" found through the
// registry it runs in.
func lookupTool() *tools.Tool {
	return tools.New(tools.Config[lookupIn, lookupOut]{
		ID: "lookup", Description: "finds the helper agent",
		Execute: func(ctx tools.Context, _ lookupIn) (lookupOut, error) {
			m := mastra.FromContext(ctx)
			if m == nil {
				return lookupOut{}, nil
			}
			a, err := m.GetAgent("helper")
			if err != nil {
				return lookupOut{}, err
			}
			return lookupOut{Found: a.ID()}, nil
		},
	})
}

func newAgent(t *testing.T, cfg agent.Config) *agent.Agent {
	t.Helper()
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Tools run by an MCP server, directly or through an agent's ask_<key>
// tool, reach the registry the server serves.
func TestMCPToolsReachTheRegistry(t *testing.T) {
	helper := newAgent(t, agent.Config{ID: "helper", Description: "helps", Model: mock.New(mock.Step{Text: "hi"})})
	asker := newAgent(t, agent.Config{ID: "asker", Description: "asks", Tools: tools.Set{"lookup": lookupTool()},
		Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "lookup", Args: `{}`}}}, mock.Step{Text: "done"})})
	m := mastra.New(mastra.Config{Tools: tools.Set{"lookup": lookupTool()}, Agents: map[string]*agent.Agent{"helper": helper, "asker": asker}})
	for name, srv := range map[string]func() (*mcpserver.Server, error){
		"FromMastra": func() (*mcpserver.Server, error) {
			return mcpserver.FromMastra(m, mcpserver.Config{Name: "reg", Version: "1.0.0"})
		},
		// An agent the registry does not hold runs with the server's
		// registry.
		"New": func() (*mcpserver.Server, error) {
			loose := newAgent(t, agent.Config{ID: "asker", Description: "asks", Tools: tools.Set{"lookup": lookupTool()},
				Model: mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "lookup", Args: `{}`}}}, mock.Step{Text: "done"})})
			return mcpserver.New(mcpserver.Config{Name: "reg", Version: "1.0.0", Registry: m,
				Tools: tools.Set{"lookup": lookupTool()}, Agents: map[string]*agent.Agent{"asker": loose}})
		},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := srv()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			x, err := s.ExecuteTool(context.Background(), "lookup", []byte(`{}`), nil)
			if err != nil || string(x.Output) != `{"found":"helper"}` {
				t.Errorf("lookup: %v, %v", x, err)
			}
			x, err = s.ExecuteTool(context.Background(), "ask_asker", []byte(`{"message":"go"}`), nil)
			if err != nil || !strings.Contains(string(x.Output), `"found":"helper"`) {
				t.Errorf("ask_asker: the agent's tool did not reach the registry: %v", err)
			}
		})
	}
}
