package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/internal/pgtest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// These tests prove that runs survive their process: a child process (this
// test binary, re-executed into TestDurableChild) runs an agent on a real
// store and is killed with SIGKILL at a chosen point; the run is then found
// and finished by another process.

// durable starts the children: TestDurableChild, its payload (a
// crashtest.Env) in GOMASTRA_DURABLE_CHILD.
var durable = crashtest.Harness{Test: "TestDurableChild", EnvVar: "GOMASTRA_DURABLE_CHILD"}

type numbers struct {
	A int `json:"a"`
	B int `json:"b"`
}
type sum struct {
	Sum int `json:"sum"`
}
type approval struct {
	OK bool `json:"ok"`
}

// durableAgent is the agent both processes run: add logs each execution;
// slow logs too and, in a child told to block, waits (once add's result
// is saved) until it is killed; pay suspends until resumed.
func durableAgent(t testing.TB, env crashtest.Env, store storage.Store, ready func()) *agent.Agent {
	add := tools.New(tools.Config[numbers, sum]{ID: "add", Execute: func(ctx tools.Context, in numbers) (sum, error) {
		crashtest.LogLine(env.Log, "add:"+ctx.ToolCallID())
		return sum{Sum: in.A + in.B}, nil
	}})
	slow := tools.New(tools.Config[numbers, sum]{ID: "slow",
		SuspendSchema: mustFor[approval](), // suspend-capable: the step's calls run one by one
		Execute: func(ctx tools.Context, in numbers) (sum, error) {
			crashtest.LogLine(env.Log, "slow:"+ctx.ToolCallID())
			if env.Block {
				waitForSavedCall(ctx, store, ctx.RunID(), "c1")
				ready()
				select {}
			}
			return sum{Sum: in.A * in.B}, nil
		}})
	pay := tools.New(tools.Config[numbers, sum]{ID: "pay",
		ResumeSchema: mustFor[approval](),
		Execute: func(ctx tools.Context, in numbers) (sum, error) {
			crashtest.LogLine(env.Log, "pay:"+ctx.ToolCallID())
			ok, resumed, err := tools.ResumeDataAs[approval](ctx)
			if err != nil {
				return sum{}, err
			}
			if !resumed {
				return sum{}, ctx.Suspend(map[string]any{"question": "pay?"})
			}
			if env.Scenario == "resumeblock" && env.Block {
				ready()
				select {}
			}
			if !ok.OK {
				return sum{}, nil
			}
			return sum{Sum: in.A}, nil
		}})
	a, err := agent.New(agent.Config{
		ID: "durable", Name: "Durable", Instructions: "You run tools.", Model: statefulModel{},
		Tools:   tools.Set{"add": add, "slow": slow, "pay": pay},
		Storage: store, Memory: &agent.MemoryOptions{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// restarted is the process that comes after the crash: the agent again,
// on env's store opened anew (see crashtest.Restart).
func restarted(t *testing.T, env *crashtest.Env) (*agent.Agent, storage.Store) {
	t.Helper()
	store := crashtest.Restart(t, env)
	return durableAgent(t, *env, store, nil), store
}

func mustFor[T any]() *schema.Compiled {
	s, err := schema.For[T]()
	if err != nil {
		panic(err)
	}
	return s
}

// waitForSavedCall polls the store until the run's snapshot records call
// id as ended (the child's cue that killing it now loses nothing).
func waitForSavedCall(ctx context.Context, store storage.Store, runID, id string) {
	crashtest.PollRun(ctx, store, runID, func(raw json.RawMessage) bool {
		var snap struct {
			Pending *struct {
				Calls []struct{ ID, Status string }
			}
		}
		if json.Unmarshal(raw, &snap) != nil || snap.Pending == nil {
			return false
		}
		for _, c := range snap.Pending.Calls {
			if c.ID == id && c.Status == "done" {
				return true
			}
		}
		return false
	})
}

// statefulModel answers from the conversation, not from a call count, so
// a fresh process continues where a dead one stopped: the user's message
// names the tools to call; once their results are in, it answers.
type statefulModel struct{}

func (statefulModel) Provider() string { return "test" }
func (statefulModel) ModelID() string  { return "stateful" }

func (statefulModel) Stream(_ context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		last := req.Messages[len(req.Messages)-1]
		var parts []model.StreamPart
		if last.Role == model.RoleTool {
			parts = append(parts, model.StreamPart{Type: model.PartTextStart, ID: "t"},
				model.StreamPart{Type: model.PartTextDelta, ID: "t", Delta: "done"}, model.StreamPart{Type: model.PartTextEnd, ID: "t"})
			parts = append(parts, model.StreamPart{Type: model.PartFinish, FinishReason: model.FinishStop})
		} else {
			for i, name := range strings.Fields(last.TextContent()) {
				id := fmt.Sprintf("c%d", i+1)
				parts = append(parts, model.StreamPart{Type: model.PartToolCall, ToolCallID: id, ToolName: name, Input: `{"a":2,"b":3}`})
			}
			parts = append(parts, model.StreamPart{Type: model.PartFinish, FinishReason: model.FinishToolCalls})
		}
		for _, p := range parts {
			if !yield(p, nil) {
				return
			}
		}
	}
}

// TestDurableChild is the child process's body; it does nothing in a
// normal test run.
func TestDurableChild(t *testing.T) {
	var env crashtest.Env
	durable.Payload(t, &env)
	store := crashtest.OpenStore(t, env.Store)
	defer store.Close()
	ready := func() { fmt.Println("READY") }
	a := durableAgent(t, env, store, ready)
	ctx := context.Background()
	switch env.Scenario {
	case "midstep":
		_, _ = a.Generate(ctx, "add slow", agent.WithMemory("thread-1", "user-1"))
		t.Fatal("the run should have blocked until killed")
	case "suspend":
		out, err := a.Generate(ctx, "pay", agent.WithMemory("thread-1", "user-1"))
		if err != nil || out.FinishReason != model.FinishSuspended {
			t.Fatalf("suspend: %v %s", err, out.FinishReason)
		}
		fmt.Println("SUSPENDED " + out.RunID)
		if env.Block {
			ready()
			select {}
		}
	case "resumeblock":
		_, _ = a.ResumeGenerate(ctx, env.RunID, approval{OK: true})
		t.Fatal("the resumed call should have blocked until killed")
	case "resume":
		fmt.Println("READY")
		crashtest.AwaitRelease(t)
		out, err := a.ResumeGenerate(ctx, env.RunID, approval{OK: true})
		switch {
		case err == nil && out.Text == "done":
			fmt.Println("RESUMED")
		case errors.Is(err, storage.ErrConflict):
			fmt.Println("CONFLICT")
		default:
			var re *agent.RunError
			if errors.As(err, &re) && re.Code == "AGENT_RESUME_NO_SNAPSHOT_FOUND" {
				fmt.Println("CONFLICT") // the other process resumed and finished first
				return
			}
			t.Fatalf("resume: %v", err)
		}
	}
}

func TestRunKilledMidStepCompletesAfterRestart(t *testing.T) {
	crashtest.EachStore(t, crashtest.Env{Scenario: "midstep", Block: true}, func(t *testing.T, env crashtest.Env) {
		durable.Start(t, env).KillAt(t, "READY")

		// The restarted process finds the run and finishes it.
		a, store := restarted(t, &env)
		ctx := context.Background()
		running, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
		if err != nil || len(running) != 1 || len(running[0].ToolCalls) != 1 || running[0].ToolCalls[0].ToolName != "slow" {
			t.Fatalf("running runs after the crash: %v %+v", err, running)
		}
		out, err := a.ResumeGenerate(ctx, running[0].RunID, nil)
		if err != nil || out.Text != "done" {
			t.Fatalf("resumed: %v, %+v", err, out)
		}
		if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "add:c1 slow:c2 slow:c2" {
			t.Errorf("executions: %s (add must not run again)", got)
		}
		if left, _, _ := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{}); len(left) != 0 {
			t.Errorf("a finished run is still stored: %+v", left)
		}
		msgs, err := store.ListMessages(ctx, "thread-1", 0)
		if err != nil || len(msgs) != 4 || msgs[0].Role != "user" || msgs[3].Role != "assistant" {
			t.Errorf("memory after the crash: %v, %d messages", err, len(msgs))
		}
	})
}

func TestRunKilledWhileSuspendedResumesAfterRestart(t *testing.T) {
	crashtest.EachStore(t, crashtest.Env{Scenario: "suspend", Block: true}, func(t *testing.T, env crashtest.Env) {
		c := durable.Start(t, env)
		runID := c.AwaitRest(t, "SUSPENDED ")
		c.KillAt(t, "READY")

		a, _ := restarted(t, &env)
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
	})
}

// TestRunKilledDuringItsResumeResumesAgain: the process resuming a run
// dies while the resumed call runs; another process finds the run
// running and finishes it with the same resume data.
func TestRunKilledDuringItsResumeResumesAgain(t *testing.T) {
	crashtest.EachStore(t, crashtest.Env{Scenario: "suspend"}, func(t *testing.T, env crashtest.Env) {
		first := durable.Start(t, env)
		runID := first.AwaitRest(t, "SUSPENDED ")
		_ = first.Cmd.Wait()

		env.Scenario, env.RunID, env.Block = "resumeblock", runID, true
		durable.Start(t, env).KillAt(t, "READY")

		a, _ := restarted(t, &env)
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
		if b, _ := json.Marshal(sum); string(b) != `{"sum":2}` {
			t.Errorf("the call did not get its resume data again: %s", b)
		}
		if got := strings.Join(crashtest.LogLines(t, env.Log), " "); got != "pay:c1 pay:c1 pay:c1" {
			t.Errorf("executions: %s", got)
		}
	})
}

// TestTwoProcessesShareARun: a run suspended in process A is resumed in
// B and C at once, on one PostgreSQL: exactly one resume goes through.
func TestTwoProcessesShareARun(t *testing.T) {
	env := crashtest.Env{Scenario: "suspend", Store: "postgres:" + pgtest.DSN(t), Log: filepath.Join(t.TempDir(), "exec.log")}
	a := durable.Start(t, env)
	runID := a.AwaitRest(t, "SUSPENDED ")
	_ = a.Cmd.Wait()

	env.Scenario, env.RunID = "resume", runID
	_, results := durable.Race(t, env, 2)
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
