package processors

import "github.com/gomastra/mastra/model"

// paired returns msgs as the agent sends them to the model: without the
// tool messages that hold no result and without half tool pairs. A tool
// call stays only with its result, in its own message or in the tool
// messages right after it (calls the provider executes stay in any case);
// a tool result stays only after the assistant message with its call. A
// message left with nothing is dropped. msgs itself is returned when
// nothing goes.
func paired(msgs []model.Message) []model.Message {
	var out []model.Message // nil until a message changes
	keep := func(i int, m model.Message, changed bool) {
		if changed && out == nil {
			out = append(make([]model.Message, 0, len(msgs)), msgs[:i]...)
		}
		if out != nil && (!changed || len(m.Content) > 0) {
			out = append(out, m)
		}
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case model.RoleTool:
			// Not after an assistant message: its results answer nothing.
			kept, changed := keepParts(m, func(p model.Part) bool { return p.ToolResult == nil })
			keep(i, kept, changed || len(m.Content) == 0)
			continue
		case model.RoleAssistant:
		default:
			keep(i, m, false)
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == model.RoleTool {
			end++
		}
		group := msgs[i:end]
		kept, changed := keepParts(m, func(p model.Part) bool {
			return p.ToolCall == nil || p.ToolCall.ProviderExecuted || hasResult(group, p.ToolCall.ToolCallID)
		})
		keep(i, kept, changed)
		for j := i + 1; j < end; j++ {
			kept, changed := keepParts(msgs[j], func(p model.Part) bool {
				return p.ToolResult == nil || hasCall(m, p.ToolResult.ToolCallID)
			})
			keep(j, kept, changed || len(msgs[j].Content) == 0)
		}
		i = end - 1
	}
	if out == nil {
		return msgs
	}
	return out
}

// keepParts is m with only the parts keep accepts (m itself when it
// accepts them all), and whether it left any out.
func keepParts(m model.Message, keep func(model.Part) bool) (model.Message, bool) {
	var parts []model.Part
	for j, p := range m.Content {
		if keep(p) {
			if parts != nil {
				parts = append(parts, p)
			}
			continue
		}
		if parts == nil {
			parts = append(make([]model.Part, 0, len(m.Content)), m.Content[:j]...)
		}
	}
	if parts == nil {
		return m, false
	}
	m.Content = parts
	return m, true
}

// hasResult reports whether msgs hold a result of the tool call id.
func hasResult(msgs []model.Message, id string) bool {
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.ToolResult != nil && p.ToolResult.ToolCallID == id {
				return true
			}
		}
	}
	return false
}

// hasCall reports whether m makes the tool call id.
func hasCall(m model.Message, id string) bool {
	for _, p := range m.Content {
		if p.ToolCall != nil && p.ToolCall.ToolCallID == id {
			return true
		}
	}
	return false
}

// groups cuts msgs into the units TokenLimiter keeps or drops whole, as
// Mastra's groupPromptMessages does: an assistant message that makes tool
// calls with the tool messages right after it that answer them; every
// other message alone. Each group is a [start, end) range of msgs.
func groups(msgs []model.Message) [][2]int {
	var out [][2]int
	for i := 0; i < len(msgs); i++ {
		start := i
		if m := msgs[i]; m.Role == model.RoleAssistant {
			ids := map[string]bool{}
			for _, p := range m.Content {
				if p.Type == model.MessageToolCall && p.ToolCall != nil {
					ids[p.ToolCall.ToolCallID] = true
				}
			}
			for len(ids) > 0 && i+1 < len(msgs) && msgs[i+1].Role == model.RoleTool && answers(msgs[i+1], ids) {
				i++
			}
		}
		out = append(out, [2]int{start, i + 1})
	}
	return out
}

// answers reports whether tool message m holds a result of one of ids.
func answers(m model.Message, ids map[string]bool) bool {
	for _, p := range m.Content {
		if p.ToolResult != nil && ids[p.ToolResult.ToolCallID] {
			return true
		}
	}
	return false
}
