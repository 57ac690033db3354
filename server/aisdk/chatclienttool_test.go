package aisdk

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

type pickIn struct {
	Options []string `json:"options"`
}

type pickOut struct {
	Choice string `json:"choice"`
}

// TestChatRouteClientToolResultThroughToModelOutput: the browser ran an
// execute-less tool (useChat's addToolResult) and resends the chat with
// its output; the model sees the output through the tool's toModelOutput.
func TestChatRouteClientToolResultThroughToModelOutput(t *testing.T) {
	var prompt atomic.Pointer[[]model.Message]
	pick := tools.New(tools.Config[pickIn, pickOut]{ID: "pick",
		ToModelOutput: func(_ context.Context, out pickOut) (*model.ToolResultOutput, error) {
			o := model.TextOutput("the user picked " + out.Choice)
			return &o, nil
		}})
	a, err := agent.New(agent.Config{ID: "picker", Tools: tools.Set{"pick": pick},
		Model: mock.NewFunc(func(req *model.Request) mock.Step {
			msgs := req.Messages
			prompt.Store(&msgs)
			return mock.Step{Text: "Good choice."}
		})})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"picker": a}})
	ts, client := startServer(t, m, server.Options{Routes: []server.Route{ChatRoute(m, ChatRouteOptions{})}})
	body := `{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"choose"}]},` +
		`{"id":"m2","role":"assistant","parts":[{"type":"step-start"},{"type":"tool-pick","toolCallId":"c1","state":"output-available","input":{"options":["a","b"]},"output":{"choice":"b"}}]}]}`
	if status, b, _ := post(t, client, ts.URL+"/chat/picker", body); status != 200 {
		t.Fatalf("%d %s", status, b)
	}
	p := prompt.Load()
	if p == nil {
		t.Fatal("the model was not called")
	}
	var got *model.ToolResultOutput
	for _, msg := range *p {
		for _, part := range msg.Content {
			if part.ToolResult != nil {
				got = &part.ToolResult.Output
			}
		}
	}
	if got == nil || got.Type != model.OutputText || got.Value != "the user picked b" {
		t.Errorf("the model saw %+v", got)
	}
}
