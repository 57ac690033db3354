package processors_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/processors/o200k"
)

func TestIDs(t *testing.T) {
	if id := processors.NewTokenLimiter(1).ID(); id != "token-limiter" {
		t.Errorf("TokenLimiter id %q", id)
	}
	if id := processors.NewToolCallFilter().ID(); id != "tool-call-filter" {
		t.Errorf("ToolCallFilter id %q", id)
	}
}

// With o200k.Counter the limiter counts OpenAI's tokens: "userHello,
// world!" is 5 of them (js-tiktoken's o200k_base agrees), plus 3.8.
func TestTokenLimiterWithO200k(t *testing.T) {
	tl := &processors.TokenLimiter{Limit: 100, Counter: o200k.Counter}
	for _, c := range []struct {
		m    model.Message
		want float64
	}{
		{model.UserText("Hello, world!"), 5 + 3.8},
		{model.System("You are a helpful assistant."), 7 + 3.8}, // "systemYou are a helpful assistant."
		{model.Assistant(model.ToolCall("c1", "weatherTool", json.RawMessage(`{"location": "Paris"}`))),
			// "assistantweatherTool{"location":"Paris"}": the input as
			// JSON.stringify writes it (no space), less 12.
			float64(o200k.Count(`assistantweatherTool{"location":"Paris"}`)) + 3.8 - 12},
	} {
		if got := tl.MessageTokens(c.m); got != c.want {
			t.Errorf("MessageTokens(%v) = %v, want %v", c.m, got, c.want)
		}
	}
}

// The limiter counts and sends a prompt without the halves of tool pairs
// the agent would leave out anyway (a call recalled without its result).
func TestTokenLimiterLeavesOutHalfPairs(t *testing.T) {
	tl := processors.NewTokenLimiter(1000)
	half := []model.Message{
		model.UserText("Weather?"),
		model.Assistant(model.Text("Asking the browser."), model.ToolCall("c1", "clientLocation", json.RawMessage(`{}`))),
		model.UserText("Never mind."),
	}
	whole := []model.Message{half[0], model.Assistant(model.Text("Asking the browser.")), half[2]}
	if got, want := tl.PromptTokens(half), tl.PromptTokens(whole); got != want {
		t.Errorf("PromptTokens = %v, want %v (the call left out)", got, want)
	}
	s := &agent.StepInput{Messages: half}
	if err := tl.ProcessStep(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole, s.Messages); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// NewToolCallFilter() filters every tool; an empty, non-nil Exclude none.
func TestToolCallFilterExclude(t *testing.T) {
	history := []model.Message{
		model.UserText("Weather?"),
		model.Assistant(model.ToolCall("c1", "weather", json.RawMessage(`{}`))),
		model.ToolMessage(model.ToolResultPart{ToolCallID: "c1", ToolName: "weather", Output: model.TextOutput("sunny")}),
		model.Assistant(model.Text("Sunny.")),
		model.UserText("Thanks"),
	}
	for _, c := range []struct {
		name string
		f    *processors.ToolCallFilter
		want int
	}{
		{"all", processors.NewToolCallFilter(), 3},
		{"named", processors.NewToolCallFilter("weather"), 3},
		{"other", processors.NewToolCallFilter("clock"), 5},
		{"none", processors.NewToolCallFilter([]string{}...), 5},
	} {
		s := &agent.StepInput{Messages: history}
		if err := c.f.ProcessStep(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		if len(s.Messages) != c.want {
			t.Errorf("%s: %d messages left, want %d", c.name, len(s.Messages), c.want)
		}
	}
}

// The run's own steps are the last StepNumber assistant messages,
// whatever came before them: calls carried in with the input are history.
// A step number past every assistant message (a prompt a processor cut
// short) filters nothing.
func TestToolCallFilterRunsOwnSteps(t *testing.T) {
	res := func(id string) model.Message {
		return model.ToolMessage(model.ToolResultPart{ToolCallID: id, ToolName: "weather", Output: model.TextOutput("sunny")})
	}
	callMsg := func(id string) model.Message {
		return model.Assistant(model.ToolCall(id, "weather", json.RawMessage(`{}`)))
	}
	prompt := []model.Message{
		model.UserText("Weather?"),
		callMsg("carried"), res("carried"), // a client tool's call, answered by the request
		callMsg("own1"), res("own1"),
		callMsg("own2"), res("own2"),
	}
	for _, c := range []struct {
		step int
		want []string
	}{
		{0, nil},
		{1, []string{"own2"}},
		{2, []string{"own1", "own2"}},
		{3, []string{"carried", "own1", "own2"}},
		{9, []string{"carried", "own1", "own2"}},
	} {
		s := &agent.StepInput{StepNumber: c.step, Messages: prompt}
		if err := processors.NewToolCallFilter().ProcessStep(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, m := range s.Messages {
			for _, p := range m.Content {
				if p.ToolCall != nil {
					ids = append(ids, p.ToolCall.ToolCallID)
				}
			}
		}
		if diff := cmp.Diff(c.want, ids); diff != "" {
			t.Errorf("step %d: calls kept (-want +got):\n%s", c.step, diff)
		}
		if got := len(s.Messages); got != 1+2*len(c.want) {
			t.Errorf("step %d: %d messages, want each call with its result", c.step, got)
		}
	}
}
