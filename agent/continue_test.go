package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

func roles(msgs []model.Message) []string {
	var rs []string
	for _, m := range msgs {
		rs = append(rs, string(m.Role))
	}
	return rs
}

// Without memory the continuation carries the question: the model sees
// it, then its call and the client's result (as client-js sends them).
func TestContinueMessages(t *testing.T) {
	var prompts [][]model.Message
	a := newAgent(t, clientModel(&prompts), nil)
	ctx := context.Background()
	first, err := a.Generate(ctx, "What is 2+3?", WithClientTools(browserAdd()))
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolCall{{ToolCallID: "call-1", ToolName: "browserAdd", Args: json.RawMessage(`{"a":2,"b":3}`)}}
	if d := cmp.Diff(want, first.ClientToolCalls()); d != "" {
		t.Fatalf("client tool calls (-want +got)\n%s", d)
	}
	msgs, err := first.ContinueMessages(ClientToolResult{ToolCallID: "call-1", Output: addOut{Sum: 5}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := a.Generate(ctx, msgs, WithClientTools(browserAdd()))
	if err != nil || second.Text != "The sum is 5." {
		t.Fatalf("second run: %v %q", err, second.Text)
	}
	if d := cmp.Diff([]string{"system", "user", "assistant", "tool"}, roles(prompts[1])); d != "" {
		t.Errorf("second prompt roles (-want +got)\n%s", d)
	}
	if got := messagesJSON(t, prompts[1][3:]); !strings.Contains(got, `"output":{"type":"json","value":{"sum":5}}`) {
		t.Errorf("the result the model sees: %s", got)
	}
	if n := len(second.ClientToolCalls()); n != 0 {
		t.Errorf("a finished run waits for %d client calls", n)
	}
	if _, err := second.ContinueMessages(); err == nil {
		t.Error("continuing a finished run")
	}
}

// With a memory thread the thread holds the question and the call: only
// the result is sent, and the model sees each once.
func TestContinueMessagesWithMemory(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var prompts [][]model.Message
	a := newAgent(t, clientModel(&prompts), nil, func(c *Config) { c.Storage, c.Memory = st, &MemoryOptions{} })
	opts := []Option{WithClientTools(browserAdd()), WithMemory("t-1", "alice")}
	first, err := a.Generate(ctx, "What is 2+3?", opts...)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := first.ContinueMessages(ClientToolResult{ToolCallID: "call-1", Output: addOut{Sum: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"tool"}, roles(msgs)); d != "" {
		t.Errorf("continuation (-want +got)\n%s", d)
	}
	second, err := a.Generate(ctx, msgs, opts...)
	if err != nil || second.Text != "The sum is 5." {
		t.Fatalf("second run: %v %q", err, second.Text)
	}
	if d := cmp.Diff([]string{"system", "user", "assistant", "tool"}, roles(prompts[1])); d != "" {
		t.Errorf("second prompt roles (-want +got)\n%s", d)
	}
}

func TestContinueMessagesErrors(t *testing.T) {
	var prompts [][]model.Message
	a := newAgent(t, clientModel(&prompts), nil)
	first, err := a.Generate(context.Background(), "What is 2+3?", WithClientTools(browserAdd()))
	if err != nil {
		t.Fatal(err)
	}
	for name, results := range map[string][]ClientToolResult{
		"no result":      nil,
		"an unknown id":  {{ToolCallID: "call-1", Output: 5}, {ToolCallID: "call-9", Output: 1}},
		"two for a call": {{ToolCallID: "call-1", Output: 5}, {ToolCallID: "call-1", Output: 6}},
	} {
		if _, err := first.ContinueMessages(results...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	msgs, err := first.ContinueMessages(ClientToolResult{ToolCallID: "call-1", Error: "the browser said no"})
	if err != nil {
		t.Fatal(err)
	}
	if got := messagesJSON(t, msgs[len(msgs)-1:]); !strings.Contains(got, `"output":{"type":"error-text","value":"the browser said no"}`) {
		t.Errorf("error result: %s", got)
	}
}

// Two rounds of client calls: each continuation carries the whole
// conversation so far, once.
func TestContinueMessagesTwoRounds(t *testing.T) {
	var prompts [][]model.Message
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		prompts = append(prompts, req.Messages)
		results := 0
		for _, msg := range req.Messages {
			for _, p := range msg.Content {
				if p.ToolResult != nil {
					results++
				}
			}
		}
		if results < 2 {
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", results+1), Name: "browserAdd", Args: `{"a":2,"b":3}`}}}
		}
		return mock.Step{Text: "Done."}
	})
	a := newAgent(t, m, nil)
	ctx := context.Background()
	out, err := a.Generate(ctx, "Add twice.", WithClientTools(browserAdd()))
	for round := 1; err == nil && out.FinishReason == model.FinishToolCalls; round++ {
		var msgs []model.Message
		if msgs, err = out.ContinueMessages(ClientToolResult{ToolCallID: fmt.Sprintf("call-%d", round), Output: addOut{Sum: 5}}); err != nil {
			t.Fatal(err)
		}
		out, err = a.Generate(ctx, msgs, WithClientTools(browserAdd()))
	}
	if err != nil || out.Text != "Done." {
		t.Fatalf("%v %q", err, out.Text)
	}
	want := []string{"system", "user", "assistant", "tool", "assistant", "tool"}
	if d := cmp.Diff(want, roles(prompts[len(prompts)-1])); d != "" {
		t.Errorf("last prompt roles (-want +got)\n%s", d)
	}
}
