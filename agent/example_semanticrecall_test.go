package agent_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
)

// An agent with semantic recall: the SQLite store keeps the messages and
// their embeddings, and a run on a new thread of the resource is shown
// the earlier message most like its question.
func ExampleSemanticRecall() {
	store, _ := sqlite.Open(context.Background(), sqlite.Memory)
	defer store.Close()
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		for _, msg := range req.Messages {
			if msg.Role == model.RoleSystem && strings.Contains(msg.TextContent(), "My cat is called Tom") {
				return mock.Step{Text: "Your cat is called Tom."}
			}
		}
		return mock.Step{Text: "Noted."}
	})
	a, _ := agent.New(agent.Config{ID: "assistant", Model: m, Storage: store, Memory: &agent.MemoryOptions{
		SemanticRecall: &agent.SemanticRecall{Embedder: mock.NewEmbedder(64), Vector: store, TopK: 2},
	}})
	ctx := context.Background()
	_, _ = a.Generate(ctx, "My cat is called Tom.", agent.WithMemory("thread-1", "user-1"))
	out, _ := a.Generate(ctx, "What is my cat called?", agent.WithMemory("thread-2", "user-1"))
	fmt.Println(out.Text)
	// Output: Your cat is called Tom.
}
