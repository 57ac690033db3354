package temporal_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

// A launched run is aborted by its thread (agent.AbortThread, the
// studio's Stop): the signal reaches its workflow, the tool in flight
// sees its context end, and the stream ends with reason "abort".
func TestLaunchedRunAbortsByThread(t *testing.T) {
	started := make(chan struct{}, 1)
	wait := tools.New(tools.Config[struct{}, string]{ID: "wait", Description: "Waits.", Execute: func(ctx tools.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "w1", Name: "wait", Args: `{}`}}}, mock.Step{Text: "never"})
	a, err := agent.New(agent.Config{ID: "waiter", Name: "Waiter", Instructions: "Wait.", Model: m,
		Tools: tools.Set{"wait": wait}, Storage: newStore(t), Memory: &agent.MemoryOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	reg := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"waiter": a}})
	ts := newServer(t)
	w := ts.NewWorkerWithOptions("abort", func(r worker.Registry) {
		temporal.Register(r, reg, temporal.Options{Heartbeat: 100 * time.Millisecond})
	}, worker.Options{})
	t.Cleanup(w.Stop)
	if err := temporal.NewClient(ts.GetDefaultClient(), "abort", reg).UseLaunchers(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan []stream.Chunk, 1)
	go func() {
		var chunks []stream.Chunk
		for c, err := range a.Stream(ctx, "Wait.", agent.WithMemory("th-1", "user-1")) {
			if err != nil {
				t.Error(err)
				break
			}
			chunks = append(chunks, c)
		}
		done <- chunks
	}()
	<-started
	if ok, err := a.AbortThread(ctx, agent.ThreadAbort{ThreadID: "th-1", ResourceID: "user-2"}); ok || err != nil {
		t.Fatalf("another resource's abort: %v, %v", ok, err)
	}
	if ok, err := a.AbortThread(ctx, agent.ThreadAbort{ThreadID: "th-1", ResourceID: "user-1"}); !ok || err != nil {
		t.Fatalf("abort: %v, %v", ok, err)
	}
	chunks := <-done
	last := chunks[len(chunks)-1]
	if last.Type != stream.TypeFinish || last.Payload.(stream.FinishPayload).StepResult.Reason != "abort" {
		t.Fatalf("the stream ends with %s %+v, want a finish with reason abort", last.Type, last.Payload)
	}
}
