package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// subAgentInputSchema is the model-facing input of agent-<key> tools
// (spec §4.6).
var subAgentInputSchema = mustFromJSON(`{
  "type": "object",
  "properties": {
    "prompt": {"type": "string"},
    "threadId": {"type": ["string", "null"]},
    "resourceId": {"type": ["string", "null"]},
    "instructions": {"type": ["string", "null"]},
    "maxSteps": {"type": ["integer", "null"], "minimum": 3}
  },
  "required": ["prompt"]
}`)

// SubAgentInput is what the model passes to an agent-<key> tool.
type SubAgentInput struct {
	Prompt       string  `json:"prompt"`
	ThreadID     *string `json:"threadId,omitempty"`
	ResourceID   *string `json:"resourceId,omitempty"`
	Instructions *string `json:"instructions,omitempty"`
	MaxSteps     *int    `json:"maxSteps,omitempty"`
}

// SubAgentToolResult is one tool result of the sub-agent's run.
type SubAgentToolResult struct {
	ToolName   string          `json:"toolName"`
	ToolCallID string          `json:"toolCallId"`
	Result     any             `json:"result"`
	Args       json.RawMessage `json:"args,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
}

// SubAgentOutput is an agent-<key> tool's result.
type SubAgentOutput struct {
	Text                string               `json:"text"`
	SubAgentToolResults []SubAgentToolResult `json:"subAgentToolResults,omitempty"`
	FinishReason        model.FinishReason   `json:"finishReason,omitempty"`
}

// AgentTool turns sub into the tool a parent agent offers as
// "agent-<key>": the model sends a prompt, the sub-agent runs (its chunks
// streamed through the parent as tool-output chunks, data-* chunks passed
// through as they are), and the model sees only the sub-agent's text. A
// model-given maxSteps is capped at the sub-agent's own; the sub-agent
// gets a copy of the request context.
func AgentTool(key string, sub *Agent) *tools.Tool {
	description := sub.cfg.Description
	if description == "" {
		description = "Agent: " + key
	}
	return tools.New(tools.Config[SubAgentInput, SubAgentOutput]{
		ID:          "agent-" + key,
		Description: description,
		InputSchema: subAgentInputSchema,
		MCP:         &tools.MCPOptions{ToolType: "agent"},
		ToModelOutput: func(_ context.Context, out SubAgentOutput) (*model.ToolResultOutput, error) {
			o := model.TextOutput(out.Text)
			return &o, nil
		},
		Execute: func(ctx tools.Context, in SubAgentInput) (SubAgentOutput, error) {
			opts := []Option{WithRequestContext(tools.NewRequestContext(ctx.RequestContext().All()))}
			if in.MaxSteps != nil && *in.MaxSteps < sub.cfg.MaxSteps {
				opts = append(opts, WithMaxSteps(*in.MaxSteps))
			}
			if in.Instructions != nil && *in.Instructions != "" {
				opts = append(opts, WithInstructions(*in.Instructions))
			}
			var out SubAgentOutput
			var text []byte
			for c, err := range sub.Stream(ctx, in.Prompt, opts...) {
				if err != nil {
					return SubAgentOutput{}, fmt.Errorf("[Agent:%s] - Failed agent tool execution for %s: %w", parentID(ctx), key, err)
				}
				if c.IsData() {
					if err := ctx.Writer().Custom(tools.DataChunk{Type: c.Type, Data: c.Data, ID: c.ID, Transient: c.Transient}); err != nil {
						return SubAgentOutput{}, err
					}
					continue
				}
				if err := ctx.Writer().Write(c); err != nil {
					return SubAgentOutput{}, err
				}
				switch p := c.Payload.(type) {
				case stream.TextPayload:
					if c.Type == stream.TypeTextDelta {
						text = append(text, p.Text...)
					}
				case stream.ToolResultPayload:
					out.SubAgentToolResults = append(out.SubAgentToolResults, SubAgentToolResult{ToolName: p.ToolName, ToolCallID: p.ToolCallID, Result: p.Result, Args: p.Args})
				case stream.ToolErrorPayload:
					out.SubAgentToolResults = append(out.SubAgentToolResults, SubAgentToolResult{ToolName: p.ToolName, ToolCallID: p.ToolCallID, Result: p.Error, Args: p.Args, IsError: true})
				}
				if c.Type == stream.TypeStepStart {
					text = text[:0]
				}
				if p, ok := c.Payload.(stream.FinishPayload); ok && c.Type == stream.TypeFinish {
					out.FinishReason = p.StepResult.Reason
				}
			}
			out.Text = string(text)
			return out, nil
		},
	})
}

func parentID(ctx tools.Context) string {
	if a := ctx.Agent(); a != nil {
		return a.AgentID
	}
	return ""
}

func mustFromJSON(s string) *schema.Compiled {
	c, err := schema.FromJSON([]byte(s))
	if err != nil {
		panic(err)
	}
	return c
}
