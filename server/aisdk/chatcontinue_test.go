package aisdk

import (
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

// TestChatRouteClientToolFollowUpOnThread: useChat on a memory thread
// resends the chat once the browser has the client tool's output (the
// assistant message with the call, now output-available). The thread
// already holds the call, so the model sees it once, answered:
// user, assistant, tool.
func TestChatRouteClientToolFollowUpOnThread(t *testing.T) {
	var mu sync.Mutex
	var prompts [][]model.Message
	app := newTestApp(t)
	ta, _ := app.GetAgent("textAgent")
	pick := tools.New(tools.Config[pickIn, pickOut]{ID: "pick"})
	a, err := agent.New(agent.Config{ID: "picker", Storage: ta.Storage(), Memory: &agent.MemoryOptions{}, Tools: tools.Set{"pick": pick},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			mu.Lock()
			prompts = append(prompts, req.Messages)
			mu.Unlock()
			for _, m := range req.Messages {
				if m.Role == model.RoleTool {
					return mock.Step{Text: "Good choice."}
				}
			}
			return mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pick", Args: `{"options":["a","b"]}`}}}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"picker": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}})
	const memory = `"memory":{"thread":"th-1","resource":"ada"}`
	for _, body := range []string{
		userChat("choose", ","+memory),
		`{"id":"chat-1",` + memory + `,"messages":[{"id":"msg-1","role":"user","parts":[{"type":"text","text":"choose"}]},` +
			`{"id":"m2","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-pick","toolCallId":"c1","state":"output-available","input":{"options":["a","b"]},"output":{"choice":"b"}}]}]}`,
	} {
		if status, b, _ := post(t, client, ts.URL+"/chat/picker", body); status != 200 {
			t.Fatalf("%d %s", status, b)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(prompts) != 2 {
		t.Fatalf("%d model calls", len(prompts))
	}
	var shape []string
	for _, msg := range prompts[1] {
		s := string(msg.Role)
		for _, p := range msg.Content {
			if p.ToolCall != nil {
				s += "[call:" + p.ToolCall.ToolCallID + "]"
			}
			if p.ToolResult != nil {
				s += "[result:" + p.ToolResult.ToolCallID + "]"
			}
		}
		shape = append(shape, s)
	}
	if got, want := strings.Join(shape, " "), "user assistant[call:c1] tool[result:c1]"; got != want {
		t.Errorf("second prompt:\n got  %s\n want %s", got, want)
	}
}
