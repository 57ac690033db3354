package processors_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// A limiter of 61 tokens keeps the system message and the newest
// messages that fit: here the last two (the system message costs 12.8,
// the conversation 24, the last two messages 8.8 and 14.8: 60.4 in all).
func ExampleTokenLimiter() {
	tl := processors.NewTokenLimiter(61)
	s := &agent.StepInput{Messages: []model.Message{
		model.System("You are a concise assistant."),
		model.UserText("Tell me everything about the history of Paris, from the Parisii to today."),
		model.Assistant(model.Text("Paris began as a Celtic settlement on the Île de la Cité...")),
		model.UserText("Shorter, please."),
		model.Assistant(model.Text("A Roman town, then France's capital.")),
	}}
	if err := tl.ProcessStep(context.Background(), s); err != nil {
		panic(err)
	}
	for _, m := range s.Messages {
		fmt.Printf("%s (%.1f): %s\n", m.Role, tl.MessageTokens(m), m.TextContent())
	}
	// Output:
	// system (12.8): You are a concise assistant.
	// user (8.8): Shorter, please.
	// assistant (14.8): A Roman town, then France's capital.
}

// An agent whose model is not shown the tool traffic of earlier turns: the
// second run's model sees the first run's question and answer, not its
// weather call.
func ExampleToolCallFilter() {
	ctx := context.Background()
	store, _ := sqlite.Open(ctx, sqlite.Memory)
	defer store.Close()
	weather := tools.New(tools.Config[place, string]{ID: "weather", Description: "Weather of a place",
		Execute: func(_ tools.Context, in place) (string, error) { return "sunny", nil }})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "weatherTool", Args: `{"location":"Paris"}`}}},
		mock.Step{Text: "It is sunny in Paris."},
		mock.Step{Text: "You're welcome!"},
	)
	a, _ := agent.New(agent.Config{ID: "assistant", Model: m, Storage: store, Memory: &agent.MemoryOptions{},
		Tools: tools.Set{"weatherTool": weather}, Processors: []agent.StepProcessor{processors.NewToolCallFilter()}})
	_, _ = a.Generate(ctx, "Weather in Paris?", agent.WithMemory("thread-1", "user-1"))
	_, _ = a.Generate(ctx, "Thanks!", agent.WithMemory("thread-1", "user-1"))
	for _, msg := range m.Calls()[2].Messages {
		b, _ := json.Marshal(msg)
		fmt.Println(string(b))
	}
	// Output:
	// {"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]}
	// {"role":"assistant","content":[{"type":"text","text":"It is sunny in Paris."}]}
	// {"role":"user","content":[{"type":"text","text":"Thanks!"}]}
}

// Mastra's estimate of a few texts.
func ExampleEstimateTokens() {
	for _, s := range []string{"Hello, world!", "The quick brown fox jumps over the lazy dog.", "你好，世界", `{"location":"Paris"}`} {
		fmt.Println(processors.EstimateTokens(s), s)
	}
	// Output:
	// 4 Hello, world!
	// 10 The quick brown fox jumps over the lazy dog.
	// 5 你好，世界
	// 7 {"location":"Paris"}
}
