package agent

import (
	"slices"

	"github.com/gomastra/mastra/model"
)

// newToThread is what of a request's input a memory thread that already
// holds messages does not hold yet, as Mastra keeps it: a client on a
// thread may send the whole conversation, or the previous response back
// with the results of the client tools it ran, and the thread has all of
// it but the latest turn.
//
//   - When a user message ends the input, the messages after the last
//     assistant or tool message are kept.
//   - When an assistant or tool message ends it, only the trailing tool
//     calls of the last assistant message that the tool messages after it
//     answer are kept, with their results (or, without an assistant
//     message, the trailing tool messages); when there are none, the
//     input is kept whole.
//
// System messages are always kept.
func newToThread(msgs []model.Message) []model.Message {
	last := -1
	for i, m := range msgs {
		if m.Role != model.RoleSystem {
			last = i
		}
	}
	if last < 0 {
		return msgs
	}
	var tail []model.Message
	from := len(msgs)
	switch msgs[last].Role {
	case model.RoleUser:
		from = 0
		for i, m := range msgs {
			if m.Role == model.RoleAssistant || m.Role == model.RoleTool {
				from = i + 1
			}
		}
	case model.RoleAssistant, model.RoleTool:
		if tail = answeredTail(msgs); tail == nil {
			return msgs
		}
	default:
		return msgs
	}
	out := make([]model.Message, 0, len(msgs))
	for i, m := range msgs {
		if m.Role == model.RoleSystem || i >= from {
			out = append(out, m)
		}
	}
	return append(out, tail...)
}

// answeredTail is the end of an input that continues after client tools:
// the last assistant message's trailing calls that the tool messages
// after it answer, and those results; without an assistant message after
// the last user message, the trailing tool messages. Nil when there is
// nothing of the kind.
func answeredTail(msgs []model.Message) []model.Message {
	a := -1
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role != model.RoleUser; i-- {
		if msgs[i].Role == model.RoleAssistant {
			a = i
			break
		}
	}
	if a < 0 {
		var tools []model.Message
		for i := len(msgs) - 1; i >= 0 && msgs[i].Role != model.RoleUser; i-- {
			if msgs[i].Role == model.RoleTool {
				tools = append([]model.Message{msgs[i]}, tools...)
			}
		}
		return tools
	}
	results := map[string]model.Part{}
	var order []string
	for _, m := range msgs[a+1:] {
		for _, p := range m.Content {
			if m.Role != model.RoleTool || p.ToolResult == nil {
				continue
			}
			if _, seen := results[p.ToolResult.ToolCallID]; !seen {
				order = append(order, p.ToolResult.ToolCallID)
			}
			results[p.ToolResult.ToolCallID] = p
		}
	}
	calls := trailingAnsweredCalls(msgs[a], results)
	if len(calls) == 0 {
		return nil
	}
	assistant := msgs[a]
	assistant.Content = calls
	tool := model.Message{Role: model.RoleTool}
	for _, id := range order {
		if hasCall(assistant, id) {
			tool.Content = append(tool.Content, results[id])
		}
	}
	return []model.Message{assistant, tool}
}

// trailingAnsweredCalls are the tool calls at the end of m (an assistant
// message) that results answers, in order.
func trailingAnsweredCalls(m model.Message, results map[string]model.Part) []model.Part {
	from := len(m.Content)
	for from > 0 {
		p := m.Content[from-1]
		if p.ToolCall == nil {
			break
		}
		if _, ok := results[p.ToolCall.ToolCallID]; !ok {
			break
		}
		from--
	}
	return slices.Clone(m.Content[from:])
}
