package processors

import "github.com/gomastra/mastra/model"

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
