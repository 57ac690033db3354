package agent

import (
	"testing"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

// BenchmarkRuns is BenchmarkLoop on one agent, as a server runs it: the
// agent is built once and each op is one run of K tool steps (one add
// call each) then the answer, through Stream (all chunks consumed) or
// Generate. The scripted model answers from the request, so runs do not
// depend on each other.
func BenchmarkRuns(b *testing.B) {
	for _, k := range []int{1, 10, 50} {
		answer := mock.ToolSteps(k, mock.ToolCall{Name: "add", Args: `{"a":2,"b":3}`}, mock.Step{Text: "The sum is 5."})
		a, err := New(Config{ID: "bench", Model: mock.NewFunc(answer), Tools: tools.Set{"add": addTool()}, MaxSteps: k + 1})
		if err != nil {
			b.Fatal(err)
		}
		benchGenerateAndStream(b, k, func() *Agent { return a })
	}
}
