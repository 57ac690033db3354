package agent_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

type napIn struct {
	N int `json:"n"`
}

type napOut struct {
	N int `json:"n"`
}

// BenchmarkParallelCalls runs one step of five calls of tools that each
// sleep 100 ms, with ask_user (which can suspend) offered but not
// called, then a text answer. Calls that cannot wait for a person run in
// parallel, so an op takes about 100 ms, not 500 ms.
func BenchmarkParallelCalls(b *testing.B) {
	set := tools.Set{"ask_user": builtin.AskUserTool}
	calls := make([]mock.ToolCall, 0, 5)
	for i := range 5 {
		name := fmt.Sprintf("nap%d", i)
		set[name] = tools.New(tools.Config[napIn, napOut]{ID: name, Execute: func(ctx tools.Context, in napIn) (napOut, error) {
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return napOut{}, ctx.Err()
			}
			return napOut(in), nil
		}})
		calls = append(calls, mock.ToolCall{ID: fmt.Sprintf("c%d", i), Name: name, Args: fmt.Sprintf(`{"n":%d}`, i)})
	}
	for b.Loop() {
		a, err := agent.New(agent.Config{ID: "bench", Model: mock.New(mock.Step{ToolCalls: calls}, mock.Step{Text: "Done."}), Tools: set})
		if err != nil {
			b.Fatal(err)
		}
		out, err := a.Generate(context.Background(), "nap")
		if err != nil || out.FinishReason != "stop" {
			b.Fatal(err, out.FinishReason)
		}
	}
}
