package server

import (
	"context"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// prompting is the scripted model that also keeps each call's messages.
type prompting struct {
	*scripted
	mu      sync.Mutex
	prompts [][]model.Message
}

func (m *prompting) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	m.mu.Lock()
	m.prompts = append(m.prompts, req.Messages)
	m.mu.Unlock()
	return m.scripted.Stream(ctx, req)
}

// lastToolOutput is the output of the last tool result the model saw.
func (m *prompting) lastToolOutput(t *testing.T) model.ToolResultOutput {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.prompts) == 0 {
		t.Fatal("the model was not called")
	}
	msgs := m.prompts[len(m.prompts)-1]
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Content {
			if p.ToolResult != nil {
				return p.ToolResult.Output
			}
		}
	}
	t.Fatal("no tool result in the prompt")
	return model.ToolResultOutput{}
}

// summedTool is the server's browserAdd: the client runs it; the model
// sees its result through toModelOutput.
func summedTool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "browserAdd", Description: "Add two integers in the browser",
		ToModelOutput: func(_ context.Context, out addOut) (*model.ToolResultOutput, error) {
			o := model.TextOutput("the browser says " + strings.Repeat("I", out.Sum))
			return &o, nil
		}})
}

// TestClientToolResultGoesThroughServerToModelOutput: a client ran a
// client tool and sends its result back on the agent routes; the server's
// tool of that name maps it for the model, whether or not the request
// declares the client tool again.
func TestClientToolResultGoesThroughServerToModelOutput(t *testing.T) {
	const plain = `{"messages":[` +
		`{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","result":{"sum":5}}]}]`
	const declared = `,"clientTools":{"browserAdd":{"id":"browserAdd","description":"Add"}}`
	for _, tt := range []struct{ name, path, body string }{
		{"generate", "/api/agents/calc-agent/generate", plain + "}"},
		{"generate, client tool declared", "/api/agents/calc-agent/generate", plain + declared + "}"},
		{"stream, client tool declared", "/api/agents/calc-agent/stream", plain + declared + "}"},
		{"stream, client-js UI messages", "/api/agents/calc-agent/stream", clientToolsFollowUp},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pm := &prompting{}
			f := newFixture(t,
				withModel(func(m *scripted) { m.toolName = "browserAdd"; pm.scripted = m }),
				withAgent(func(c *agent.Config) { c.Model = pm; c.Tools = tools.Set{"browserAdd": summedTool()} }))
			resp, body := f.do(t, "POST", tt.path, tt.body)
			if resp.StatusCode != 200 {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			got := pm.lastToolOutput(t)
			if got.Type != model.OutputText || got.Value != "the browser says IIIII" {
				t.Errorf("the model saw %+v", got)
			}
		})
	}
}
