package postgres_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type sumIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type sumOut struct {
	Sum int `json:"sum"`
}

// blockingTool is a tool that blocks until its context ends and sends
// the context's cause on cause (it then returns its result anyway).
func blockingTool(started chan<- struct{}, cause chan<- error) *tools.Tool {
	return tools.New(tools.Config[sumIn, sumOut]{ID: "slow_add", Description: "Add slowly",
		Execute: func(ctx tools.Context, in sumIn) (sumOut, error) {
			started <- struct{}{}
			<-ctx.Done()
			cause <- context.Cause(ctx)
			return sumOut{Sum: in.A + in.B}, nil
		}})
}

// TestReplicaAbortsARunOfAnother: a run on replica A is blocked in a
// tool; AbortRun on replica B (its own Store over the same database)
// reaches it: the tool's context ends with agent.ErrRunAborted, the run
// finishes with reason "abort" without another model call, and B reads
// that finish.
func TestReplicaAbortsARunOfAnother(t *testing.T) {
	dsn := pgtest.DSN(t)
	started, cause := make(chan struct{}, 2), make(chan error, 2)
	newReplica := func() (*agent.Agent, *mock.Model) {
		m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "slow_add", Args: `{"a":1,"b":2}`}}},
			mock.Step{Text: "never said"})
		a, err := agent.New(agent.Config{ID: "abortable", Model: m, Tools: tools.Set{"slow_add": blockingTool(started, cause)},
			Storage: openStore(t, dsn), Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return a, m
	}
	a, modelA := newReplica()
	b, _ := newReplica()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := a.Start(ctx, "add slowly", agent.WithRunID("run-pg-abort"))
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if ok, err := b.AbortRun(ctx, "run-pg-abort"); !ok || err != nil {
		t.Fatalf("AbortRun on b: %v %v", ok, err)
	}
	// The store's poll safety net checks every 5 s: an abort seen within
	// 3 s came by its notification.
	select {
	case c := <-cause:
		if !errors.Is(c, agent.ErrRunAborted) {
			t.Errorf("the tool's context cause: %v", c)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the tool on a did not see b's abort")
	}
	<-h.Done()
	checkAbortFinish(ctx, t, b, "run-pg-abort")
	if n := len(modelA.Calls()); n != 1 {
		t.Errorf("%d model calls on a, want 1", n)
	}
	if ok, err := b.AbortRun(ctx, "run-pg-abort"); ok || err != nil {
		t.Errorf("AbortRun of the ended run: %v %v", ok, err)
	}
}

// checkAbortFinish checks that a reads the run's events up to a finish
// of reason "abort", after its tool's result.
func checkAbortFinish(ctx context.Context, t *testing.T, a *agent.Agent, runID string) {
	t.Helper()
	var events []agent.RunEvent
	for e, err := range a.Observe(ctx, runID, 0) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	n := len(events)
	if n < 3 || events[n-3].Chunk.Type != stream.TypeToolResult {
		t.Fatalf("%d events; the tool's result is not third to last", n)
	}
	if p, ok := events[n-1].Chunk.Payload.(stream.FinishPayload); !ok || p.StepResult.Reason != "abort" {
		t.Errorf("last event: %+v", events[n-1])
	}
}
