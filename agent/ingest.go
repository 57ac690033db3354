package agent

import (
	"encoding/json"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// ingestToolResults applies the server tools' toModelOutput to the tool
// results a follow-up request carries (a client ran the tool and sends its
// result back): each successful json or text result of a tool this run
// knows, with a ToModelOutput, is replaced by the mapped output the model
// should see; error outputs are left alone. A client tool (WithClientTools)
// that takes the name of one of the agent's tools keeps that tool's
// ToModelOutput for this: the client runs the tool, the server decides
// what the model sees of its result. It returns new messages; the input is
// not modified.
//
// A result without the call's input gets it from the call (the input of
// the latest assistant tool call with its id, else {}), as Mastra reports
// every tool result with its call's input.
func (r *run) ingestToolResults(msgs []model.Message) []model.Message {
	mappers := modelOutputTools{run: r}
	out := make([]model.Message, len(msgs))
	copy(out, msgs)
	for i, m := range out {
		if m.Role != model.RoleTool {
			continue
		}
		var parts []model.Part
		for j, p := range m.Content {
			if tr := p.ToolResult; p.Type == model.MessageToolResult && tr != nil && len(tr.Input) == 0 {
				if parts == nil {
					parts = append([]model.Part(nil), m.Content...)
				}
				withInput := *tr
				withInput.Input = callInput(out[:i], tr.ToolCallID)
				parts[j].ToolResult = &withInput
				p = parts[j]
			}
			if mapped, ok := mappers.mapIngested(p); ok {
				if parts == nil {
					parts = append([]model.Part(nil), m.Content...)
				}
				parts[j] = mapped
			}
		}
		if parts != nil {
			out[i].Content = parts
		}
	}
	return out
}

// modelOutputTools finds the tool whose ToModelOutput maps an ingested
// result: the run's tool of that name, else, when a client tool shadows
// one of the agent's own, the agent's tool (the run's tools without the
// client tools, named once, when first needed).
type modelOutputTools struct {
	run    *run
	server *toolkit // nil until listed
}

func (m *modelOutputTools) lookup(name string) *tools.Tool {
	r := m.run
	if t := r.kit.lookup(name); t == nil || t.HasToModelOutput() || len(r.opts.clientTools) == 0 {
		return t
	}
	if m.server == nil {
		all, _ := r.agent.withClientTools(r.kit.own, nil)
		m.server = newToolkit(all, nil)
	}
	return m.server.lookup(name)
}

func (m *modelOutputTools) mapIngested(p model.Part) (model.Part, bool) {
	r := m.run
	tr := p.ToolResult
	if p.Type != model.MessageToolResult || tr == nil {
		return p, false
	}
	if tr.Output.Type != model.OutputJSON && tr.Output.Type != model.OutputText {
		return p, false
	}
	t := m.lookup(tr.ToolName)
	if t == nil || !t.HasToModelOutput() {
		return p, false
	}
	mo, err := t.ModelOutput(r.ctx, tr.ToolName, tr.Output.Value, nil)
	if err != nil || mo == nil {
		return p, false
	}
	mapped := *tr
	mapped.Output = *mo
	return model.Part{Type: model.MessageToolResult, ToolResult: &mapped}, true
}

// callInput is the input of the latest tool call toolCallID among msgs'
// assistant messages, or {}.
func callInput(msgs []model.Message, toolCallID string) json.RawMessage {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != model.RoleAssistant {
			continue
		}
		for _, p := range msgs[i].Content {
			if tc := p.ToolCall; p.Type == model.MessageToolCall && tc != nil && tc.ToolCallID == toolCallID && len(tc.Input) > 0 {
				return tc.Input
			}
		}
	}
	return json.RawMessage("{}")
}
