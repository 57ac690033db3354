package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/pgtest"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// These tests prove that workflow runs survive their process: a child
// process (this test binary, re-executed into TestWorkflowDurableChild)
// runs a workflow on a real store and is killed with SIGKILL at a chosen
// point; the run is then found and finished by another process.

// durable starts the children: TestWorkflowDurableChild, its payload (a
// crashtest.Env) in GOMASTRA_WORKFLOW_DURABLE_CHILD.
var durable = crashtest.Harness{Test: "TestWorkflowDurableChild", EnvVar: "GOMASTRA_WORKFLOW_DURABLE_CHILD"}

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

func mustFor[T any]() *schema.Compiled {
	s, err := schema.For[T]()
	if err != nil {
		panic(err)
	}
	return s
}

// seqWorkflow is s1 (n+1) -> s2 (n*10) -> s3 (n+2), each logging its
// executions; in a child told to block, s2 waits (once s1's success is
// saved) until it is killed.
func seqWorkflow(t testing.TB, env crashtest.Env, store storage.Store, ready func()) *workflows.Workflow {
	step := func(id string, f func(int) int, block bool) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[num, num]{ID: id, Execute: func(ctx workflows.StepContext, in num) (num, error) {
			crashtest.LogLine(env.Log, id)
			if block && env.Block {
				waitForSavedStep(ctx, store, ctx.RunID(), "s1")
				ready()
				select {}
			}
			return num{N: f(in.N)}, nil
		}})
	}
	w := workflows.New(workflows.Config{ID: "durable-seq", Storage: store}).
		Then(step("s1", func(n int) int { return n + 1 }, false)).
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
		SuspendSchema: mustFor[question](), ResumeSchema: mustFor[approval](),
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

// waitForSavedStep polls the store until the run's snapshot records step
// id as succeeded (the child's cue that killing it now loses nothing).
func waitForSavedStep(ctx context.Context, store storage.Store, runID, id string) {
	crashtest.PollRun(ctx, store, runID, func(raw json.RawMessage) bool {
		var snap struct {
			Steps map[string]struct {
				Status string `json:"status"`
			} `json:"steps"`
		}
		return json.Unmarshal(raw, &snap) == nil && snap.Steps[id].Status == workflows.StatusSuccess
	})
}

// TestWorkflowDurableChild is the child process's body; it does nothing
// in a normal test run.
func TestWorkflowDurableChild(t *testing.T) {
	var env crashtest.Env
	durable.Payload(t, &env)
	store := crashtest.OpenStore(t, env.Store)
	defer store.Close()
	ctx := context.Background()
	switch env.Scenario {
	case "midstep":
		w := seqWorkflow(t, env, store, func() { fmt.Println("READY") })
		_, _ = w.CreateRun().Start(ctx, num{N: 1}, nil)
		t.Fatal("the run should have blocked until killed")
	case "suspend":
		w := approvalWorkflow(t, env, store, nil)
		res, err := w.CreateRun().Start(ctx, num{N: 1}, nil)
		if err != nil || res.Status != workflows.StatusSuspended {
			t.Fatalf("suspend: %v %+v", err, res)
		}
		fmt.Println("SUSPENDED " + res.RunID)
		if env.Block {
			fmt.Println("READY")
			select {}
		}
	case "resume":
		w := approvalWorkflow(t, env, store, func() { fmt.Println("BLOCKED") })
		run, err := w.LoadRun(ctx, env.RunID)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("READY")
		crashtest.AwaitRelease(t)
		res, err := run.Resume(ctx, workflows.ResumeOptions{Step: []string{"approve"}, Data: approval{OK: true}})
		switch {
		case err == nil && res.Status == workflows.StatusSuccess && string(res.Result) == `{"n":201}`:
			fmt.Println("RESUMED")
		case errors.Is(err, storage.ErrConflict):
			fmt.Println("CONFLICT")
		default:
			t.Fatalf("resume: %v %+v", err, res)
		}
	default:
		t.Fatalf("unknown scenario %q", env.Scenario)
	}
}

