package workflows_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/crashtest/workflowcrash"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// These tests prove that workflow runs survive their process, on SQLite:
// a child process (this test binary, re-executed into
// TestWorkflowDurableChild) runs a workflow on a real store and is killed
// with SIGKILL at a chosen point; the run is then found and finished by
// another process. The scenarios are workflowcrash's; the
// storage/postgres module runs them on PostgreSQL.

// durable starts the children: TestWorkflowDurableChild, its payload (a
// crashtest.Env) in GOMASTRA_WORKFLOW_DURABLE_CHILD.
var durable = crashtest.Harness{Test: "TestWorkflowDurableChild", EnvVar: "GOMASTRA_WORKFLOW_DURABLE_CHILD"}

// TestWorkflowDurableChild is the child process's body; it does nothing
// in a normal test run.
func TestWorkflowDurableChild(t *testing.T) { workflowcrash.Child(t, durable, crashtest.SQLite) }

func TestDurableWorkflowRuns(t *testing.T) { workflowcrash.Run(t, durable, crashtest.SQLite) }

type num struct {
	N int `json:"n"`
}

// TestTakeOverLeavesTheTakersRunAlone: a process that recovers a run its
// owner is still running (it cannot tell the owner from a dead one)
// takes the run over: its claim saves a new version at once. The old
// owner's next save then fails, and it must end without touching the
// stored run, which the new owner finishes.
func TestTakeOverLeavesTheTakersRunAlone(t *testing.T) {
	store := storage.NewMemoryRuns()
	ctx := context.Background()
	var s2calls atomic.Int32
	ownerIn2, ownerGo2 := make(chan struct{}), make(chan struct{})
	takerIn3, takerGo3 := make(chan struct{}), make(chan struct{})
	var s3calls atomic.Int32
	step := func(id string, f func()) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[num, num]{ID: id, Execute: func(_ workflows.StepContext, in num) (num, error) {
			if f != nil {
				f()
			}
			return num{N: in.N + 1}, nil
		}})
	}
	w := workflows.New(workflows.Config{ID: "race", Storage: store}).
		Then(step("s1", nil)).
		Then(step("s2", func() {
			if s2calls.Add(1) == 1 {
				close(ownerIn2)
				<-ownerGo2
			}
		})).
		Then(step("s3", func() {
			if s3calls.Add(1) == 1 {
				close(takerIn3)
				<-takerGo3
			}
		}))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	owner := w.CreateRun()
	ownerDone := make(chan *workflows.Result, 1)
	go func() {
		res, _ := owner.Start(ctx, num{}, nil)
		ownerDone <- res
	}()
	<-ownerIn2 // stored: s1 done; the owner is in s2
	taker, err := w.LoadRun(ctx, owner.ID())
	if err != nil {
		t.Fatal(err)
	}
	takerDone := make(chan *workflows.Result, 1)
	go func() {
		res, err := taker.Resume(ctx, workflows.ResumeOptions{})
		if err != nil {
			t.Error(err)
		}
		takerDone <- res
	}()
	<-takerIn3      // the taker ran s2 again and waits in s3
	close(ownerGo2) // the owner's save after s2 finds the taker's version
	if res := <-ownerDone; res == nil || res.Status != workflows.StatusFailed || !strings.Contains(res.Error.Message, "taken over") {
		t.Errorf("the old owner: %+v", res)
	}
	if _, err := store.GetRun(ctx, owner.ID()); err != nil {
		t.Errorf("the old owner touched the taker's stored run: %v", err)
	}
	close(takerGo3)
	if res := <-takerDone; res == nil || res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":3}` {
		t.Errorf("the taker's run: %+v", res)
	}
}
