package agent

import (
	"github.com/gomastra/mastra/model"
)

// ingestToolResults applies the server tools' toModelOutput to the tool
// results a follow-up request carries (a client ran the tool and sends its
// result back): each successful json or text result of a tool this run
// knows, with a ToModelOutput, is replaced by the mapped output the model
// should see; error outputs are left alone. It returns new messages; the
// input is not modified.
func (r *run) ingestToolResults(msgs []model.Message) []model.Message {
	out := make([]model.Message, len(msgs))
	copy(out, msgs)
	for i, m := range out {
		if m.Role != model.RoleTool {
			continue
		}
		var parts []model.Part
		for _, p := range m.Content {
			if mapped, ok := r.mapIngested(p); ok {
				if parts == nil {
					parts = append([]model.Part(nil), m.Content...)
				}
				for j := range parts {
					if parts[j].ToolResult == p.ToolResult {
						parts[j] = mapped
					}
				}
			}
		}
		if parts != nil {
			out[i].Content = parts
		}
	}
	return out
}

func (r *run) mapIngested(p model.Part) (model.Part, bool) {
	tr := p.ToolResult
	if p.Type != model.MessageToolResult || tr == nil {
		return p, false
	}
	if tr.Output.Type != model.OutputJSON && tr.Output.Type != model.OutputText {
		return p, false
	}
	t := r.lookup(tr.ToolName)
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
