package observational_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/memory/observational"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// An agent whose thread outgrows 200 tokens has its messages observed:
// the model is then given the observations in place of the messages.
func Example() {
	ctx := context.Background()
	store, _ := sqlite.Open(ctx, sqlite.Memory)
	defer store.Close()

	observer := mock.New(mock.Step{Text: "<observations>\nDate: Jan 2, 2026\n* 🔴 (10:00) User described their garden: tomatoes, basil, roses\n</observations>"})
	om, err := observational.New(observational.Config{
		Model:         observer, // the observer's and reflector's model
		MessageTokens: 200,      // Mastra's default is 30,000
		Storage:       store,
		Location:      time.UTC,
		Now:           func() time.Time { return time.Date(2026, 1, 3, 9, 0, 0, 0, time.UTC) }, // a fixed clock for the output below
	})
	if err != nil {
		panic(err)
	}
	actor := mock.New(mock.Step{Text: "What a garden!"})
	a, _ := agent.New(agent.Config{ID: "assistant", Model: actor, Storage: store,
		Memory:     &agent.MemoryOptions{LastMessages: 100},
		Processors: []agent.StepProcessor{om}})

	garden := "My garden: " + strings.Repeat("tomatoes, basil and roses by the fence; ", 30)
	if _, err := a.Generate(ctx, garden, agent.WithMemory("thread-1", "user-1")); err != nil {
		panic(err)
	}
	for _, m := range actor.Calls()[0].Messages {
		fmt.Printf("%s: %.60q\n", m.Role, m.TextContent())
	}
	rec, _ := om.Load(ctx, "thread-1", "user-1")
	fmt.Println(len(rec.ObservedMessageIDs), "message observed,", rec.ObservationTokenCount, "tokens of observations")
	// Output:
	// system: "The following observations block contains your memory of pas"
	// system: "<observations>"
	// system: "Date: Jan 2, 2026 (yesterday)\n* 🔴 (10:00) User described the"
	// user: "<system-reminder>Please continue naturally with the conversa"
	// 1 message observed, 25 tokens of observations
}