// TestWorkflowKilledMidStepResumesAfterRestart: a process dies (kill -9)
// in step 2 of 3, after step 1's result was saved; another process finds
// the run left running, resumes it, and step 1 does not run again.
func TestWorkflowKilledMidStepResumesAfterRestart(t *testing.T) {
	crashtest.EachStore(t, crashtest.Env{Scenario: "midstep", Block: true}, func(t *testing.T, env crashtest.Env) {
		durable.Start(t, env).KillAt(t, "READY")

		store := crashtest.Restart(t, &env)
		w := seqWorkflow(t, env, store, nil)
		ctx := context.Background()
		running, err := w.ListRuns(ctx, workflows.StatusRunning)
		if err != nil || len(running) != 1 || running[0].Status != storage.RunRunning || running[0].Kind != storage.KindWorkflow || running[0].Name != "durable-seq" {
			t.Fatalf("running runs after the crash: %v %+v", err, running)
		}
		run, err := w.LoadRun(ctx, running[0].RunID)
		if err != nil {
			t.Fatal(err)
		}
		res, err := run.Resume(ctx, workflows.ResumeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":22}` || res.RunID != running[0].RunID {
			t.Fatalf("resumed: %+v", res)
		}
		if got := strings.Join(res.StepExecutionPath, " "); got != "s1 s2 s3" {
			t.Errorf("step execution path %q", got)
		}
		if s1 := res.Steps["s1"]; s1 == nil || string(s1.Output) != `{"n":2}` {
			t.Errorf("step 1's record after the crash: %+v", s1)
		}
		if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "s1 s2 s2 s3" {
			t.Errorf("executions: %s (s1 must run once, s2 twice)", got)
		}
		if left, err := w.ListRuns(ctx, ""); err != nil || len(left) != 0 {
			t.Errorf("a finished run is still stored: %v %+v", err, left)
		}
		// The finished run cannot be resumed again.
		if _, err := w.LoadRun(ctx, running[0].RunID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("LoadRun of a finished run: %v", err)
		}
	})
}

// TestWorkflowSuspendedResumesInAnotherProcess: a run suspends in one
// process, which then exits or is killed; another process loads it and
// resumes the suspended step with data.
func TestWorkflowSuspendedResumesInAnotherProcess(t *testing.T) {
	for name, newStore := range crashtest.Stores() {
		for _, killed := range []bool{false, true} {
			sub := name + "/exit"
			if killed {
				sub = name + "/kill"
			}
			t.Run(sub, func(t *testing.T) {
				env := crashtest.Env{Scenario: "suspend", Store: newStore(t), Log: filepath.Join(t.TempDir(), "exec.log"), Block: killed}
				c := durable.Start(t, env)
				runID := c.AwaitRest(t, "SUSPENDED ")
				if killed {
					c.KillAt(t, "READY")
				} else {
					c.Wait(t)
				}

				store := crashtest.Restart(t, &env)
				w := approvalWorkflow(t, env, store, nil)
				ctx := context.Background()
				suspended, err := w.ListRuns(ctx, workflows.StatusSuspended)
				if err != nil || len(suspended) != 1 || suspended[0].RunID != runID {
					t.Fatalf("suspended runs: %v %+v", err, suspended)
				}
				run, err := w.LoadRun(ctx, runID)
				if err != nil {
					t.Fatal(err)
				}
				if run.Status() != workflows.StatusSuspended {
					t.Fatalf("loaded run status %s", run.Status())
				}
				res, err := run.Resume(ctx, workflows.ResumeOptions{Step: []string{"approve"}, Data: approval{OK: true, Note: "fine"}})
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":201}` {
					t.Fatalf("resumed: %+v", res)
				}
				rec := res.Steps["approve"]
				// As Mastra's, a resumed step's record has the resume's payload
				// and time in place of the suspension's.
				if rec == nil || string(rec.ResumePayload) != `{"ok":true,"note":"fine"}` || rec.ResumedAt == 0 || string(rec.Output) != `{"n":200}` ||
					rec.SuspendPayload != nil || rec.SuspendedAt != 0 {
					t.Errorf("approve's record: %+v", rec)
				}
				if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "prep approve approve finish" {
					t.Errorf("executions: %s", got)
				}
				if left, err := w.ListRuns(ctx, ""); err != nil || len(left) != 0 {
					t.Errorf("a finished run is still stored: %v %+v", err, left)
				}
			})
		}
	}
}

