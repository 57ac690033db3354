package agent

import "github.com/gomastra/mastra/model"

// SentMessages returns msgs as a step sends them to the model: without
// the tool messages that hold no result, and without half tool pairs (see
// withoutUnansweredCalls). msgs itself is returned when nothing goes. A
// step processor that measures the prompt (a token limiter) measures
// these.
func SentMessages(msgs []model.Message) []model.Message {
	return withoutUnansweredCalls(withoutEmptyToolMessages(msgs))
}

// withoutUnansweredCalls is a prompt with its half tool pairs left out,
// as Mastra sends prompts: an assistant message's tool call stays only
// with its result, in the same message or in the tool messages right
// after it (calls the provider executes stay in any case); a tool result
// stays only after the assistant message with its call. A message left
// with nothing is dropped. Such halves come from memory: a thread holds
// the calls of client tools, and of suspended tools, as they were made,
// and the results that answer them may come later, in another message,
// or never. A prompt without halves is returned as it is.
func withoutUnansweredCalls(msgs []model.Message) []model.Message {
	b := prunedPrompt{src: msgs}
	for i := 0; i < len(msgs); i++ {
		if msgs[i].Role != model.RoleAssistant {
			if msgs[i].Role == model.RoleTool {
				// Not after an assistant message (those are handled with it).
				b.keep(i, func(p model.Part) bool { return p.ToolResult == nil })
			} else {
				b.keep(i, func(model.Part) bool { return true })
			}
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == model.RoleTool {
			end++
		}
		group := msgs[i:end]
		b.keep(i, func(p model.Part) bool {
			return p.ToolCall == nil || p.ToolCall.ProviderExecuted || hasResult(group, p.ToolCall.ToolCallID)
		})
		for j := i + 1; j < end; j++ {
			b.keep(j, func(p model.Part) bool { return p.ToolResult == nil || hasCall(group[0], p.ToolResult.ToolCallID) })
		}
		i = end - 1
	}
	if b.out == nil {
		return msgs
	}
	return b.out
}

// prunedPrompt is a prompt with parts left out, copied only from the
// first message that loses a part: out stays nil while none has.
type prunedPrompt struct {
	src []model.Message
	out []model.Message
}

// keep adds message i of the source with only the parts keep accepts,
// and without it when that leaves it empty.
func (b *prunedPrompt) keep(i int, keep func(model.Part) bool) {
	m, dropped := b.src[i].KeepParts(keep)
	if !dropped && b.out == nil {
		return
	}
	if b.out == nil {
		b.out = append(make([]model.Message, 0, len(b.src)), b.src[:i]...)
	}
	if len(m.Content) > 0 || len(b.src[i].Content) == 0 {
		b.out = append(b.out, m)
	}
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
