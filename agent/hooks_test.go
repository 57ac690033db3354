package agent

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

func TestHooksWrapToolCalls(t *testing.T) {
	var mu sync.Mutex
	var log []string
	record := func(s string) { mu.Lock(); log = append(log, s); mu.Unlock() }
	ran := 0
	add := tools.New(tools.Config[addIn, addOut]{ID: "add", Execute: func(_ tools.Context, in addIn) (addOut, error) {
		ran++
		return addOut{Sum: in.A + in.B}, nil
	}})
	agentHooks := Hooks{
		BeforeToolCall: func(_ context.Context, c HookCall) (*Skip, error) {
			record("agent-before " + c.ToolCallID)
			return nil, nil
		},
		AfterToolCall: func(_ context.Context, c HookCall, out any, err error) error {
			if tools.IsValidationError(out) {
				record("after validation-error " + c.ToolCallID)
			} else {
				record("after " + c.ToolCallID)
			}
			return nil
		},
	}
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c2", Name: "add", Args: `{"a":"x"}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c3", Name: "add", Args: `{"a":5,"b":5}`}}},
		mock.Step{Text: "ok"},
	)
	a := newAgent(t, m, tools.Set{"add": add}, func(c *Config) { c.Hooks = agentHooks })
	skipC3 := Hooks{BeforeToolCall: func(_ context.Context, c HookCall) (*Skip, error) {
		record("call-before " + c.ToolCallID + " " + string(c.Input))
		if c.ToolCallID == "c3" {
			return &Skip{Output: map[string]int{"sum": 99}}, nil
		}
		return nil, nil
	}}
	out, err := a.Generate(context.Background(), "go", WithHooks(skipC3))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`call-before c1 {"a":1,"b":2}`, "after c1",
		`call-before c2 {"a":"x"}`, "after validation-error c2",
		`call-before c3 {"a":5,"b":5}`,
	}
	if d := cmp.Diff(want, log); d != "" {
		t.Errorf("hook calls (-want +got):\n%s", d)
	}
	if ran != 1 {
		t.Errorf("the tool ran %d times, want 1 (c2 invalid, c3 skipped)", ran)
	}
	var skipped string
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolResult && c.Payload.(stream.ToolResultPayload).ToolCallID == "c3" {
			b, _ := json.Marshal(c.Payload.(stream.ToolResultPayload).Result)
			skipped = string(b)
		}
	}
	if skipped != `{"sum":99}` {
		t.Errorf("a skipped call's output is the hook's: %s", skipped)
	}
}

func TestHookErrorsFailTheCall(t *testing.T) {
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}}, mock.Step{Text: "ok"})
	a := newAgent(t, m, tools.Set{"add": addTool()}, func(c *Config) {
		c.Hooks = Hooks{BeforeToolCall: func(context.Context, HookCall) (*Skip, error) { return nil, errors.New("not allowed") }}
	})
	out, err := a.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"not allowed"}, toolErrors(out.Chunks)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestLifecycleCallbacks(t *testing.T) {
	var mu sync.Mutex
	var events []string
	record := func(s string) { mu.Lock(); events = append(events, s); mu.Unlock() }
	add := tools.New(tools.Config[addIn, addOut]{
		ID:           "add",
		OnInputStart: func(_ context.Context, e tools.InputStartEvent) { record("start " + e.ToolCallID) },
		OnInputDelta: func(_ context.Context, e tools.InputDeltaEvent) { record("delta " + e.InputTextDelta) },
		OnInputAvailable: func(_ context.Context, e tools.InputAvailableEvent[addIn]) {
			record("available")
			panic("callbacks never fail calls")
		},
		OnOutput: func(_ context.Context, e tools.OutputEvent) { record("output " + e.ToolCallID) },
		Execute:  func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil },
	})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`, ChunkSize: 7}}}, mock.Step{Text: "3"})
	out, err := newAgent(t, m, tools.Set{"add": add}).Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"start c1", `delta {"a":1,`, `delta "b":2}`, "available", "output c1"}
	if d := cmp.Diff(want, events); d != "" {
		t.Errorf("callbacks (-want +got):\n%s", d)
	}
	if out.Text != "3" || len(toolErrors(out.Chunks)) != 0 {
		t.Errorf("a panicking callback must not fail the call: %+v", out)
	}
}

// A client ran an execute-less server tool; the follow-up request carries
// the result, which the model sees through the server tool's toModelOutput.
func TestFollowUpToolResultsAreMappedOnIngestion(t *testing.T) {
	pick := tools.New(tools.Config[struct {
		Options []string `json:"options"`
	}, struct {
		Choice string `json:"choice"`
	}]{
		ID: "pick",
		ToModelOutput: func(_ context.Context, out struct {
			Choice string `json:"choice"`
		}) (*model.ToolResultOutput, error) {
			o := model.TextOutput("the user picked " + out.Choice)
			return &o, nil
		},
	})
	m := mock.New(mock.Step{Text: "Great choice."})
	a := newAgent(t, m, tools.Set{"pick": pick})
	history := []model.Message{
		model.UserText("choose"),
		model.Assistant(model.ToolCall("c1", "pick", json.RawMessage(`{"options":["a","b"]}`))),
		model.ToolMessage(model.ToolResultPart{ToolCallID: "c1", ToolName: "pick", Output: model.JSONOutput(map[string]any{"choice": "b"})}),
	}
	if _, err := a.Generate(context.Background(), history); err != nil {
		t.Fatal(err)
	}
	req := m.Calls()[0]
	got := req.Messages[len(req.Messages)-1].Content[0].ToolResult.Output
	if got.Type != model.OutputText || got.Value != "the user picked b" {
		t.Errorf("the model saw %+v", got)
	}
	if history[2].Content[0].ToolResult.Output.Type != model.OutputJSON {
		t.Error("the caller's messages were modified")
	}
}
