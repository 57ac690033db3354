// Package agentcrash holds the durable-run scenarios for agents: a child
// process runs an agent on a real store and is killed with SIGKILL at a
// chosen point; the run is then found and finished by another process.
// Each store's module runs them on its own store (see crashtest.Backend).
//
// Run runs the scenarios as subtests; Child is the body of the children
// they start. A test binary that runs them has both, with one Harness
// and one Backend:
//
//	var durable = crashtest.Harness{Test: "TestDurableChild", EnvVar: "GOMASTRA_DURABLE_CHILD"}
//
//	func TestDurableChild(t *testing.T) { agentcrash.Child(t, durable, crashtest.SQLite) }
//
//	func TestDurableRuns(t *testing.T) { agentcrash.Run(t, durable, crashtest.SQLite) }
//
// BenchSuspendResume measures the suspend→resume round trip of the same
// agent on a backend.
package agentcrash

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/stream"
)

// Run runs the scenarios as subtests of t, each on a fresh store of b;
// the children it starts through h run Child with the same h and b.
func Run(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	t.Helper()
	crashtest.RunScenarios(t, h, b, scenarios)
}

var scenarios = []crashtest.Scenario{
	{Name: "RunKilledMidStepCompletesAfterRestart", Test: killedMidStep},
	{Name: "RunKilledWhileSuspendedResumesAfterRestart", Test: killedWhileSuspended},
	{Name: "RunKilledDuringItsResumeResumesAgain", Test: killedDuringItsResume},
	{Name: "TwoProcessesShareARun", MultiProcess: true, Test: twoProcessesShareARun},
	{Name: "RandomKillsLeaveEveryRunFinishedOrRecoverable", Test: randomKills},
	{Name: "ShutdownFinishesOrParksEveryRun", Test: shutdownParks},
}

// killedMidStep: a process dies in a step's second call, after the
// first call's result was saved; the restarted process finds the run
// running and finishes it without running the first call again.
func killedMidStep(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "midstep", Block: true})
	h.Start(t, env).KillAt(t, "READY")

	// The restarted process finds the run and finishes it.
	a, store := restarted(t, b, &env)
	ctx := context.Background()
	running, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
	if err != nil || len(running) != 1 || len(running[0].ToolCalls) != 1 || running[0].ToolCalls[0].ToolName != "slow" {
		t.Fatalf("running runs after the crash: %v %+v", err, running)
	}
	out, err := a.ResumeGenerate(ctx, running[0].RunID, nil)
	if err != nil || out.Text != "done" {
		t.Fatalf("resumed: %v, %+v", err, out)
	}
	// add and slow run side by side: their first executions come in
	// either order.
	lines := crashtest.LogLines(t, env.Log)
	slices.Sort(lines)
	if got := strings.Join(lines, " "); got != "add:c1 slow:c2 slow:c2" {
		t.Errorf("executions: %s (add must not run again)", got)
	}
	if left, _, _ := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{}); len(left) != 0 {
		t.Errorf("a finished run is still stored: %+v", left)
	}
	msgs, err := store.ListMessages(ctx, "thread-1", 0)
	if err != nil || len(msgs) != 4 || msgs[0].Role != "user" || msgs[3].Role != "assistant" {
		t.Errorf("memory after the crash: %v, %d messages", err, len(msgs))
	}
}

// killedWhileSuspended: a process dies with its run suspended; the
// restarted process finds the run suspended and resumes it.
func killedWhileSuspended(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend", Block: true})
	c := h.Start(t, env)
	runID := c.AwaitRest(t, "SUSPENDED ")
	c.KillAt(t, "READY")

	a, _ := restarted(t, b, &env)
	ctx := context.Background()
	suspended, _, err := a.ListSuspendedRuns(ctx, agent.SuspendedRunsFilter{ThreadID: "thread-1"})
	if err != nil || len(suspended) != 1 || suspended[0].RunID != runID {
		t.Fatalf("suspended runs after the crash: %v %+v", err, suspended)
	}
	out, err := a.ResumeGenerate(ctx, runID, approval{OK: true})
	if err != nil || out.Text != "done" {
		t.Fatalf("resumed: %v", err)
	}
	if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "pay:c1 pay:c1" {
		t.Errorf("executions: %s", got)
	}
}

// killedDuringItsResume: the process resuming a run dies while the
// resumed call runs; another process finds the run running and finishes
// it with the same resume data.
func killedDuringItsResume(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend"})
	first := h.Start(t, env)
	runID := first.AwaitRest(t, "SUSPENDED ")
	_ = first.Cmd.Wait()

	env.Scenario, env.RunID, env.Block = "resumeblock", runID, true
	h.Start(t, env).KillAt(t, "READY")

	a, _ := restarted(t, b, &env)
	ctx := context.Background()
	running, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
	if err != nil || len(running) != 1 || running[0].RunID != runID {
		t.Fatalf("running runs after the crash: %v %+v", err, running)
	}
	out, err := a.ResumeGenerate(ctx, runID, nil)
	if err != nil || out.Text != "done" {
		t.Fatalf("resumed again: %v", err)
	}
	sum := out.ToolResults[0].Payload.(stream.ToolResultPayload).Result
	if raw, _ := json.Marshal(sum); string(raw) != `{"sum":2}` {
		t.Errorf("the call did not get its resume data again: %s", raw)
	}
	if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "pay:c1 pay:c1 pay:c1" {
		t.Errorf("executions: %s", got)
	}
}

// twoProcessesShareARun: a run suspended in process A is resumed in B
// and C at once, on one store: exactly one resume goes through.
func twoProcessesShareARun(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	env := b.FreshEnv(t, crashtest.Env{Scenario: "suspend"})
	a := h.Start(t, env)
	runID := a.AwaitRest(t, "SUSPENDED ")
	_ = a.Cmd.Wait()

	env.Scenario, env.RunID = "resume", runID
	_, results := h.Race(t, env, 2)
	resumed := 0
	for _, r := range results {
		if r == "RESUMED" {
			resumed++
		}
	}
	if resumed != 1 {
		t.Errorf("results %v: want exactly one RESUMED", results)
	}
	if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "pay:c1 pay:c1" {
		t.Errorf("executions: %s (the resumed call must run once)", got)
	}
}
