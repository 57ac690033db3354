package aisdk

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
)

// TestChatRouteRegenerate drops the assistant message being regenerated:
// the model does not see it, and the answer reuses its id.
func TestChatRouteRegenerate(t *testing.T) {
	var prompt atomic.Pointer[[]model.Message]
	a, err := agent.New(agent.Config{ID: "echo", Model: mock.NewFunc(func(req *model.Request) mock.Step {
		msgs := req.Messages
		prompt.Store(&msgs)
		return mock.Step{Text: "again"}
	})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"echo": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}})
	body := `{"trigger":"regenerate-message","messageId":"msg-2","messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"Hi"}]},` +
		`{"id":"msg-2","role":"assistant","parts":[{"type":"text","text":"Old answer"}]}]}`
	_, _, frames := post(t, client, ts.URL+"/chat/echo", body)
	if s := ofType(frames, PartStart); len(s) != 1 || s[0]["messageId"] != "msg-2" {
		t.Errorf("start %v", s)
	}
	p := prompt.Load()
	if p == nil || len(*p) != 1 || (*p)[0].TextContent() != "Hi" {
		t.Errorf("the model saw %v", p)
	}
}

// TestChatRouteMemory: with a memory thread, a follow-up request resends
// the whole chat, and the model sees each earlier message once.
func TestChatRouteMemory(t *testing.T) {
	var prompt atomic.Pointer[[]model.Message]
	app := newTestApp(t)
	ta, _ := app.GetAgent("textAgent")
	a, err := agent.New(agent.Config{ID: "mem", Storage: ta.Storage(), Memory: &agent.MemoryOptions{},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			msgs := req.Messages
			prompt.Store(&msgs)
			return mock.Step{Text: "noted"}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"mem": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}})
	first := userChat("My name is Ada.", `,"memory":{"thread":"th-1","resource":"ada"}`)
	if status, b, _ := post(t, client, ts.URL+"/chat/mem", first); status != 200 {
		t.Fatalf("%d %s", status, b)
	}
	second := `{"memory":{"thread":"th-1","resource":"ada"},"messages":[` +
		`{"id":"m1","role":"user","parts":[{"type":"text","text":"My name is Ada."}]},` +
		`{"id":"m2","role":"assistant","parts":[{"type":"text","text":"noted"}]},` +
		`{"id":"m3","role":"user","parts":[{"type":"text","text":"What is my name?"}]}]}`
	if status, b, _ := post(t, client, ts.URL+"/chat/mem", second); status != 200 {
		t.Fatalf("%d %s", status, b)
	}
	var texts []string
	for _, msg := range *prompt.Load() {
		texts = append(texts, string(msg.Role)+":"+msg.TextContent())
	}
	want := "user:My name is Ada.|assistant:noted|user:What is my name?"
	if got := strings.Join(texts, "|"); got != want {
		t.Errorf("the model saw %s, want %s", got, want)
	}
}

func TestNewMessages(t *testing.T) {
	user := func(id string) UIMessage { return UIMessage{ID: id, Role: "user"} }
	step := UIPart{Type: "step-start"}
	call := UIPart{Type: "tool-locate", ToolCallID: "c1", State: StateOutputAvailable}
	text := UIPart{Type: "text", Text: "where are you?"}
	cases := []struct {
		name string
		in   []UIMessage
		want []UIMessage
	}{
		{"no assistant message", []UIMessage{user("u1")}, []UIMessage{user("u1")}},
		{"after the last answer", []UIMessage{user("u1"), {ID: "a1", Role: "assistant"}, user("u2")}, []UIMessage{user("u2")}},
		{"a continuation keeps the last step", []UIMessage{user("u1"), {ID: "a1", Role: "assistant", Parts: []UIPart{step, text, step, call}}},
			[]UIMessage{{ID: "a1", Role: "assistant", Parts: []UIPart{call}}}},
	}
	for _, tc := range cases {
		if diff := cmp.Diff(tc.want, newMessages(tc.in)); diff != "" {
			t.Errorf("%s:\n%s", tc.name, diff)
		}
	}
}
