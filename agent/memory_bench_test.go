package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

type benchSum struct {
	A int `json:"a"`
	B int `json:"b"`
}

// BenchmarkGenerateWithMemory is one Generate of two steps (an add call,
// then text) on a thread whose resource already holds 500 runs (1,500
// messages, 1,000 of them with text), on SQLite in memory: with memory's
// history only (history), and with working memory and semantic recall
// (1536-dimension mock embeddings, top 4 with one message either side)
// besides (wm+recall). ns/op divided by 2 is the cost per step.
func BenchmarkGenerateWithMemory(b *testing.B) {
	for _, name := range []string{"history", "wm+recall"} {
		b.Run(name, func(b *testing.B) {
			store, err := sqlite.Open(context.Background(), sqlite.Memory)
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			opts := &agent.MemoryOptions{}
			if name == "wm+recall" {
				opts.WorkingMemory = &agent.WorkingMemory{}
				opts.SemanticRecall = &agent.SemanticRecall{Embedder: mock.NewEmbedder(1536), Vector: store}
			}
			m := mock.NewFunc(func(req *model.Request) mock.Step {
				if last := req.Messages[len(req.Messages)-1]; last.Role == model.RoleUser {
					return mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":2,"b":3}`}}}
				}
				return mock.Step{Text: "The sum is 5."}
			})
			add := tools.New(tools.Config[benchSum, int]{ID: "add", Description: "Adds two numbers",
				Execute: func(_ tools.Context, in benchSum) (int, error) { return in.A + in.B, nil }})
			a, err := agent.New(agent.Config{ID: "bench", Model: m, Storage: store, Memory: opts, Tools: tools.Set{"add": add}})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for i := range 500 {
				if _, err := a.Generate(ctx, fmt.Sprintf("seed %d: what is %d plus 3?", i, i), agent.WithMemory(fmt.Sprintf("seed-%d", i%50), "user-1")); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				out, err := a.Generate(ctx, fmt.Sprintf("what is %d plus 3?", i), agent.WithMemory("bench", "user-1"))
				if err != nil || out.Text != "The sum is 5." {
					b.Fatal(err, out)
				}
			}
		})
	}
}
