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

// A thread's messages are observed in the background as they grow;
// WaitForBuffering waits for the observation in flight, whose chunk the
// record keeps until the thread reaches MessageTokens.
func ExampleProcessor_WaitForBuffering() {
	ctx := context.Background()
	store, _ := sqlite.Open(ctx, sqlite.Memory)
	defer store.Close()

	observer := mock.New(mock.Step{Text: "<observations>\n* 🔴 (10:00) User grows basil\n</observations>"})
	om, _ := observational.New(observational.Config{Model: observer, MessageTokens: 1000, Storage: store}) // buffers every 200 tokens
	a, _ := agent.New(agent.Config{ID: "assistant", Model: mock.New(mock.Step{Text: "Nice."}), Storage: store,
		Memory: &agent.MemoryOptions{LastMessages: 100}, Processors: []agent.StepProcessor{om}})

	if _, err := a.Generate(ctx, "My garden: "+strings.Repeat("basil ", 300), agent.WithMemory("thread-1", "user-1")); err != nil {
		panic(err)
	}
	wait, cancel := context.WithTimeout(ctx, 30*time.Second) // as Mastra's route waits
	defer cancel()
	if err := om.WaitForBuffering(wait, "thread-1", "user-1"); err != nil {
		panic(err)
	}
	rec, _ := om.Load(ctx, "thread-1", "user-1")
	fmt.Printf("%d buffered chunk: %q; active: %q\n", len(rec.BufferedObservationChunks), rec.BufferedObservations, rec.ActiveObservations)
	// Output:
	// 1 buffered chunk: "* 🔴 (10:00) User grows basil"; active: ""
}

// Each reflection starts a generation of the record; History lists them
// newest first.
func ExampleProcessor_History() {
	ctx := context.Background()
	store, _ := sqlite.Open(ctx, sqlite.Memory)
	defer store.Close()

	observer := mock.New(
		mock.Step{Text: "<observations>\n* 🔴 (10:00) User grows basil, tomatoes and roses by the fence\n</observations>"},
		mock.Step{Text: "<observations>\n* 🔴 User gardens\n</observations>"}, // the reflection
	)
	om, _ := observational.New(observational.Config{Model: observer, MessageTokens: 200, ObservationTokens: 10,
		BufferTokens: observational.BufferingOff, Storage: store})
	a, _ := agent.New(agent.Config{ID: "assistant", Model: mock.New(mock.Step{Text: "Nice."}), Storage: store,
		Memory: &agent.MemoryOptions{LastMessages: 100}, Processors: []agent.StepProcessor{om}})
	if _, err := a.Generate(ctx, "My garden: "+strings.Repeat("basil ", 300), agent.WithMemory("thread-1", "user-1")); err != nil {
		panic(err)
	}
	history, _ := om.History(ctx, "thread-1", "user-1", observational.HistoryQuery{})
	for _, r := range history {
		fmt.Printf("generation %d (%s): %q\n", r.GenerationCount, r.OriginType, r.ActiveObservations)
	}
	// Output:
	// generation 1 (reflection): "* 🔴 User gardens"
	// generation 0 (initial): "* 🔴 (10:00) User grows basil, tomatoes and roses by the fence"
}
