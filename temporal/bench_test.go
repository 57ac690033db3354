package temporal_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

type numbers struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sum struct {
	Sum int `json:"sum"`
}

// benchSteps is the number of steps of a benchmark run: four tool steps
// and the answer.
const benchSteps = 5

// benchRegistry is one agent, "stepper", that calls echo benchSteps-1
// times and answers, on a SQLite store in memory.
func benchRegistry(b *testing.B) *mastra.Mastra {
	echo := tools.New(tools.Config[numbers, sum]{ID: "echo", Description: "Echoes.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		return sum{Sum: in.A + in.B}, nil
	}})
	m := mock.NewFunc(mock.ToolSteps(benchSteps-1, mock.ToolCall{Name: "echo", Args: `{"a":1,"b":2}`}, mock.Step{Text: "done"}))
	a, err := agent.New(agent.Config{ID: "stepper", Name: "Stepper", Instructions: "Step.", Model: m,
		Tools: tools.Set{"echo": echo}, Storage: newStore(b)})
	if err != nil {
		b.Fatal(err)
	}
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"stepper": a}})
}

var benchInput = []model.Message{model.UserText("Step.")}

// BenchmarkStep is the time of one step of a 5-step run, run after run,
// on the in-process engine and on Temporal (an in-process server and one
// worker; its history, its activities' round trips and the run's log in
// SQLite): the per-step overhead of the durable engine.
func BenchmarkStep(b *testing.B) {
	b.Run("engine=local", func(b *testing.B) {
		a, _ := benchRegistry(b).GetAgent("stepper")
		ctx := context.Background()
		for b.Loop() {
			out, err := a.Generate(ctx, benchInput)
			if err != nil || out.Text != "done" {
				b.Fatal(out, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSteps), "ns/step")
	})
	b.Run("engine=temporal", func(b *testing.B) {
		c := benchEnv(b, 1)
		ctx := context.Background()
		for b.Loop() {
			benchRun(b, ctx, c)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSteps), "ns/step")
	})
}

// BenchmarkRunsPerSecond runs 100 concurrent 5-step runs per op on 1, 2
// and 4 workers and reports runs/s.
func BenchmarkRunsPerSecond(b *testing.B) {
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			c := benchEnv(b, workers)
			ctx := context.Background()
			const runs = 100
			for b.Loop() {
				var wg sync.WaitGroup
				for range runs {
					wg.Go(func() { benchRun(b, ctx, c) })
				}
				wg.Wait()
			}
			b.ReportMetric(float64(b.N*runs)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// benchEnv starts a server and workers of the benchmark registry.
func benchEnv(b *testing.B, workers int) *temporal.Client {
	ts := newServer(b)
	reg := benchRegistry(b)
	for range workers {
		w := ts.NewWorkerWithOptions("bench", func(r worker.Registry) { temporal.Register(r, reg, temporal.Options{}) }, worker.Options{})
		b.Cleanup(w.Stop)
	}
	return temporal.NewClient(ts.GetDefaultClient(), "bench", reg)
}

// benchRun runs one run to its end.
func benchRun(b *testing.B, ctx context.Context, c *temporal.Client) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	runID, err := c.Start(ctx, temporal.RunInput{AgentKey: "stepper", LaunchRequest: agent.LaunchRequest{Messages: benchInput}})
	if err != nil {
		b.Error(err)
		return
	}
	if res, err := c.Result(ctx, runID); err != nil || res.Text != "done" {
		b.Error(res, err)
	}
}
