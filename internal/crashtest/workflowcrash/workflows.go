package workflowcrash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type num struct {
	N int `json:"n"`
}

type approval struct {
	OK   bool   `json:"ok"`
	Note string `json:"note"`
}

type question struct {
	Question string `json:"question"`
}

// seqWorkflow is s1 (n+1) -> s2 (n*10) -> s3 (n+2), each logging its
// executions; in a child told to block, s2 waits (once s1's success is
// saved) until it is killed.
func seqWorkflow(t testing.TB, env crashtest.Env, store storage.Store, ready func()) *workflows.Workflow {
	w := workflows.New(workflows.Config{ID: "durable-seq", Storage: store})
	step := func(id string, f func(int) int, block bool) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[num, num]{ID: id, Execute: func(ctx workflows.StepContext, in num) (num, error) {
			crashtest.LogLine(env.Log, id)
			if block && env.Block {
				waitForSavedStep(ctx, w, store, ctx.RunID(), "s1")
				ready()
				select {}
			}
			return num{N: f(in.N)}, nil
		}})
	}
	w.Then(step("s1", func(n int) int { return n + 1 }, false)).
		Then(step("s2", func(n int) int { return n * 10 }, true)).
		Then(step("s3", func(n int) int { return n + 2 }, false))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

// approvalWorkflow is prep (n+1) -> approve (suspends until approved,
// then n*100) -> finish (n+1), each logging its executions; in a child
// told to block, approve, once resumed, waits until it is killed.
func approvalWorkflow(t testing.TB, env crashtest.Env, store storage.Store, ready func()) *workflows.Workflow {
	prep := workflows.NewStep(workflows.StepConfig[num, num]{ID: "prep", Execute: func(_ workflows.StepContext, in num) (num, error) {
		crashtest.LogLine(env.Log, "prep")
		return num{N: in.N + 1}, nil
	}})
	approve := workflows.NewStep(workflows.StepConfig[num, num]{ID: "approve",
		SuspendSchema: schema.MustFor[question](), ResumeSchema: schema.MustFor[approval](),
		Execute: func(ctx workflows.StepContext, in num) (num, error) {
			crashtest.LogLine(env.Log, "approve")
			a, resumed, err := tools.ResumeDataAs[approval](ctx)
			if err != nil {
				return num{}, err
			}
			if !resumed {
				return num{}, ctx.Suspend(question{Question: fmt.Sprintf("approve %d?", in.N)})
			}
			if env.Block && ready != nil {
				ready()
				select {}
			}
			if !a.OK {
				return num{}, errors.New("declined")
			}
			return num{N: in.N * 100}, nil
		}})
	finish := workflows.NewStep(workflows.StepConfig[num, num]{ID: "finish", Execute: func(_ workflows.StepContext, in num) (num, error) {
		crashtest.LogLine(env.Log, "finish")
		return num{N: in.N + 1}, nil
	}})
	w := workflows.New(workflows.Config{ID: "durable-approval", Storage: store}).Then(prep).Then(approve).Then(finish)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

// waitForSavedStep polls the store until run runID of w, as stored (its
// snapshot with the changes appended since folded in, as w reads it),
// records step id as succeeded: the child's cue that killing it now
// loses nothing.
func waitForSavedStep(ctx context.Context, w *workflows.Workflow, store storage.Store, runID, id string) {
	crashtest.PollRun(ctx, store, runID, func(r *storage.Run) bool {
		snap, err := w.StoredSnapshot(r)
		if err != nil {
			return false
		}
		var steps map[string]struct {
			Status string `json:"status"`
		}
		return json.Unmarshal(snap.StepsJSON(), &steps) == nil && steps[id].Status == workflows.StatusSuccess
	})
}
