package temporal_test

import (
	"context"
	"testing"

	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/workflows"
)

// benchNodes is the number of steps of a benchmark workflow.
const benchNodes = 5

// benchWorkflow is "counting": benchNodes steps that add one, on a
// SQLite store in memory.
func benchWorkflow(b *testing.B) *mastra.Mastra {
	w := workflows.New(workflows.Config{ID: "counting", Storage: newStore(b)})
	for i := range benchNodes {
		w.Then(workflows.NewStep(workflows.StepConfig[tally, tally]{ID: string(rune('a' + i)), Execute: func(_ workflows.StepContext, in tally) (tally, error) {
			return tally{N: in.N + 1}, nil
		}}))
	}
	if err := w.Commit(); err != nil {
		b.Fatal(err)
	}
	return mastra.New(mastra.Config{Workflows: map[string]*workflows.Workflow{"counting": w}})
}

// BenchmarkWorkflowNode is the time of one node of a 5-step workflow
// run, run after run, in process and on Temporal (one worker; the run
// started with Start, its snapshot and log in SQLite): the per-node
// overhead of the durable engine.
func BenchmarkWorkflowNode(b *testing.B) {
	run := func(b *testing.B, reg *mastra.Mastra) {
		w, _ := reg.GetWorkflow("counting")
		ctx := context.Background()
		for b.Loop() {
			res, err := w.CreateRun().Start(ctx, tally{}, nil)
			if err != nil || res.Status != workflows.StatusSuccess {
				b.Fatal(res, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchNodes), "ns/node")
	}
	b.Run("engine=local", func(b *testing.B) { run(b, benchWorkflow(b)) })
	b.Run("engine=temporal", func(b *testing.B) {
		ts := newServer(b)
		reg := benchWorkflow(b)
		w := ts.NewWorkerWithOptions("bench-wf", func(r worker.Registry) { temporal.Register(r, reg, temporal.Options{}) }, worker.Options{})
		b.Cleanup(w.Stop)
		if err := temporal.NewClient(ts.GetDefaultClient(), "bench-wf", reg).UseLaunchers(); err != nil {
			b.Fatal(err)
		}
		run(b, reg)
	})
}
