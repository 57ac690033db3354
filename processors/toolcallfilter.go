package processors

import (
	"context"
	"slices"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
)

// ToolCallFilterID is ToolCallFilter's processor id, Mastra's.
const ToolCallFilterID = "tool-call-filter"

// ToolCallFilter is Mastra's ToolCallFilter as a step processor: it takes
// the tool calls, and their results, out of the conversation history the
// model is given, to spare the context window the (often long) tool
// traffic of earlier turns. `new ToolCallFilter()` is NewToolCallFilter()
// (every tool's calls) and `new ToolCallFilter({exclude: ['a', 'b']})` is
// NewToolCallFilter("a", "b") (only those tools').
//
// As Mastra's, it filters the history only: the messages the run started
// from, which are the thread's recalled messages and the request's own
// input (an input that carries earlier tool calls has them filtered too).
// The calls the run makes itself, and their results, stay in every later
// step's prompt, so that the model sees what its calls returned.
// FilterAfterToolSteps changes that rule.
//
// A call and its results go together (they are dropped by call id, the
// call and every result of it), so the model is never sent a call without
// its result or a result without its call; a message left with nothing is
// dropped. System and user messages are never changed. Like every step
// processor it changes only the prompt of the step, never the run's
// history or what memory keeps.
type ToolCallFilter struct {
	// Exclude names the tools whose calls and results are filtered. Nil
	// filters every tool's; an empty, non-nil list none (Mastra's
	// `exclude: []`).
	Exclude []string
	// FilterAfterToolSteps, when set, replaces the history rule: the calls
	// (and results) of the latest *FilterAfterToolSteps assistant messages
	// that make tool calls are kept, whether from history or from the run,
	// and every earlier one is filtered (0 filters them all, the run's
	// own included). Mastra's filterAfterToolSteps.
	FilterAfterToolSteps *int
}

// NewToolCallFilter returns a filter of the named tools' calls and
// results; with no name, of every tool's.
func NewToolCallFilter(exclude ...string) *ToolCallFilter {
	return &ToolCallFilter{Exclude: exclude}
}

// ID returns "tool-call-filter".
func (f *ToolCallFilter) ID() string { return ToolCallFilterID }

// ProcessStep filters s.Messages.
func (f *ToolCallFilter) ProcessStep(_ context.Context, s *agent.StepInput) error {
	if f.Exclude != nil && len(f.Exclude) == 0 {
		return nil
	}
	msgs := s.Messages
	from := f.preservedFrom(msgs, s.StepNumber)
	excluded := map[string]bool{}
	for _, m := range msgs[:from] {
		if m.Role == model.RoleSystem || m.Role == model.RoleUser {
			continue
		}
		for _, p := range m.Content {
			if id, name, ok := toolPart(p); ok && (f.Exclude == nil || slices.Contains(f.Exclude, name)) {
				excluded[id] = true
			}
		}
	}
	if len(excluded) == 0 {
		return nil
	}
	out := make([]model.Message, 0, len(msgs))
	for i, m := range msgs {
		if m.Role == model.RoleSystem || m.Role == model.RoleUser {
			out = append(out, m)
			continue
		}
		if i < from {
			m, _ = m.KeepParts(func(p model.Part) bool {
				id, _, ok := toolPart(p)
				return !ok || !excluded[id]
			})
		}
		if len(m.Content) > 0 { // (Mastra drops every empty message once it has filtered)
			out = append(out, m)
		}
	}
	s.Messages = out
	return nil
}

// preservedFrom is the index of msgs from which nothing is filtered: the
// run's own messages (the latest step assistant messages: a run's step
// adds one, and a run goes on only after one), or those of the latest
// FilterAfterToolSteps tool steps.
func (f *ToolCallFilter) preservedFrom(msgs []model.Message, step int) int {
	n, toolSteps := step, false
	if f.FilterAfterToolSteps != nil {
		n, toolSteps = max(0, *f.FilterAfterToolSteps), true
	}
	if n == 0 {
		return len(msgs)
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != model.RoleAssistant || toolSteps && !slices.ContainsFunc(m.Content, isToolCall) {
			continue
		}
		if n--; n == 0 {
			return i
		}
	}
	return 0
}

func isToolCall(p model.Part) bool { return p.Type == model.MessageToolCall && p.ToolCall != nil }

// toolPart returns the call id and tool name of a tool call or result
// part.
func toolPart(p model.Part) (id, name string, ok bool) {
	switch {
	case p.Type == model.MessageToolCall && p.ToolCall != nil:
		return p.ToolCall.ToolCallID, p.ToolCall.ToolName, true
	case p.Type == model.MessageToolResult && p.ToolResult != nil:
		return p.ToolResult.ToolCallID, p.ToolResult.ToolName, true
	}
	return "", "", false
}
