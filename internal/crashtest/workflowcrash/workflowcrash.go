// Package workflowcrash holds the durable-run scenarios for workflows: a
// child process runs a workflow on a real store and is killed with
// SIGKILL at a chosen point (or exits); the run is then found and
// finished by another process. Each store's module runs them on its own
// store (see crashtest.Backend).
//
// Run runs the scenarios as subtests; Child is the body of the children
// they start. A test binary that runs them has both, with one Harness
// and one Backend:
//
//	var durable = crashtest.Harness{Test: "TestWorkflowDurableChild", EnvVar: "GOMASTRA_WORKFLOW_DURABLE_CHILD"}
//
//	func TestWorkflowDurableChild(t *testing.T) { workflowcrash.Child(t, durable, crashtest.SQLite) }
//
//	func TestDurableWorkflowRuns(t *testing.T) { workflowcrash.Run(t, durable, crashtest.SQLite) }
package workflowcrash

import (
	"context"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// Run runs the scenarios as subtests of t, each on a fresh store of b;
// the children it starts through h run Child with the same h and b.
func Run(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	t.Helper()
	crashtest.RunScenarios(t, h, b, scenarios)
}

var scenarios = []crashtest.Scenario{
	{Name: "WorkflowKilledMidStepResumesAfterRestart", Test: killedMidStep},
	{Name: "WorkflowSuspendedResumesInAnotherProcess", Test: suspendedResumesInAnotherProcess},
	{Name: "TwoProcessesResumeOneWorkflowRun", MultiProcess: true, Test: twoProcessesResumeOneRun},
	{Name: "WorkflowKilledDuringResumeResumesAgain", Test: killedDuringResume},
}

// killedMidStep: a process dies (kill -9) in step 2 of 3, after step
// 1's result was saved; another process finds the run left running,
// resumes it, and step 1 does not run again.
func killedMidStep(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "midstep", Block: true})
	h.Start(t, env).KillAt(t, "READY")

	store := b.Restart(t, &env)
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
		t.Errorf("a finished run is still resumable: %v %+v", err, left)
	}
	// The finished run is kept, finished: it cannot be resumed again.
	if done, err := w.LoadRun(ctx, running[0].RunID); err != nil || done.Status() != workflows.StatusSuccess {
		t.Errorf("LoadRun of a finished run: %v", err)
	} else if _, err := done.Resume(ctx, workflows.ResumeOptions{}); err == nil {
		t.Error("a finished run resumed again")
	}
}

// suspendedResumesInAnotherProcess: a run suspends in one process, which
// then exits (subtest exit) or is killed (subtest kill); another process
// loads it and resumes the suspended step with data.
func suspendedResumesInAnotherProcess(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	for _, killed := range []bool{false, true} {
		name := "exit"
		if killed {
			name = "kill"
		}
		t.Run(name, func(t *testing.T) { suspendedResumesAfter(t, h, b, killed) })
	}
}

// suspendedResumesAfter is suspendedResumesInAnotherProcess with the
// suspending process killed or left to exit.
func suspendedResumesAfter(t *testing.T, h crashtest.Harness, b crashtest.Backend, killed bool) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend", Block: killed})
	c := h.Start(t, env)
	runID := c.AwaitRest(t, "SUSPENDED ")
	if killed {
		c.KillAt(t, "READY")
	} else {
		c.Wait(t)
	}

	store := b.Restart(t, &env)
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
		t.Errorf("a finished run is still resumable: %v %+v", err, left)
	}
}

// twoProcessesResumeOneRun: a run suspended in process A is resumed in B
// and C at once, on one store: exactly one resume goes through, the
// other fails with storage.ErrConflict, and the suspended step runs
// exactly once more.
func twoProcessesResumeOneRun(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend"})
	a := h.Start(t, env)
	runID := a.AwaitRest(t, "SUSPENDED ")
	a.Wait(t)

	env.Scenario, env.RunID = "resume", runID
	children, results := h.Race(t, env, 2)
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
	store := b.OpenStore(t, env.Store)
	if done, err := store.GetRun(context.Background(), runID); err != nil || done.Status != storage.RunSuccess {
		t.Errorf("the finished run as stored: %v %+v", err, done)
	}
}

// killedDuringResume: a process dies (kill -9) while the step it
// resumed runs; another process must still be able to resume the run
// (the dead resume's claim must not hold it forever: a claim saves a new
// version at once, and the run is then found running, with the resume
// data it was given).
func killedDuringResume(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend"})
	a := h.Start(t, env)
	runID := a.AwaitRest(t, "SUSPENDED ")
	a.Wait(t)

	env.Scenario, env.RunID, env.Block = "resume", runID, true
	c := h.Start(t, env)
	c.Await(t, "READY")
	c.Release(t)
	c.KillAt(t, "BLOCKED")

	store := b.Restart(t, &env)
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
}
