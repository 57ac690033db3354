package observational

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gomastra/mastra/model"
)

// stored is a thread message as the observer is shown it.
type stored struct {
	ID        string
	ThreadID  string
	CreatedAt time.Time
	Msg       model.Message
}

// line is one line of the observer's history (observer-agent.ts's
// ObserverFormattedLine).
type line struct{ date, time, title, body string }

// observerHistory is buildObserverHistoryMessage (observer-agent.ts) for
// gomastra's messages: a user message whose first part is the heading and
// then one text part per message, each line "Role (time): text", a date
// line where the date changes and the time only where it changes. A tool
// message's results join the assistant message that made the calls, as
// Mastra keeps calls and results in one message. Dates and times are in
// loc, as Mastra's are in the server's time zone.
func observerHistory(msgs []stored, loc *time.Location) model.Message {
	out := model.Message{Role: model.RoleUser, Content: []model.Part{model.Text("## New Message History to Observe\n\n")}}
	var groups [][]line
	for i, m := range msgs {
		ls := messageLines(m, loc)
		if m.Msg.Role == model.RoleTool && i > 0 && msgs[i-1].Msg.Role == model.RoleAssistant && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], ls...)
			continue
		}
		if m.Msg.Role == model.RoleTool && i > 0 && msgs[i-1].Msg.Role == model.RoleTool && len(groups) > 0 {
			groups[len(groups)-1] = append(groups[len(groups)-1], ls...)
			continue
		}
		groups = append(groups, ls)
	}
	var prevDate, prevTime string
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		var b []string
		for _, l := range g {
			if l.date != "" && l.date != prevDate {
				b = append(b, l.date+":")
				prevDate, prevTime = l.date, ""
			}
			label := ""
			if l.time != "" && l.time != prevTime {
				label = "(" + l.time + ")"
			}
			switch {
			case l.title == "" && label != "":
				b = append(b, label+": "+l.body)
			case l.title == "":
				b = append(b, l.body)
			case label != "":
				b = append(b, l.title+" "+label+": "+l.body)
			default:
				b = append(b, l.title+": "+l.body)
			}
			if l.time != "" {
				prevTime = l.time
			}
		}
		out.Content = append(out.Content, model.Text(strings.Join(b, "\n")))
	}
	return out
}

func messageLines(m stored, loc *time.Location) []line {
	t := m.CreatedAt.In(loc)
	date := fmt.Sprintf("%s %d %d", t.Format("Jan"), t.Day(), t.Year())
	clock := t.Format("3:04 PM")
	if m.CreatedAt.IsZero() {
		date, clock = "", ""
	}
	role := string(m.Msg.Role)
	if role != "" {
		role = strings.ToUpper(role[:1]) + role[1:]
	}
	var ls []line
	add := func(title, body string) {
		if body != "" {
			ls = append(ls, line{date, clock, title, body})
		}
	}
	for _, p := range m.Msg.Content {
		switch p.Type {
		case model.MessageText:
			add(role, p.Text)
		case model.MessageReasoning:
			add("Reasoning", p.Text)
		case model.MessageToolCall:
			if p.ToolCall != nil {
				add("Tool Call "+p.ToolCall.ToolName, toolArguments(p.ToolCall.Input))
			}
		case model.MessageToolResult:
			if r := p.ToolResult; r != nil {
				title, body := toolOutcome(r.Output)
				add(title+" "+r.ToolName, body)
			}
		case model.MessageImage:
			add("Image", "[Image]")
		case model.MessageFile:
			add("File", "[File]")
		}
	}
	return ls
}

// toolOutcome is the title and body of a tool result line: the result as
// JSON.stringify(value, null, 2) writes it (a string as it is).
func toolOutcome(o model.ToolResultOutput) (string, string) {
	title := "Tool Result"
	switch o.Type {
	case model.OutputErrorText, model.OutputErrorJSON:
		title = "Tool Error"
	case model.OutputExecutionDenied:
		reason := o.Reason
		if strings.TrimSpace(reason) == "" {
			reason = "Tool call was not approved by the user"
		}
		return "Tool Denied", reason
	}
	if s, ok := o.Value.(string); ok {
		if strings.TrimSpace(s) == "" {
			if title == "Tool Error" {
				return title, "Tool execution failed"
			}
			return title, "[empty result]"
		}
		return title, s
	}
	if o.Value == nil {
		return title, "[empty result]"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(o.Value) != nil {
		return title, fmt.Sprint(o.Value)
	}
	return title, strings.TrimSuffix(b.String(), "\n")
}
