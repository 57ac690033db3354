package agent

import (
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// backgroundToolLine is one eligible tool as the system prompt lists it.
type backgroundToolLine struct {
	name        string
	disposition tools.Disposition // its default
}

// backgroundSystemPrompt is the text appended to the leading system
// message of a model call whose offered tools include eligible ones
// (Mastra's wording); "" when none is.
func backgroundSystemPrompt(eligible []backgroundToolLine) string {
	if len(eligible) == 0 {
		return ""
	}
	lines := make([]string, len(eligible))
	for i, e := range eligible {
		if e.disposition == tools.DispositionForeground {
			lines[i] = "- " + e.name + ` (default: foreground — opt in with "_background")`
		} else {
			lines[i] = "- " + e.name + " (default: background)"
		}
	}
	return `You have the ability to run certain tools in the background while continuing the conversation. The following tools support background execution:
` + strings.Join(lines, "\n") + `

For any of these tools, you can include a "_background" field in the tool arguments to override the default:
  "_background": { "disposition": "foreground" | "deferred" | "awaited", "timeoutMs": number, "maxRetries": number }

All fields in "_background" are optional. Only include what you want to override. Tools listed with "default: background" run in the background unless you set "disposition": "foreground". Tools listed with "default: foreground" run inline unless you explicitly request "deferred" or "awaited" — for those tools, omitting "_background" never starts background work.

Dispositions:
- "deferred": the tool runs in the background while you continue; you receive a placeholder result with a task ID and are notified when the task completes.
- "awaited": the tool runs as a durable background task but your run waits for its result before continuing.
- "foreground": the tool runs inline and returns its real result immediately.

Guidelines:
- Use background execution when the user doesn't need the result immediately, or when you're launching multiple independent tasks.
- Use foreground execution when the user is directly waiting for the result and the conversation can't continue without it.
- When a tool runs deferred, you'll receive a placeholder result with a task ID. You can reference this in your response to the user.

IMPORTANT: "_background" field is always an object. The fields in the _background field should be inside the _background object, not outside of it.`
}

// backgroundPlaceholder is the result the model gets for a call handed
// to a background task; verb is "started" or "resumed".
func backgroundPlaceholder(verb, taskID, toolName string) string {
	return "Background task " + verb + ". Task ID: " + taskID + `. The tool "` + toolName + `" is running in the background. You will be notified when it completes.`
}

// backgroundFailedResult is the result a failed task leaves in the
// conversation in place of its placeholder.
func backgroundFailedResult(message string) string {
	if message == "" {
		message = "Unknown error"
	}
	return "Background task failed: " + message
}

// withBackgroundField is s (a tool's model-facing input schema, not
// modified) with the optional "_background" property added last.
func withBackgroundField(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		s = &jsonschema.Schema{Type: "object"}
	}
	out := *s
	out.Properties = maps.Clone(s.Properties)
	if out.Properties == nil {
		out.Properties = map[string]*jsonschema.Schema{}
	}
	out.Properties[backgroundKey] = backgroundField.JSONSchema()
	if len(s.PropertyOrder) > 0 {
		out.PropertyOrder = append(append([]string(nil), s.PropertyOrder...), backgroundKey)
	}
	return &out
}

// endedTask is a background call whose task ended (or suspended), as a
// continuation turn tells the model of it: the chunk type that ended it
// and the call.
type endedTask struct {
	chunkType            string
	toolCallID, toolName string
}

// continuationDirective is the user message a continuation turn sends
// the model: which of its background calls ended, and how (Mastra's
// wording).
func continuationDirective(ended []endedTask) string {
	var completed, failed, cancelled, suspended []string
	for _, e := range ended {
		if e.toolCallID == "" {
			continue
		}
		entry := e.toolCallID
		if e.toolName != "" {
			entry += " (" + e.toolName + ")"
		}
		switch e.chunkType {
		case bgCompleted:
			completed = append(completed, entry)
		case bgFailed:
			failed = append(failed, entry)
		case bgCancelled:
			cancelled = append(cancelled, entry)
		case bgSuspended:
			suspended = append(suspended, entry)
		}
	}
	var d strings.Builder
	if len(completed) > 0 {
		d.WriteString(" IMPORTANT: The following tool-call IDs completed successfully: " + strings.Join(completed, ", ") + ". Their results are now in the conversation. Do not call the same tool again — the result is already available. ")
	}
	if len(failed) > 0 {
		d.WriteString(" IMPORTANT: The following tool-call IDs failed: " + strings.Join(failed, ", ") + ". Their failure information is now in the conversation. Do not retry these tools unless the user explicitly requests it. ")
	}
	if len(cancelled) > 0 {
		d.WriteString(" IMPORTANT: The following tool-call IDs were cancelled by the user before completion: " + strings.Join(cancelled, ", ") + ". These tasks do not have results. Do not treat them as completed and do not call the same tool again unless the user explicitly requests it. ")
	}
	if len(suspended) > 0 {
		d.WriteString(" IMPORTANT: The following tool-call IDs are suspended: " + strings.Join(suspended, ", ") + ". Do not attempt to resume them; let the user know they are waiting for explicit resume input.")
	}
	return strings.TrimSpace(d.String())
}

// The chunk types of a background task's life (Mastra's names).
const (
	bgStarted   = "background-task-started"
	bgCompleted = "background-task-completed"
	bgFailed    = "background-task-failed"
	bgCancelled = "background-task-cancelled"
	bgSuspended = "background-task-suspended"
)

// withBackgroundPrompt is messages with the background-task system
// prompt appended to the leading system message (as Mastra does: not
// when the conversation does not start with one), when the step offers
// eligible tools.
func (r *run) withBackgroundPrompt(messages []model.Message) []model.Message {
	if len(messages) == 0 || messages[0].Role != model.RoleSystem || r.agent.background.get() == nil {
		return messages
	}
	var eligible []backgroundToolLine
	for _, name := range r.kit.order {
		if t := r.kit.active[name]; r.backgroundEligible(name, t) {
			eligible = append(eligible, backgroundToolLine{name, r.agent.cfg.Background.defaultDisposition(name, t)})
		}
	}
	prompt := backgroundSystemPrompt(eligible)
	if prompt == "" {
		return messages
	}
	out := slices.Clone(messages)
	sys := out[0]
	sys.Content = slices.Clone(sys.Content)
	if n := len(sys.Content); n > 0 && sys.Content[n-1].Type == model.MessageText {
		sys.Content[n-1].Text += "\n\n" + prompt
	} else {
		sys.Content = append(sys.Content, model.Text("\n\n"+prompt))
	}
	out[0] = sys
	return out
}
