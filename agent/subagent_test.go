package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func TestSubAgentAsTool(t *testing.T) {
	writerModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "w1", Name: "add", Args: `{"a":20,"b":1}`}}},
		mock.Step{Text: "A poem about 21."},
	)
	writer, err := New(Config{ID: "writer-agent", Description: "Writes short poems", Model: writerModel, Tools: tools.Set{"add": addTool()}, MaxSteps: 4})
	if err != nil {
		t.Fatal(err)
	}
	supervisorModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-writer", Args: `{"prompt":"write about 20+1","maxSteps":10}`}}},
		mock.Step{Text: "Here it is."},
	)
	supervisor := newAgent(t, supervisorModel, nil, func(c *Config) { c.Agents = map[string]*Agent{"writer": writer} })
	out, err := supervisor.Generate(context.Background(), "poem please")
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Here it is." {
		t.Fatalf("supervisor text %q", out.Text)
	}
	first := supervisorModel.Calls()[0]
	var agentTool *model.ToolDefinition
	for i := range first.Tools {
		if first.Tools[i].Name == "agent-writer" {
			agentTool = &first.Tools[i]
		}
	}
	if agentTool == nil || agentTool.Description != "Writes short poems" {
		t.Fatalf("agent-writer not offered: %+v", first.Tools)
	}
	// Inner chunks arrive as tool-output chunks of the agent tool.
	var inner []string
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolOutput {
			p := c.Payload.(stream.ToolOutputPayload)
			if p.ToolName != "agent-writer" {
				t.Errorf("tool-output from %s", p.ToolName)
			}
			inner = append(inner, p.Output.(stream.Chunk).Type)
		}
	}
	if !strings.Contains(strings.Join(inner, ","), "tool-result") || inner[len(inner)-1] != stream.TypeFinish {
		t.Errorf("inner chunks: %v", inner)
	}
	// The parent model sees only the sub-agent's text.
	second := supervisorModel.Calls()[1]
	got := second.Messages[len(second.Messages)-1].Content[0].ToolResult.Output
	if got.Type != model.OutputText || got.Value != "A poem about 21." {
		t.Errorf("the parent model saw %+v", got)
	}
	// The result carries the sub-agent's tool results.
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolResult {
			b, _ := json.Marshal(c.Payload.(stream.ToolResultPayload).Result)
			if !strings.Contains(string(b), `"subAgentToolResults":[{"toolName":"add"`) {
				t.Errorf("agent tool result %s", b)
			}
		}
	}
	// maxSteps from the model (10) is capped at the sub-agent's own (4).
	if len(writerModel.Calls()) != 2 {
		t.Errorf("writer model calls: %d", len(writerModel.Calls()))
	}
}

func TestSubAgentInputValidated(t *testing.T) {
	writer, _ := New(Config{ID: "w", Model: mock.New(mock.Step{Text: "x"})})
	tool := AgentTool("writer", writer)
	res, err := tool.Execute(context.Background(), json.RawMessage(`{"maxSteps":1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ve := res.ValidationError()
	if ve == nil || !strings.Contains(ve.Message, "- prompt: Invalid input: expected string, received undefined") ||
		!strings.Contains(ve.Message, "- maxSteps: Too small: expected number to be >=3") {
		t.Errorf("validation: %+v", res.Output)
	}
	if tool.Description() != "Agent: writer" {
		t.Errorf("default description %q", tool.Description())
	}
}