// TestTwoProcessesResumeOneWorkflowRun: a run suspended in process A is
// resumed in B and C at once, on one PostgreSQL: exactly one resume goes
// through, the other fails with storage.ErrConflict, and the suspended
// step runs exactly once more.
func TestTwoProcessesResumeOneWorkflowRun(t *testing.T) {
	env := crashtest.Env{Scenario: "suspend", Store: "postgres:" + pgtest.DSN(t), Log: filepath.Join(t.TempDir(), "exec.log")}
	a := durable.Start(t, env)
	runID := a.AwaitRest(t, "SUSPENDED ")
	a.Wait(t)

	env.Scenario, env.RunID = "resume", runID
	children, results := durable.Race(t, env, 2)
	counts := map[string]int{}
	for _, r := range results {
		counts[r]++
	}
	if counts["RESUMED"] != 1 || counts["CONFLICT"] != 1 {
		t.Errorf("results %v: want one RESUMED and one CONFLICT", results)
	}
	for _, c := range children {
		c.Wait(t)
	}
	if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "prep approve approve finish" {
		t.Errorf("executions: %s (the resumed step must run once)", got)
	}
	store := crashtest.OpenStore(t, env.Store)
	defer store.Close()
	if _, err := store.GetRun(context.Background(), runID); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the finished run is still stored: %v", err)
	}
}

// TestWorkflowKilledDuringResumeResumesAgain: a process dies (kill -9)
// while the step it resumed runs; another process must still be able to
// resume the run (the dead resume's claim must not hold it forever: a
// claim saves a new version at once, and the run is then found running,
// with the resume data it was given).
func TestWorkflowKilledDuringResumeResumesAgain(t *testing.T) {
	crashtest.EachStore(t, crashtest.Env{Scenario: "suspend"}, func(t *testing.T, env crashtest.Env) {
		a := durable.Start(t, env)
		runID := a.AwaitRest(t, "SUSPENDED ")
		a.Wait(t)

		env.Scenario, env.RunID, env.Block = "resume", runID, true
		b := durable.Start(t, env)
		b.Await(t, "READY")
		b.Release(t)
		b.KillAt(t, "BLOCKED")

		store := crashtest.Restart(t, &env)
		w := approvalWorkflow(t, env, store, nil)
		ctx := context.Background()
		left, err := w.ListRuns(ctx, "")
		if err != nil || len(left) != 1 || left[0].RunID != runID {
			t.Fatalf("runs after the crash: %v %+v", err, left)
		}
		run, err := w.LoadRun(ctx, runID)
		if err != nil {
			t.Fatal(err)
		}
		// Left suspended (the resume never saved anything) or running
		// (it did): either way it must go on, with the approval given
		// again if the run still waits for it.
		res, err := run.Resume(ctx, workflows.ResumeOptions{Step: []string{"approve"}, Data: approval{OK: true}})
		if run.Status() == workflows.StatusRunning && err != nil {
			res, err = run.Resume(ctx, workflows.ResumeOptions{})
		}
		if err == nil && res.Status == workflows.StatusSuspended {
			res, err = run.Resume(ctx, workflows.ResumeOptions{Step: []string{"approve"}, Data: approval{OK: true}})
		}
		if err != nil {
			t.Fatalf("resuming again after the resuming process died: %v", err)
		}
		if res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":201}` {
			t.Fatalf("resumed: %+v", res)
		}
	})
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
