package temporal_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/enginetest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
)

// TestEngineSuite runs the engine behaviour suite on Temporal: one
// in-process server, a worker per case.
func TestEngineSuite(t *testing.T) {
	ts := newServer(t)
	var queues atomic.Int64
	enginetest.Run(t, func(t *testing.T, m *mastra.Mastra) enginetest.Runner {
		queue := fmt.Sprintf("suite-%d", queues.Add(1))
		w := ts.NewWorkerWithOptions(queue, func(r worker.Registry) { temporal.Register(r, m, temporal.Options{}) }, worker.Options{})
		t.Cleanup(w.Stop)
		c := temporal.NewClient(ts.GetDefaultClient(), queue, m)
		// Sub-agents' runs are child workflows, as on NewWorker.
		if err := c.UseLaunchers(); err != nil {
			t.Fatal(err)
		}
		return &runner{m: m, client: c, offsets: map[string]int64{}}
	})
}

// runner is the suite's Runner on Temporal: it starts runs and signals
// answers through the Client and reads the runs' logs, stopping at a
// call that waits (the run's workflow goes on waiting).
type runner struct {
	m       *mastra.Mastra
	client  *temporal.Client
	offsets map[string]int64 // next index to read, by run
}

func (r *runner) Run(ctx context.Context, agentKey string, in enginetest.Input) (enginetest.Outcome, error) {
	ri := temporal.RunInput{AgentKey: agentKey, LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText(in.Prompt)},
		ThreadID: in.ThreadID, ResourceID: in.ResourceID}}
	if in.Output != nil {
		lo, err := agent.LaunchedOutputOf(*in.Output)
		if err != nil {
			return enginetest.Outcome{}, err
		}
		ri.Output = lo
	}
	runID, err := r.client.Start(ctx, ri)
	if err != nil {
		return enginetest.Outcome{}, err
	}
	return r.read(ctx, agentKey, runID)
}

func (r *runner) Answer(ctx context.Context, agentKey, runID string, a agent.Answer) (enginetest.Outcome, error) {
	var err error
	switch {
	case a.Approved != nil && *a.Approved:
		err = r.client.Approve(ctx, runID, a.ToolCallID)
	case a.Approved != nil:
		err = r.client.Decline(ctx, runID, a.ToolCallID, a.Reason)
	default:
		err = r.client.Resume(ctx, runID, a.ToolCallID, a.Data)
	}
	if err != nil {
		return enginetest.Outcome{}, err
	}
	return r.read(ctx, agentKey, runID)
}

// read reads the run's log from where it last stopped to its end or to
// a chunk of a waiting call.
func (r *runner) read(ctx context.Context, agentKey, runID string) (enginetest.Outcome, error) {
	out := enginetest.Outcome{RunID: runID}
	a, err := r.m.GetAgent(agentKey)
	if err != nil {
		return out, err
	}
	if err := a.Storage().(storage.RunEvents).WaitEvents(ctx, runID, -1); err != nil {
		return out, err
	}
	for ev, err := range a.Observe(ctx, runID, r.offsets[runID]) {
		if err != nil {
			return out, err
		}
		r.offsets[runID] = ev.Index + 1
		if ev.Type == agent.RunEventIterationComplete {
			continue
		}
		out.Chunks = append(out.Chunks, ev.Chunk)
		if ev.Chunk.Type == stream.TypeToolCallApproval || ev.Chunk.Type == stream.TypeToolCallSuspended {
			break
		}
	}
	return out, nil
}

// TestWorkflowSuite runs the workflow behaviour suite on Temporal: the
// suite's workflows are launched through a Client and run, a node per
// activity, by a worker of their own.
func TestWorkflowSuite(t *testing.T) {
	ts := newServer(t)
	var queues atomic.Int64
	enginetest.RunWorkflows(t, func(t *testing.T, m *mastra.Mastra) {
		queue := fmt.Sprintf("workflows-%d", queues.Add(1))
		w := ts.NewWorkerWithOptions(queue, func(r worker.Registry) {
			temporal.Register(r, m, temporal.Options{Heartbeat: 100 * time.Millisecond})
		}, worker.Options{})
		t.Cleanup(w.Stop)
		if err := temporal.NewClient(ts.GetDefaultClient(), queue, m).UseLaunchers(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			for _, wf := range m.ListWorkflows() {
				_ = wf.UseLauncher(nil)
			}
		})
	})
}
