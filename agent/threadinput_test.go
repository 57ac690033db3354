package agent

import (
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
)

// shapeOf is msgs as "role[part,…]" words: t text, c:id call, r:id
// result, p:id provider-executed call.
func shapeOf(msgs []model.Message) string {
	var out []string
	for _, m := range msgs {
		var parts []string
		for _, p := range m.Content {
			switch {
			case p.ToolCall != nil && p.ToolCall.ProviderExecuted:
				parts = append(parts, "p:"+p.ToolCall.ToolCallID)
			case p.ToolCall != nil:
				parts = append(parts, "c:"+p.ToolCall.ToolCallID)
			case p.ToolResult != nil:
				parts = append(parts, "r:"+p.ToolResult.ToolCallID)
			default:
				parts = append(parts, "t")
			}
		}
		out = append(out, string(m.Role)+"["+strings.Join(parts, ",")+"]")
	}
	return strings.Join(out, " ")
}

var (
	sys       = model.System("s")
	user      = model.UserText("u")
	text      = model.Assistant(model.Text("a"))
	callPart  = func(id string) model.Part { return model.ToolCall(id, "t", []byte(`{}`)) }
	call      = func(ids ...string) model.Message { return withCalls(model.Assistant(), ids) }
	result    = func(ids ...string) model.Message { return withResults(model.Message{Role: model.RoleTool}, ids) }
	withCalls = func(m model.Message, ids []string) model.Message {
		for _, id := range ids {
			m.Content = append(m.Content, callPart(id))
		}
		return m
	}
	withResults = func(m model.Message, ids []string) model.Message {
		for _, id := range ids {
			m.Content = append(m.Content, model.ToolResult(id, "t", model.JSONOutput(nil)))
		}
		return m
	}
)

func TestNewToThread(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   []model.Message
		want string
	}{
		{"a new question", []model.Message{user}, "user[t]"},
		{"the whole conversation, then a question",
			[]model.Message{sys, user, call("1"), result("1"), text, user}, "system[t] user[t]"},
		{"the last response back with a client result",
			[]model.Message{call("1"), result("1")}, "assistant[c:1] tool[r:1]"},
		{"text before the answered calls is the thread's",
			[]model.Message{withCalls(model.Assistant(model.Text("a")), []string{"1", "2"}), result("2", "1")}, "assistant[c:1,c:2] tool[r:2,r:1]"},
		{"earlier steps are the thread's",
			[]model.Message{call("1"), result("1"), call("2"), {Role: model.RoleTool}, result("2")}, "assistant[c:2] tool[r:2]"},
		{"only the trailing answered calls",
			[]model.Message{call("1", "2"), result("2")}, "assistant[c:2] tool[r:2]"},
		{"a call left unanswered last keeps all",
			[]model.Message{call("1", "2"), result("1")}, "assistant[c:1,c:2] tool[r:1]"},
		{"results alone", []model.Message{user, result("1")}, "tool[r:1]"},
		{"an answer last keeps all", []model.Message{user, text}, "user[t] assistant[t]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := shapeOf(newToThread(tt.in)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestWithoutUnansweredCalls(t *testing.T) {
	provider := call("p")
	provider.Content[0].ToolCall.ProviderExecuted = true
	for _, tt := range []struct {
		name string
		in   []model.Message
		want string
	}{
		{"answered", []model.Message{user, call("1"), result("1"), text}, "user[t] assistant[c:1] tool[r:1] assistant[t]"},
		{"answered over two tool messages", []model.Message{call("1", "2"), result("1"), result("2")}, "assistant[c:1,c:2] tool[r:1] tool[r:2]"},
		{"a thread's client call, then the same call answered",
			[]model.Message{user, call("1"), call("1"), result("1")}, "user[t] assistant[c:1] tool[r:1]"},
		{"an unanswered call beside text", []model.Message{withCalls(model.Assistant(model.Text("a")), []string{"1"}), user}, "assistant[t] user[t]"},
		{"a result without its call", []model.Message{user, result("1"), call("2"), result("1", "2")}, "user[t] assistant[c:2] tool[r:2]"},
		{"a provider-executed call stays", []model.Message{provider, user}, "assistant[p:p] user[t]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := shapeOf(withoutUnansweredCalls(tt.in)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
