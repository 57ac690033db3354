package agent

import "github.com/gomastra/mastra/model"

// withoutUnansweredCalls is a prompt with its half tool pairs left out,
// as Mastra sends prompts: an assistant message's tool call stays only
// with its result, in the same message or in the tool messages right
// after it (calls the provider executes stay in any case); a tool result
// stays only after the assistant message with its call. A message left
// with nothing is dropped. Such halves come from memory: a thread holds
// the calls of client tools, and of suspended tools, as they were made,
// and the results that answer them may come later, in another message,
// or never.
func withoutUnansweredCalls(msgs []model.Message) []model.Message {
	var out []model.Message
	changed := false
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == model.RoleTool {
			// Not after an assistant message (those are handled with it).
			m = keepParts(m, func(p model.Part) bool { return p.ToolResult == nil }, &changed)
			out = appendUnlessEmptied(out, m, msgs[i])
			continue
		}
		if m.Role != model.RoleAssistant {
			out = append(out, m)
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == model.RoleTool {
			end++
		}
		answered := answeredIDs(msgs[i:end])
		keep := func(p model.Part) bool {
			return p.ToolCall == nil || p.ToolCall.ProviderExecuted || answered[p.ToolCall.ToolCallID]
		}
		m = keepParts(m, keep, &changed)
		out = appendUnlessEmptied(out, m, msgs[i])
		called := calledIDs(msgs[i])
		for j := i + 1; j < end; j++ {
			tm := keepParts(msgs[j], func(p model.Part) bool { return p.ToolResult == nil || called[p.ToolResult.ToolCallID] }, &changed)
			out = appendUnlessEmptied(out, tm, msgs[j])
		}
		i = end - 1
	}
	if !changed {
		return msgs
	}
	return out
}

// answeredIDs are the ids of the tool calls the first of msgs (an
// assistant message) makes that msgs answer.
func answeredIDs(msgs []model.Message) map[string]bool {
	results := map[string]bool{}
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.ToolResult != nil {
				results[p.ToolResult.ToolCallID] = true
			}
		}
	}
	answered := map[string]bool{}
	for id := range calledIDs(msgs[0]) {
		if results[id] {
			answered[id] = true
		}
	}
	return answered
}

// calledIDs are the ids of the tool calls m makes.
func calledIDs(m model.Message) map[string]bool {
	ids := map[string]bool{}
	for _, p := range m.Content {
		if p.ToolCall != nil {
			ids[p.ToolCall.ToolCallID] = true
		}
	}
	return ids
}

// keepParts is m with only the parts keep accepts (m itself when it
// accepts them all); it sets *changed when it leaves a part out.
func keepParts(m model.Message, keep func(model.Part) bool, changed *bool) model.Message {
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
		return m
	}
	*changed = true
	m.Content = parts
	return m
}

// appendUnlessEmptied appends m unless leaving parts out of orig emptied
// it.
func appendUnlessEmptied(out []model.Message, m, orig model.Message) []model.Message {
	if len(m.Content) == 0 && len(orig.Content) > 0 {
		return out
	}
	return append(out, m)
}
