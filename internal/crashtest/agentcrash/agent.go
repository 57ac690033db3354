package agentcrash

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

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
		SuspendSchema: schema.MustFor[approval](), // suspend-capable: it may suspend, and runs alongside add
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
		ResumeSchema: schema.MustFor[approval](),
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
// on env's store opened anew (see crashtest.Backend.Restart).
func restarted(t *testing.T, b crashtest.Backend, env *crashtest.Env) (*agent.Agent, storage.Store) {
	t.Helper()
	store := b.Restart(t, env)
	return durableAgent(t, *env, store, nil), store
}

// waitForSavedCall polls the store until the saved run records call id
// as ended, in its snapshot or in a change saved after it (the child's
// cue that killing it now loses nothing).
func waitForSavedCall(ctx context.Context, store storage.Store, runID, id string) {
	type call struct{ ID, Status string }
	done := func(c call) bool { return c.ID == id && c.Status == "done" }
	crashtest.PollRun(ctx, store, runID, func(r *storage.Run) bool {
		var snap struct{ Pending *struct{ Calls []call } }
		if json.Unmarshal(r.Snapshot, &snap) == nil && snap.Pending != nil && slices.ContainsFunc(snap.Pending.Calls, done) {
			return true
		}
		for _, d := range r.Deltas {
			var change struct{ Call *struct{ Call call } }
			if json.Unmarshal(d, &change) == nil && change.Call != nil && done(change.Call.Call) {
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
