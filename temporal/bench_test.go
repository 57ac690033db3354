package temporal_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

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
func benchRegistry(b *testing.B) *mastra.Mastra { return benchRegistryWith(b, agent.Hooks{}) }

// benchRegistryWith is benchRegistry's agent with hooks.
func benchRegistryWith(b *testing.B, hooks agent.Hooks) *mastra.Mastra {
	echo := tools.New(tools.Config[numbers, sum]{ID: "echo", Description: "Echoes.", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		return sum{Sum: in.A + in.B}, nil
	}})
	m := mock.NewFunc(mock.ToolSteps(benchSteps-1, mock.ToolCall{Name: "echo", Args: `{"a":1,"b":2}`}, mock.Step{Text: "done"}))
	a, err := agent.New(agent.Config{ID: "stepper", Name: "Stepper", Instructions: "Step.", Model: m,
		Tools: tools.Set{"echo": echo}, Storage: newStore(b), Hooks: hooks})
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

// BenchmarkRecordedHook is BenchmarkStep's run on Temporal with a
// BeforeToolCall hook, whose outcome the workflow records (Record) at
// each of the run's four tool calls: the cost of a recorded callback.
func BenchmarkRecordedHook(b *testing.B) {
	hook := agent.Hooks{BeforeToolCall: func(context.Context, agent.HookCall) (*agent.Skip, error) { return nil, nil }}
	c := benchEnvOf(b, benchRegistryWith(b, hook), 1)
	ctx := context.Background()
	for b.Loop() {
		benchRun(b, ctx, c)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSteps), "ns/step")
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
	return benchEnvOf(b, benchRegistry(b), workers)
}

// benchEnvOf is benchEnv for the registry reg.
func benchEnvOf(b *testing.B, reg *mastra.Mastra, workers int) *temporal.Client {
	ts := newServer(b)
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

// noopActivity and chainOfActivities are bare Temporal: a workflow that
// runs n no-op activities one after the other.
func noopActivity(_ context.Context, i int) (int, error) { return i + 1, nil }

func chainOfActivities(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	v := 0
	for range n {
		if err := workflow.ExecuteActivity(ctx, noopActivity, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// BenchmarkBareActivity is the round trip of one no-op activity of a
// bare Temporal workflow on the same server and worker setup: the floor
// under the engine's cost per model or tool call (BenchmarkStep makes
// two per step) and per workflow node.
func BenchmarkBareActivity(b *testing.B) {
	ts := newServer(b)
	ts.NewWorkerWithOptions("bench-bare", func(r worker.Registry) {
		r.RegisterWorkflow(chainOfActivities)
		r.RegisterActivity(noopActivity)
	}, worker.Options{})
	const n = 10
	ctx := context.Background()
	for b.Loop() {
		run, err := ts.GetDefaultClient().ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "bench-bare"}, chainOfActivities, n)
		if err != nil {
			b.Fatal(err)
		}
		var v int
		if err := run.Get(ctx, &v); err != nil || v != n {
			b.Fatal(v, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/activity")
}
