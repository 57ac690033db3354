package temporal_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/tools"
)

// The worker-loss tests: a run starts on worker A (a child process),
// which is killed with SIGKILL at a chosen point — inside a model call,
// inside a tool call, or while the run waits for an approval — once
// worker B (another child) is up; B must finish the run. Every model and
// tool call is logged in an execution log that survives the kill: a call
// that had completed must never run again, and the reader that followed
// the run's log across the kill must have read every event once.

var workerHarness = crashtest.Harness{Test: "TestWorkerChild", EnvVar: "GOMASTRA_TEMPORAL_WORKER"}

// workerEnv is a worker child's payload.
type workerEnv struct {
	HostPort, Namespace, Queue string
	DB, Log                    string
	// Stall is the call the worker stalls in (prints "STALL" and waits
	// to be killed) the first time it is made: "model:1" or "tool:call-1".
	Stall string
}

// TestWorkerChild is a worker's body: it runs the loss registry's agents
// until it is killed.
func TestWorkerChild(t *testing.T) {
	var env workerEnv
	workerHarness.Payload(t, &env)
	store, err := sqlite.Open(context.Background(), env.DB)
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(client.Options{HostPort: env.HostPort, Namespace: env.Namespace})
	if err != nil {
		t.Fatal(err)
	}
	w := worker.New(c, env.Queue, worker.Options{StickyScheduleToStartTimeout: time.Second})
	reg := lossRegistry(t, store, env)
	// Each worker's manager runs background tasks; one lost with its
	// worker is taken up by the other's once its lease lapses.
	if _, err := reg.EnableBackgroundTasks(context.Background(), bgtasks.Config{Store: store, Lease: time.Second, PollInterval: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	temporal.Register(w, reg, temporal.Options{Heartbeat: 200 * time.Millisecond})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("READY")
	select {}
}

// lossRegistry is the agents of the worker-loss tests on store:
// "worker" calls work twice (call-0, call-1) and answers "done";
// "guarded" calls work (call-0) and then transfer (g1), which needs an
// approval, and answers "done"; "researcher" calls research (bg-1), a
// background task, and answers "done" while it runs.
func lossRegistry(t testing.TB, store *sqlite.Store, env workerEnv) *mastra.Mastra {
	stall := func(what string) {
		if env.Stall == what && !slices.Contains(crashtest.LogLines(t, env.Log), "start:"+what) {
			crashtest.LogLine(env.Log, "start:"+what)
			fmt.Println("STALL")
			select {} // until killed
		}
	}
	work := tools.New(tools.Config[struct{}, string]{ID: "work", Description: "Works.", Execute: func(ctx tools.Context, _ struct{}) (string, error) {
		stall("tool:" + ctx.ToolCallID())
		crashtest.LogLine(env.Log, "tool:"+ctx.ToolCallID())
		return "worked " + ctx.ToolCallID(), nil
	}})
	research := tools.New(tools.Config[struct{}, string]{ID: "research", Description: "Researches.",
		Background: &tools.BackgroundConfig{Enabled: true, MaxRetries: 1},
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			stall("tool:" + ctx.ToolCallID())
			crashtest.LogLine(env.Log, "tool:"+ctx.ToolCallID())
			return "researched", nil
		}})
	transfer := tools.New(tools.Config[struct{}, string]{ID: "transfer", Description: "Moves money.", RequireApproval: true,
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			crashtest.LogLine(env.Log, "tool:"+ctx.ToolCallID())
			return "moved", nil
		}})
	script := func(calls ...mock.ToolCall) *mock.Model {
		return mock.NewFunc(func(req *model.Request) mock.Step {
			n := 0
			for _, m := range req.Messages {
				if m.Role == model.RoleTool {
					n++
				}
			}
			stall(fmt.Sprintf("model:%d", n))
			crashtest.LogLine(env.Log, fmt.Sprintf("model:%d", n))
			if n < len(calls) {
				return mock.Step{Text: fmt.Sprintf("Step %d. ", n), ToolCalls: []mock.ToolCall{calls[n]}}
			}
			return mock.Step{Text: "done"}
		})
	}
	mk := func(id string, m *mock.Model) *agent.Agent {
		a, err := agent.New(agent.Config{ID: id, Name: id, Instructions: "Work.", Model: m, Storage: store, Memory: &agent.MemoryOptions{},
			Tools: tools.Set{"work": work, "transfer": transfer, "research": research}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	return mastra.New(mastra.Config{Agents: map[string]*agent.Agent{
		"worker":     mk("worker", script(mock.ToolCall{ID: "call-0", Name: "work", Args: `{}`}, mock.ToolCall{ID: "call-1", Name: "work", Args: `{}`})),
		"guarded":    mk("guarded", script(mock.ToolCall{ID: "call-0", Name: "work", Args: `{}`}, mock.ToolCall{ID: "g1", Name: "transfer", Args: `{}`})),
		"researcher": mk("researcher", script(mock.ToolCall{ID: "bg-1", Name: "research", Args: `{}`})),
	}, Workflows: lossWorkflows(t, store, stall, env.Log)})
}

func TestWorkerLoss(t *testing.T) {
	cases := []struct {
		name, agent, stall string
		approve            bool
		want               map[string]int // executions by call
		steps              int            // of the run's log
	}{
		{"mid model call", "worker", "model:1", false, map[string]int{"model:0": 1, "tool:call-0": 1, "model:1": 1, "tool:call-1": 1, "model:2": 1}, 3},
		{"mid tool call", "worker", "tool:call-1", false, map[string]int{"model:0": 1, "tool:call-0": 1, "model:1": 1, "tool:call-1": 1, "model:2": 1}, 3},
		{"while waiting for approval", "guarded", "", true, map[string]int{"model:0": 1, "tool:call-0": 1, "model:1": 1, "tool:g1": 1, "model:2": 1}, 3},
		// The run finishes while its background task runs on worker A;
		// A is lost; B's manager runs the task again (its retry) and B's
		// wait for it writes its result into memory.
		{"mid background task", "researcher", "tool:bg-1", false, map[string]int{"model:0": 1, "tool:bg-1": 1, "model:1": 1}, 2},
	}
	ts := newServer(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			env := workerEnv{HostPort: ts.GetFrontendHostPort(), Namespace: ts.GetDefaultNamespace(), Queue: "loss-" + filepath.Base(dir),
				DB: filepath.Join(dir, "mastra.db"), Log: filepath.Join(dir, "exec.log"), Stall: tc.stall}
			store, err := sqlite.Open(context.Background(), env.DB)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			reg := lossRegistry(t, store, workerEnv{}) // the reader's: its agents never run here
			c := temporal.NewClient(ts.GetDefaultClient(), env.Queue, reg)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()

			a := workerHarness.Start(t, env)
			a.Await(t, "READY")
			runID, err := c.Start(ctx, temporal.RunInput{AgentKey: tc.agent, LaunchRequest: agent.LaunchRequest{Messages: []model.Message{model.UserText("Work.")},
				ThreadID: "th-" + filepath.Base(dir), ResourceID: "user-1"}})
			if err != nil {
				t.Fatal(err)
			}
			read := make(chan []agent.RunEvent, 1)
			waiting := make(chan struct{})
			go func() { read <- follow(ctx, reg, tc.agent, runID, waiting) }()
			if tc.approve {
				<-waiting
			} else {
				a.Await(t, "STALL")
			}
			b := workerHarness.Start(t, env)
			b.Await(t, "READY")
			a.Kill(t)
			if tc.approve {
				if err := c.Approve(ctx, runID, "g1"); err != nil {
					t.Fatal(err)
				}
			}
			res, err := c.Result(ctx, runID)
			if err != nil || !strings.HasSuffix(res.Text, "done") {
				t.Fatalf("result %+v, %v", res, err)
			}
			checkExecutions(t, crashtest.LogLines(t, env.Log), tc.want)
			checkRead(t, <-read, reg, tc.agent, runID, tc.steps)
			if tc.agent == "researcher" {
				checkResearched(t, store, "th-"+filepath.Base(dir))
			}
		})
	}
}

// follow reads the run's log to its end, as one reader across the kill;
// it closes waiting when it reads a call that waits.
func follow(ctx context.Context, reg *mastra.Mastra, agentKey, runID string, waiting chan struct{}) []agent.RunEvent {
	a, _ := reg.GetAgent(agentKey)
	var events []agent.RunEvent
	var once sync.Once
	for {
		for ev, err := range a.Observe(ctx, runID, int64(len(events))) {
			if err != nil {
				if errors.Is(err, agent.ErrRunNotFound) {
					break // not started yet
				}
				return events
			}
			events = append(events, ev)
			if ev.Chunk.Type == stream.TypeToolCallApproval {
				once.Do(func() { close(waiting) })
			}
			if ev.Chunk.Type == stream.TypeFinish {
				return events
			}
		}
		select {
		case <-ctx.Done():
			return events
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// checkExecutions checks how often each model and tool call ran to its
// end (a stalled first attempt logs "start:", not the call).
func checkExecutions(t *testing.T, lines []string, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "start:") {
			got[l]++
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s ran %d times, want %d (log %q)", k, got[k], n, lines)
		}
	}
	if len(got) != len(want) {
		t.Errorf("calls ran: %v, want %v", got, want)
	}
}

// checkRead checks that the reader read every event of the run's log
// once, in order, and that the log holds one run: one start, steps steps
// (a tool result in each but the last), one finish.
func checkRead(t *testing.T, read []agent.RunEvent, reg *mastra.Mastra, agentKey, runID string, steps int) {
	t.Helper()
	a, _ := reg.GetAgent(agentKey)
	var all []agent.RunEvent
	for ev, err := range a.Observe(context.Background(), runID, 0) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ev)
	}
	if len(read) != len(all) {
		t.Fatalf("the reader read %d events, the log holds %d", len(read), len(all))
	}
	count := map[string]int{}
	for i, ev := range read {
		if ev.Index != int64(i) || ev.Chunk.Type != all[i].Chunk.Type {
			t.Fatalf("event %d: read index %d type %s, the log holds %s", i, ev.Index, ev.Chunk.Type, all[i].Chunk.Type)
		}
		count[ev.Chunk.Type]++
	}
	if count[stream.TypeStart] != 1 || count[stream.TypeStepStart] != steps || count[stream.TypeStepFinish] != steps || count[stream.TypeFinish] != 1 || count[stream.TypeToolResult] != steps-1 {
		t.Errorf("the log does not hold one run of %d steps: %v", steps, count)
	}
}

// checkResearched checks that the background task's result replaced its
// placeholder in the thread's memory.
func checkResearched(t *testing.T, store *sqlite.Store, thread string) {
	t.Helper()
	msgs, err := store.ListMessages(context.Background(), thread, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == "tool" && strings.Contains(string(m.Content), `"researched"`) {
			return
		}
	}
	t.Errorf("no tool message in memory holds the task's result: %d messages", len(msgs))
}
