package agentcrash

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// The random-kill scenario: a child process streams runsPerRound
// two-step runs at once (a tool call, then a text answer), each on its
// own memory thread, and is killed with SIGKILL at a random instant of
// its life; the parent then recovers every run left running and checks,
// from an execution log that survives the kill and from the threads:
//
//   - every thread holds the whole conversation, each message once: the
//     user's, the assistant's tool call, the tool's result, the answer;
//   - no run is left running, and no thread holds a lone input;
//   - no model step ran again once its step-finish chunk had been
//     streamed, and no tool call ran again once its result chunk had been
//     (a chunk is streamed only after what it reports is saved).
const (
	runsPerRound = 30
	killRounds   = 6
)

// killTools is the one tool the runs call: add, which logs each
// execution with a nonce its result carries.
func killTools(log string) tools.Set {
	add := tools.New(tools.Config[numbers, noncedSum]{ID: "add", Execute: func(ctx tools.Context, in numbers) (noncedSum, error) {
		nonce := newNonce()
		crashtest.LogLine(log, "tool:"+ctx.ToolCallID()+":"+nonce)
		if err := sleep(ctx, 2*time.Millisecond); err != nil {
			return noncedSum{}, err
		}
		return noncedSum{Sum: in.A + in.B, Nonce: nonce}, nil
	}})
	return tools.Set{"add": add}
}

type noncedSum struct {
	Sum   int    `json:"sum"`
	Nonce string `json:"nonce"`
}

