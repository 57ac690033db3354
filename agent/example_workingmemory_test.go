package agent_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// An agent with working memory: the model's updateWorkingMemory call
// stores the user's document, which every later run of the resource is
// shown.
func ExampleWorkingMemory() {
	store, _ := sqlite.Open(context.Background(), sqlite.Memory)
	defer store.Close()
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: agent.WorkingMemoryToolName,
			Args: `{"memory":"# User Information\n- **First Name**: Ada\n- **Location**: Paris\n"}`}}},
		mock.Step{Text: "Nice to meet you, Ada."},
	)
	a, _ := agent.New(agent.Config{ID: "assistant", Instructions: "You help.", Model: m, Storage: store,
		Memory: &agent.MemoryOptions{WorkingMemory: &agent.WorkingMemory{}}})
	out, _ := a.Generate(context.Background(), "I'm Ada, I live in Paris.", agent.WithMemory("thread-1", "user-1"))
	doc, _ := a.WorkingMemory(context.Background(), "thread-2", "user-1") // another thread of the resource
	fmt.Println(out.Text)
	fmt.Print(doc)
	// Output:
	// Nice to meet you, Ada.
	// # User Information
	// - **First Name**: Ada
	// - **Location**: Paris
}
