package app

import (
	"context"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/serve"
)

// TestModelFollowsPrompt: a tool call while the prompt has fewer tool
// results than toolSteps (ids counting up), the final text after.
func TestModelFollowsPrompt(t *testing.T) {
	m := NewModel(2)
	toolResult := model.ToolMessage(model.ToolResultPart{ToolCallID: "c", ToolName: "add"})
	cases := []struct {
		results  int
		wantCall string
	}{{0, "call-1"}, {1, "call-2"}, {2, ""}, {3, ""}}
	for _, c := range cases {
		req := &model.Request{Messages: []model.Message{model.UserText("hi")}}
		for range c.results {
			req.Messages = append(req.Messages, toolResult)
		}
		var call, text string
		for p, err := range m.Stream(context.Background(), req) {
			if err != nil {
				t.Fatal(err)
			}
			switch p.Type {
			case model.PartToolCall:
				call = p.ToolCallID
				if p.ToolName != "add" || p.Input != `{"a":2,"b":3}` {
					t.Errorf("tool call %s %s", p.ToolName, p.Input)
				}
			case model.PartTextDelta:
				text += p.Delta
			}
		}
		if call != c.wantCall {
			t.Errorf("%d results: call %q, want %q", c.results, call, c.wantCall)
		}
		if wantText := c.wantCall == ""; wantText != (text == FinalText) {
			t.Errorf("%d results: text %q", c.results, text)
		}
	}
	if len(m.Calls()) != 0 {
		t.Error("the model records its calls: its memory would grow under load")
	}
}

// TestBuildWithoutAgentStorage: by default calc-agent keeps its runs in
// the process, as the anchor's does.
func TestBuildWithoutAgentStorage(t *testing.T) {
	m, err := Build(context.Background(), serve.Env{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.GetAgent("calcAgent")
	if err != nil {
		t.Fatal(err)
	}
	if a.Storage() != nil {
		t.Error("calc-agent has storage")
	}
	if _, err := m.GetToolByID("add"); err != nil {
		t.Error(err)
	}
}
