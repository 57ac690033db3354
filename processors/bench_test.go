package processors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/processors/o200k"
)

// history100 is a conversation of 100 messages (25 turns of a question, a
// tool call, its JSON result and an answer; 30 KB as JSON), after a
// system message.
func history100() []model.Message {
	msgs := []model.Message{model.System("You are a travel assistant. Answer with the facts the tools give you, briefly.")}
	for i := range 25 {
		city := fmt.Sprintf("City%d", i)
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			model.UserText(fmt.Sprintf("What is the weather like in %s this week, and should I pack an umbrella, a coat or sunscreen for a four-day trip with two children? %s",
				city, strings.Repeat("We like museums, parks and long walks. ", 3))),
			model.Assistant(model.ToolCall(id, "weatherTool", json.RawMessage(fmt.Sprintf(`{"location":%q,"days":4,"units":"metric"}`, city)))),
			model.ToolMessage(model.ToolResultPart{ToolCallID: id, ToolName: "weatherTool", Output: model.JSONOutput(json.RawMessage(fmt.Sprintf(
				`{"location":%q,"forecast":[{"day":1,"high":21.5,"low":12,"conditions":"sunny"},{"day":2,"high":19,"low":11.5,"conditions":"showers"},{"day":3,"high":17,"low":10,"conditions":"rain"},{"day":4,"high":22,"low":13,"conditions":"partly cloudy"}],"advice":"Pack layers."}`, city)))}),
			model.Assistant(model.Text(fmt.Sprintf("In %s it will be sunny on day one, with showers on day two and rain on day three, clearing on day four. Highs range from 17 to 22 °C. Pack an umbrella and a light coat; sunscreen for the first and last days. %s",
				city, strings.Repeat("Museums are a good plan for the rainy days. ", 2)))),
		)
	}
	return msgs
}

// BenchmarkPromptTokens counts a 100-message history as TokenLimiter
// does at each step: with Mastra's estimate, and with o200k_base.
func BenchmarkPromptTokens(b *testing.B) {
	msgs := history100()
	for _, c := range []struct {
		name    string
		counter processors.Counter
	}{{"estimate", processors.Estimate}, {"o200k", o200k.Counter}} {
		b.Run(c.name, func(b *testing.B) {
			tl := &processors.TokenLimiter{Limit: 1 << 20, Counter: c.counter}
			tl.PromptTokens(msgs) // (o200k decodes its ranks on its first count)
			b.ReportAllocs()
			var tokens float64
			for b.Loop() {
				tokens = tl.PromptTokens(msgs)
			}
			b.ReportMetric(tokens, "tokens")
		})
	}
}

// BenchmarkTokenLimiterStep is one step of the limiter on the history,
// trimmed to half of it.
func BenchmarkTokenLimiterStep(b *testing.B) {
	msgs := history100()
	tl := processors.NewTokenLimiter(0)
	tl.Limit = int(tl.PromptTokens(msgs) / 2)
	b.ReportAllocs()
	for b.Loop() {
		s := &agent.StepInput{Messages: msgs}
		if err := tl.ProcessStep(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolCallFilterStep is one step of the filter on the history.
func BenchmarkToolCallFilterStep(b *testing.B) {
	msgs := history100()
	f := processors.NewToolCallFilter()
	b.ReportAllocs()
	for b.Loop() {
		s := &agent.StepInput{Messages: msgs}
		if err := f.ProcessStep(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}
