package agent

import (
	"context"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// BenchmarkLoop runs K tool steps (one add call each) then a final text
// step, through Stream (all chunks consumed) and Generate, each on an
// agent built for the op. ns/op divided by K+1 is the per-step overhead.
func BenchmarkLoop(b *testing.B) {
	for _, k := range []int{1, 10, 50} {
		steps := make([]mock.Step, 0, k+1)
		for i := 0; i < k; i++ {
			steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", i), Name: "add", Args: `{"a":2,"b":3}`}}})
		}
		steps = append(steps, mock.Step{Text: "The sum is 5."})
		set := tools.Set{"add": addTool()}
		benchGenerateAndStream(b, k, func() *Agent {
			a, _ := New(Config{ID: "bench", Model: mock.New(steps...), Tools: set, MaxSteps: k + 1})
			return a
		})
	}
}

// benchGenerateAndStream runs generate/K=k and stream/K=k: each op is
// one run, on the agent agentFor returns for it, through Generate, or
// through Stream with every chunk consumed.
func benchGenerateAndStream(b *testing.B, k int, agentFor func() *Agent) {
	b.Run(fmt.Sprintf("generate/K=%d", k), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := agentFor().Generate(context.Background(), "add")
			if err != nil || out.FinishReason != "stop" {
				b.Fatal(err, out.FinishReason)
			}
		}
	})
	b.Run(fmt.Sprintf("stream/K=%d", k), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, err := range agentFor().Stream(context.Background(), "add") {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
