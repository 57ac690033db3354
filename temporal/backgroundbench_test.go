package temporal_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

// slowToolTime is how long the benchmarks' background-eligible tool
// takes.
const slowToolTime = 300 * time.Millisecond

// BenchmarkBackgroundCallOnTemporal is the time from a run's start to
// its finish chunk on Temporal when its one tool call takes
// slowToolTime, run in the foreground (the loop waits for it) or as a
// deferred background task (the run finishes while it runs).
func BenchmarkBackgroundCallOnTemporal(b *testing.B) {
	for _, bench := range []struct{ name, args string }{
		{"disposition=foreground", `{"_background":{"enabled":false}}`},
		{"disposition=deferred", `{}`},
	} {
		b.Run(bench.name, func(b *testing.B) {
			c := slowToolEnv(b, bench.args)
			ctx := context.Background()
			for b.Loop() {
				finished := false
				in := temporal.RunInput{AgentKey: "slow", LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Go.")}}}
				for ch, err := range c.Stream(ctx, in) {
					if err != nil {
						b.Fatal(err)
					}
					finished = finished || ch.Type == stream.TypeFinish
				}
				if !finished {
					b.Fatal("the run did not finish")
				}
			}
		})
	}
}

// slowToolEnv is a worker of an agent, "slow", whose model calls the
// tool slow once with args and answers, background tasks enabled.
func slowToolEnv(b *testing.B, args string) *temporal.Client {
	store := newStore(b)
	slow := tools.New(tools.Config[struct{}, string]{ID: "slow", Description: "Takes a while.",
		Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			select {
			case <-time.After(slowToolTime):
				return "slow answer", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}})
	m := mock.NewFunc(mock.ToolSteps(1, mock.ToolCall{Name: "slow", Args: args}, mock.Step{Text: "done"}))
	a, err := agent.New(agent.Config{ID: "slow", Name: "Slow", Instructions: "Go.", Model: m, Tools: tools.Set{"slow": slow}, Storage: store})
	if err != nil {
		b.Fatal(err)
	}
	reg := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"slow": a}})
	mgr, err := reg.EnableBackgroundTasks(context.Background(), bgtasks.Config{Store: store, PollInterval: 10 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mgr.Shutdown(context.Background()) })
	ts := newServer(b)
	queue := "bench-slow-" + b.Name()
	ts.NewWorkerWithOptions(queue, func(r worker.Registry) { temporal.Register(r, reg, temporal.Options{}) }, worker.Options{})
	return temporal.NewClient(ts.GetDefaultClient(), queue, reg)
}