// killAgent is the agent of the random-kill scenario on store (opts
// change its config).
func killAgent(t testing.TB, log string, store storage.Store, opts ...func(*agent.Config)) *agent.Agent {
	cfg := agent.Config{
		ID: "killable", Name: "Killable", Instructions: "You add.", Model: killModel{log: log},
		Tools: killTools(log), Storage: store, Memory: &agent.MemoryOptions{},
	}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// killModel answers "add <run>" with a call of add (id "<run>-c1"), then,
// once its result is in, with "done"; each call is logged as
// "model:<run>:<step>" and its parts come a millisecond apart.
type killModel struct{ log string }

func (killModel) Provider() string { return "test" }
func (killModel) ModelID() string  { return "killable" }

func (m killModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		run, step := requestRun(req)
		crashtest.LogLine(m.log, fmt.Sprintf("model:%s:%d", run, step))
		parts := []model.StreamPart{{Type: model.PartTextStart, ID: "t"}}
		if step == 0 {
			parts = append(parts, model.StreamPart{Type: model.PartToolCall, ToolCallID: run + "-c1", ToolName: "add", Input: `{"a":2,"b":3}`},
				model.StreamPart{Type: model.PartFinish, FinishReason: model.FinishToolCalls})
		} else {
			parts = append(parts, model.StreamPart{Type: model.PartTextDelta, ID: "t", Delta: "do"}, model.StreamPart{Type: model.PartTextDelta, ID: "t", Delta: "ne"},
				model.StreamPart{Type: model.PartTextEnd, ID: "t"}, model.StreamPart{Type: model.PartFinish, FinishReason: model.FinishStop})
		}
		for _, p := range parts {
			if err := sleep(ctx, time.Millisecond); err != nil {
				yield(model.StreamPart{}, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

// requestRun reads a request's run name (the user's "add <run>") and
// step (0 before the tool's result, 1 after).
func requestRun(req *model.Request) (run string, step int) {
	for _, m := range req.Messages {
		if m.Role == model.RoleUser {
			run = strings.TrimPrefix(m.TextContent(), "add ")
		}
	}
	if req.Messages[len(req.Messages)-1].Role == model.RoleTool {
		step = 1
	}
	return run, step
}

// randomKillChild streams the round's runs and logs what they report:
// "stepfinish:<run>:<step>" and "result:<call>:<nonce>".
func randomKillChild(a *agent.Agent, log string) {
	printReady()
	var wg sync.WaitGroup
	for i := range runsPerRound {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := fmt.Sprintf("r%d", i)
			step := 0
			for c, err := range a.Stream(context.Background(), "add "+run, agent.WithRunID(run), agent.WithMemory("thread-"+run, "user-1")) {
				if err != nil {
					return
				}
				switch p := c.Payload.(type) {
				case stream.FinishPayload:
					if c.Type == stream.TypeStepFinish {
						crashtest.LogLine(log, fmt.Sprintf("stepfinish:%s:%d", run, step))
						step++
					}
				case stream.ToolResultPayload:
					var out noncedSum
					if raw, ok := p.Result.(json.RawMessage); ok {
						_ = json.Unmarshal(raw, &out)
					}
					crashtest.LogLine(log, "result:"+p.ToolCallID+":"+out.Nonce)
				}
			}
		}()
	}
	wg.Wait()
	fmt.Println("DONE")
	select {} // until killed
}

// randomKills runs killRounds rounds, each on a fresh store with a kill
// at a random instant of the child's life (measured by a first round that
// runs to the end).
func randomKills(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	life := time.Duration(0)
	for round := range killRounds + 1 {
		env := b.FreshEnv(t, crashtest.Env{Scenario: "randomkill"})
		child := h.Start(t, env)
		child.Await(t, "READY")
		t0 := time.Now()
		if round == 0 {
			child.Await(t, "DONE")
			life = time.Since(t0)
		} else {
			time.Sleep(randomDuration(life + life/5))
		}
		child.Kill(t)
		checkRecovered(t, b, env, round)
	}
}

// checkRecovered recovers the runs a killed child left running and
// checks the threads and the execution log.
func checkRecovered(t *testing.T, b crashtest.Backend, env crashtest.Env, round int) {
	t.Helper()
	store := b.OpenStore(t, env.Store)
	a := killAgent(t, env.Log, store)
	ctx := context.Background()
	running, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range running {
		if out, err := a.ResumeGenerate(ctx, r.RunID, nil); err != nil || out.Text != "done" {
			t.Errorf("round %d: recovering %s: %v", round, r.RunID, err)
		}
	}
	if left, _, _ := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{}); len(left) > 0 {
		t.Errorf("round %d: %d runs still running after recovery", round, len(left))
	}
	for i := range runsPerRound {
		checkThread(t, store, fmt.Sprintf("r%d", i), round)
	}
	checkNoRepeats(t, crashtest.LogLines(t, env.Log), round)
}

// checkThread checks that run's thread, if it exists, holds the whole
// conversation, each message once.
func checkThread(t *testing.T, store storage.Store, run string, round int) {
	t.Helper()
	msgs, err := store.ListMessages(context.Background(), "thread-"+run, 0)
	if err != nil || len(msgs) == 0 {
		return // never started, or killed before its thread existed
	}
	var got []string
	for _, m := range msgs {
		var msg model.Message
		if err := json.Unmarshal(m.Content, &msg); err != nil {
			t.Fatal(err)
		}
		got = append(got, describe(msg))
	}
	want := []string{"user:add " + run, "assistant:call " + run + "-c1", "tool:result " + run + "-c1", "assistant:done"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("round %d: thread of %s:\n got %q\nwant %q", round, run, got, want)
	}
}

// describe is a message in a word or two: its role and what it holds.
func describe(m model.Message) string {
	var what []string
	for _, p := range m.Content {
		switch {
		case p.ToolCall != nil:
			what = append(what, "call "+p.ToolCall.ToolCallID)
		case p.ToolResult != nil:
			what = append(what, "result "+p.ToolResult.ToolCallID)
		case p.Type == model.MessageText && p.Text != "":
			what = append(what, p.Text)
		}
	}
	return string(m.Role) + ":" + strings.Join(what, ",")
}

// checkNoRepeats checks the execution log: no model step after its
// step-finish was streamed, no tool execution after its result was.
func checkNoRepeats(t *testing.T, lines []string, round int) {
	t.Helper()
	finished, reported := map[string]bool{}, map[string]bool{}
	for _, line := range lines {
		kind, rest, _ := strings.Cut(line, ":")
		switch kind {
		case "stepfinish":
			finished[rest] = true
		case "result":
			call, _, _ := strings.Cut(rest, ":")
			reported[call] = true
		case "model":
			if finished[rest] {
				t.Errorf("round %d: model step %s ran again after its step-finish", round, rest)
			}
		case "tool":
			if call, _, _ := strings.Cut(rest, ":"); reported[call] {
				t.Errorf("round %d: tool call %s ran again after its result", round, call)
			}
		}
	}
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// randomDuration is uniform in [0, max).
func randomDuration(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(max)))
	return time.Duration(n.Int64())
}

// newNonce is a random token naming one tool execution.
func newNonce() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
