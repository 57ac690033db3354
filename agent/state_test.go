package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// What is saved of a run — a snapshot, then changes — folds back into the
// state it was made of.
func TestStateChangesFoldBack(t *testing.T) {
	step := &stepState{Reason: "tool-calls", Usage: storedUsage{InputTokens: 3}, Assistant: model.Assistant(model.ToolCall("c1", "a", nil), model.ToolCall("c2", "b", nil)),
		Calls: []callState{{ID: "c1", Name: "a", Status: callRunning}, {ID: "c2", Name: "b", Status: callRunning}}}
	done := callState{ID: "c1", Name: "a", Status: callDone, Result: &model.ToolResultPart{ToolCallID: "c1", ToolName: "a", Output: model.JSONOutput(json.RawMessage(`{"z":1,"a":2}`))}, Value: json.RawMessage(`{"z":1,"a":2}`)}
	for _, tc := range []struct {
		name    string
		changes []stateChange
		check   func(t *testing.T, s *runState)
	}{
		{"a step is pending, its usage counted", []stateChange{{Step: step}}, func(t *testing.T, s *runState) {
			if s.Pending == nil || len(s.Pending.Calls) != 2 || s.Usage.InputTokens != 4 {
				t.Errorf("%+v", s)
			}
		}},
		{"a call's outcome replaces its state, JSON text kept", []stateChange{{Step: step}, {Call: &callChange{Index: 0, Call: done}}}, func(t *testing.T, s *runState) {
			if c := s.Pending.Calls[0]; c.Status != callDone || string(c.Result.Output.Value.(json.RawMessage)) != `{"z":1,"a":2}` {
				t.Errorf("%+v", c)
			}
		}},
		{"a step's end adds its messages and counts it", []stateChange{{Step: step}, {End: &stepEnd{Messages: storedMessages{model.Assistant(model.Text("hi"))}}}}, func(t *testing.T, s *runState) {
			if s.Pending != nil || s.Step != 1 || len(s.Response) != 2 {
				t.Errorf("%+v", s)
			}
		}},
		{"a resume marks the run", []stateChange{{Resumed: true}}, func(t *testing.T, s *runState) {
			if !s.Resumed {
				t.Error("not resumed")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := runState{AgentID: "a", Usage: storedUsage{InputTokens: 1}, Response: storedMessages{model.UserText("x")}}
			snapshot, _ := json.Marshal(base)
			var deltas []json.RawMessage
			for _, c := range tc.changes {
				raw, _ := json.Marshal(c)
				deltas = append(deltas, raw)
			}
			s, err := decodeState(snapshot, deltas)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, s)
			live := base
			live.Response = append(storedMessages(nil), base.Response...)
			for _, c := range tc.changes {
				live.apply(c)
			}
			a, _ := json.Marshal(&live)
			b, _ := json.Marshal(s)
			if diff := cmp.Diff(string(a), string(b)); diff != "" {
				t.Errorf("the live state and the folded one differ:\n%s", diff)
			}
		})
	}
}

// A suspended run's saved state names its memory history by message id
// instead of copying it, and a resume reads it back for the model.
func TestSavedStateRefersToHistory(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	earlier := strings.Repeat("an earlier message ", 20)
	if err := store.SaveThread(ctx, storage.Thread{ID: "t1", ResourceID: "u1"}); err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(model.UserText(earlier))
	if err := store.SaveMessages(ctx, []storage.Message{{ID: "m0", ThreadID: "t1", ResourceID: "u1", Role: "user", Content: content}}); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}}}, mock.Step{Text: "Paid."})
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)}, func(c *Config) { c.Storage, c.Memory = store, &MemoryOptions{} })
	out, err := a.Generate(ctx, "pay 5", WithMemory("t1", "u1"))
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, out.FinishReason)
	}
	saved, err := store.GetRun(ctx, out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(saved.Snapshot), "earlier message") || !strings.Contains(string(saved.Snapshot), `"historyIds":["m0"]`) {
		t.Errorf("the saved state copies or misses the history: %s", saved.Snapshot)
	}
	if _, err := a.ResumeGenerate(ctx, out.RunID, confirmResume{OK: true}); err != nil {
		t.Fatal(err)
	}
	last := m.Calls()[len(m.Calls())-1]
	if !strings.Contains(last.Messages[1].TextContent(), "an earlier message") {
		t.Errorf("the resumed model call lacks the history: %+v", last.Messages[:2])
	}
}
