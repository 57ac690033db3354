package agent_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/storage/storagetest"
	"github.com/gomastra/mastra/tools"
)

type sumIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sumOut struct {
	Sum int `json:"sum"`
}

// BenchmarkDurableSteps runs a durable agent (SQLite on a file, with
// memory) for K tool steps and a text answer: per-step cost and
// saved-B/step — the bytes handed to storage per step (run snapshots and
// changes, memory messages) — should not grow with K.
func BenchmarkDurableSteps(b *testing.B) {
	add := tools.New(tools.Config[sumIn, sumOut]{ID: "add", Execute: func(_ tools.Context, in sumIn) (sumOut, error) { return sumOut{Sum: in.A + in.B}, nil }})
	for _, k := range []int{1, 10, 50, 200} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "mastra.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			counted := &storagetest.Counting{Store: store}
			steps := make([]mock.Step, 0, k+1)
			for i := range k {
				steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", i), Name: "add", Args: `{"a":2,"b":3}`}}})
			}
			steps = append(steps, mock.Step{Text: "The sum is 5."})
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				a, _ := agent.New(agent.Config{ID: "bench", Model: mock.New(steps...), Tools: tools.Set{"add": add}, MaxSteps: k + 1,
					Storage: counted, Memory: &agent.MemoryOptions{}})
				n++
				out, err := a.Generate(context.Background(), "add", agent.WithMemory(fmt.Sprintf("t%d", n), "u"))
				if err != nil || out.FinishReason != "stop" {
					b.Fatal(err, out.FinishReason)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*(k+1)), "ns/step")
			b.ReportMetric(float64(counted.Bytes())/float64(n*(k+1)), "saved-B/step")
		})
	}
}
