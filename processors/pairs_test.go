package processors

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
)

func call(id, name string) model.Part {
	return model.ToolCall(id, name, json.RawMessage(`{}`))
}

func result(id, name string) model.Part {
	return model.ToolResult(id, name, model.TextOutput("ok"))
}

func tool(parts ...model.Part) model.Message {
	return model.Message{Role: model.RoleTool, Content: parts}
}

// agent.SentMessages leaves out what the agent would not send: calls without their
// result (a client tool's call recalled from memory), results without
// their call, empty tool messages.
func TestPairedDropsHalfPairs(t *testing.T) {
	provider := call("p", "web_search")
	provider.ToolCall.ProviderExecuted = true
	in := []model.Message{
		model.UserText("hi"),
		model.Assistant(model.Text("let me see"), call("a", "x"), call("b", "y"), provider),
		tool(result("a", "x")),
		tool(result("z", "x")), // no call of z
		model.Assistant(call("c", "x")),
		{Role: model.RoleTool, Content: []model.Part{}},
		tool(result("c", "x")),
		model.UserText("next"),
		tool(result("d", "x")), // after a user message
		model.Assistant(),      // empty, kept as the agent keeps it
	}
	want := []model.Message{
		model.UserText("hi"),
		model.Assistant(model.Text("let me see"), call("a", "x"), provider),
		tool(result("a", "x")),
		model.Assistant(call("c", "x")),
		tool(result("c", "x")),
		model.UserText("next"),
		model.Assistant(),
	}
	if diff := cmp.Diff(want, agent.SentMessages(in)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	whole := []model.Message{model.UserText("hi"), model.Assistant(call("a", "x")), tool(result("a", "x"))}
	if got := agent.SentMessages(whole); &got[0] != &whole[0] {
		t.Error("a prompt without halves is copied")
	}
}

// A call and the tool messages that answer it are one group; a tool
// message that answers none of its calls starts no group with it.
func TestGroups(t *testing.T) {
	msgs := []model.Message{
		model.System("s"),
		model.Assistant(call("a", "x"), call("b", "x")),
		tool(result("a", "x")),
		tool(result("b", "x")),
		model.Assistant(model.Text("done")),
		model.Assistant(call("c", "x")),
		tool(result("z", "x")),
	}
	want := [][2]int{{0, 1}, {1, 4}, {4, 5}, {5, 6}, {6, 7}}
	if diff := cmp.Diff(want, groups(msgs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
