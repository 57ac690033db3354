package aisdk

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
	"github.com/gomastra/mastra/workflows"
)

// convertAll converts chunks and returns the parts' JSON.
func convertAll(t *testing.T, opts StreamOptions, chunks ...stream.Chunk) []string {
	t.Helper()
	c := NewConverter(opts)
	var out []string
	add := func(ps []Part) {
		for _, p := range ps {
			b, err := p.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(b))
		}
	}
	for _, ch := range chunks {
		add(c.Convert(ch))
	}
	add(c.Flush())
	return out
}

// runParts runs an agent and converts its stream.
func runParts(t *testing.T, a *agent.Agent, opts StreamOptions, prompt string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for p, err := range ToUIStream(a.Stream(context.Background(), prompt), opts) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func chunk(typ string, payload any) stream.Chunk {
	return stream.Chunk{Type: typ, RunID: "run-1", From: stream.FromAgent, Payload: payload}
}

func TestConverterHoldsStartUntilTheFirstStep(t *testing.T) {
	got := convertAll(t, StreamOptions{},
		chunk(stream.TypeStart, stream.StartPayload{ID: "a", MessageID: "m-old"}),
		stream.Chunk{Type: "data-note", Data: map[string]any{"n": 1}},
		chunk(stream.TypeStepStart, stream.StepStartPayload{MessageID: "m-new"}),
	)
	want := []string{
		`{"type":"start","messageId":"m-new"}`,
		`{"type":"data-note","data":{"n":1}}`,
		`{"type":"start-step"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	// A stream that ends while the start is held still gets it.
	got = convertAll(t, StreamOptions{LastMessageID: "msg-9"}, chunk(stream.TypeStart, stream.StartPayload{MessageID: "m"}))
	if diff := cmp.Diff([]string{`{"type":"start","messageId":"msg-9"}`}, got); diff != "" {
		t.Error(diff)
	}
}

func TestConverterTripwireAndFinishReasons(t *testing.T) {
	trip := chunk("tripwire", map[string]any{"reason": "blocked", "processorId": "guard"})
	got := convertAll(t, StreamOptions{}, trip)
	want := []string{`{"type":"data-tripwire","data":{"reason":"blocked","processorId":"guard"}}`, `{"type":"finish","finishReason":"other"}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	finish := func(r model.FinishReason) stream.Chunk {
		return chunk(stream.TypeFinish, stream.FinishPayload{StepResult: stream.StepResult{Reason: r}})
	}
	for _, tc := range []struct {
		v    Version
		in   model.FinishReason
		want string
	}{
		{V5, model.FinishSuspended, `"suspended"`},
		{V5, model.FinishTripwire, `"other"`},
		{V6, model.FinishSuspended, `"other"`},
		{V6, model.FinishUnknown, `"other"`},
		{V6, model.FinishLength, `"length"`},
		{V7, model.FinishSuspended, `"other"`},
		{V6, "", `"other"`},
	} {
		got := convertAll(t, StreamOptions{Version: tc.v}, finish(tc.in))
		if len(got) != 1 || !strings.Contains(got[0], `"finishReason":`+tc.want) {
			t.Errorf("%s %q: %v", tc.v, tc.in, got)
		}
	}
	if got := convertAll(t, StreamOptions{}, finish("")); got[0] != `{"type":"finish"}` {
		t.Errorf("no reason: %v", got)
	}
}

func TestConverterBackgroundTasksAndMetadata(t *testing.T) {
	got := convertAll(t, StreamOptions{MessageMetadata: func(c stream.Chunk) any { return map[string]any{"chunk": c.Type} }},
		chunk("background-task-started", map[string]any{"taskId": "task-1", "toolName": "slow", "toolCallId": "c1"}),
		chunk(stream.TypeFinish, stream.FinishPayload{StepResult: stream.StepResult{Reason: model.FinishStop}}),
	)
	want := []string{
		`{"type":"data-background-task-started","data":{"taskId":"task-1","toolCallId":"c1","toolName":"slow","state":"data-background-task-started","runId":"run-1"},"id":"task-1"}`,
		`{"type":"finish","finishReason":"stop","messageMetadata":{"chunk":"finish"}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestConverterHidesOpenAIItemIDsWithReasoningHidden(t *testing.T) {
	delta := chunk(stream.TypeTextDelta, stream.TextPayload{ID: "t", Text: "x", ProviderMetadata: map[string]any{"openai": map[string]any{"itemId": "it-1", "other": 1}}})
	if got := convertAll(t, StreamOptions{}, delta); got[0] != `{"type":"text-delta","id":"t","delta":"x","providerMetadata":{"openai":{"other":1}}}` {
		t.Errorf("hidden reasoning: %v", got)
	}
	if got := convertAll(t, StreamOptions{SendReasoning: true}, delta); !strings.Contains(got[0], `"itemId":"it-1"`) {
		t.Errorf("sent reasoning: %v", got)
	}
}

func TestPartJSONIsJavaScripts(t *testing.T) {
	p := Part{Type: PartTextDelta, ID: "t", Delta: "a<b>&c\u2028d\"e"}
	b, err := p.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"text-delta","id":"t","delta":"a<b>&c` + "\u2028" + `d\"e"}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
	out := Part{Type: PartToolOutputAvailable, ToolCallID: "c", Output: map[string]any{"b": 1.5e21, "a": "<x>", "10": true, "2": nil}}
	if b, _ := out.AppendJSON(nil); string(b) != `{"type":"tool-output-available","toolCallId":"c","output":{"2":null,"10":true,"a":"<x>","b":1.5e+21}}` {
		t.Errorf("%s", b)
	}
	if _, err := json.Marshal(Part{Type: PartToolOutputAvailable, Output: func() {}}); err == nil {
		t.Error("a value without JSON form marshals")
	}
}

func TestSafeErrorText(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, "undefined"},
		{"text", "text"},
		{3.5, "3.5"},
		{true, "true"},
		{errors.New("plain"), "plain"},
		{&agent.RunError{Message: "model failed", ID: "X"}, `{"message":"model failed","code":"X"}`},
		{map[string]any{}, "[object Object]"},
		{json.RawMessage(`{"message":"m","cause":{"responseBody":"secret","prompt":"p","name":"E"},"data":{"x":1}}`), `{"message":"m","cause":{"name":"E"}}`},
		{[]any{"a", map[string]any{"responseHeaders": 1}}, `["a",{}]`},
	}
	for _, tc := range cases {
		if got := SafeErrorText(tc.in); got != tc.want {
			t.Errorf("SafeErrorText(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestNativeApprovals(t *testing.T) {
	yes, no := true, false
	part := func(call, id string, approved *bool) UIPart {
		return UIPart{Type: "tool-x", ToolCallID: call, State: StateApprovalResponded, Approval: &UIApproval{ID: id, Approved: approved}}
	}
	msgs := []UIMessage{
		{Role: "user", Parts: []UIPart{part("c0", "r0::c0", &yes)}}, // not an assistant message
		{Role: "assistant", Parts: []UIPart{
			part("c1", "r1::c1", &no),
			part("c2", "r1::other", &yes),    // names another call: stale
			part("c3", "no-separator", &yes), // not an approval id of ours
			part("c4", "r:a::b::c4", &yes),   // the last separator splits
			part("c5", "r5::c5", nil),        // not answered
			{Type: "tool-x", ToolCallID: "c6", State: StateApprovalRequested, Approval: &UIApproval{ID: "r6::c6"}},
		}},
		{Role: "assistant", Parts: []UIPart{part("c1", "r1::c1", &yes)}}, // the later answer wins
	}
	got := NativeApprovals(msgs)
	want := []NativeApproval{
		{RunID: "r1", ToolCallID: "c1", ResumeData: json.RawMessage(`{"approved":true}`)},
		{RunID: "r:a::b", ToolCallID: "c4", ResumeData: json.RawMessage(`{"approved":true}`)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// Display transforms the Go agent attaches to its chunks shape what the UI
// stream shows (each part carries its phase's transformed value): the
// input, the output, and no argument deltas when the display target has no
// input-delta function.
func TestConverterAppliesDisplayTransforms(t *testing.T) {
	type in struct {
		Account string `json:"account"`
	}
	type out struct {
		Balance float64 `json:"balance"`
	}
	secret := tools.New(tools.Config[in, out]{ID: "secret", Description: "looks up an account",
		Transform: &transform.Config{Display: &transform.Phases{
			Input: func(_ context.Context, tc transform.Context) (any, bool, error) {
				return map[string]any{"account": "••••"}, true, nil
			},
			Output: func(_ context.Context, tc transform.Context) (any, bool, error) {
				return map[string]any{"summary": "hidden"}, true, nil
			},
		}},
		Execute: func(tools.Context, in) (out, error) { return out{Balance: 42}, nil },
	})
	a, err := agent.New(agent.Config{ID: "bank", Tools: tools.Set{"secret": secret},
		Model: toolThenText("bank-model", "c1", "secret", []string{`{"account":`, `"DE12"}`}, "Found it.")})
	if err != nil {
		t.Fatal(err)
	}
	parts := runParts(t, a, StreamOptions{}, "balance?")
	if d := ofType(parts, PartToolInputDelta); len(d) != 0 {
		t.Errorf("argument deltas shown: %v", d)
	}
	if in := ofType(parts, PartToolInputAvailable); len(in) != 1 || in[0]["input"].(map[string]any)["account"] != "••••" {
		t.Errorf("input %v", in)
	}
	if o := ofType(parts, PartToolOutputAvailable); len(o) != 1 || o[0]["output"].(map[string]any)["summary"] != "hidden" {
		t.Errorf("output %v", o)
	}
}

// A sub-agent of a sub-agent: its snapshots carry both delegations, and
// the agent that delegated to it.
func TestConverterNestedSubAgents(t *testing.T) {
	leaf, err := agent.New(agent.Config{ID: "leaf-agent", Model: mock.NewFunc(func(*model.Request) mock.Step { return mock.Step{Text: "leaf says hi"} })})
	if err != nil {
		t.Fatal(err)
	}
	delegate := func(id, key string, sub *agent.Agent) *agent.Agent {
		a, err := agent.New(agent.Config{ID: id, Agents: map[string]*agent.Agent{key: sub},
			Model: toolThenText(id+"-model", "call-"+key, "agent-"+key, []string{`{"prompt":"go"}`}, id+" done")})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	mid := delegate("mid-agent", "leaf", leaf)
	top := delegate("top-agent", "mid", mid)
	parts := runParts(t, top, StreamOptions{IncludeSubAgentMetadata: true}, "go")
	var depths []float64
	byData := map[string]map[string]any{}
	for _, p := range ofType(parts, PartToolAgent) {
		byData[p["data"].(map[string]any)["id"].(string)] = p
		depths = append(depths, p["depth"].(float64))
	}
	leafPart, midPart := byData["leaf-agent"], byData["mid-agent"]
	if leafPart == nil || midPart == nil {
		t.Fatalf("snapshots of %v", depths)
	}
	if leafPart["depth"] != 2.0 || leafPart["parentAgentId"] != "mid" || midPart["depth"] != 1.0 || midPart["parentAgentId"] != nil {
		t.Errorf("leaf %v/%v, mid %v/%v", leafPart["depth"], leafPart["parentAgentId"], midPart["depth"], midPart["parentAgentId"])
	}
	anc := leafPart["ancestry"].([]any)
	if len(anc) != 2 || anc[0].(map[string]any)["toolName"] != "agent-mid" || anc[1].(map[string]any)["agentId"] != "leaf" {
		t.Errorf("ancestry %v", anc)
	}
	if leafPart["data"].(map[string]any)["text"] != "leaf says hi" {
		t.Errorf("leaf text %v", leafPart["data"])
	}
}

// A workflow-<key> tool's run is shown as data-tool-workflow parts.
func TestConverterWorkflowTool(t *testing.T) {
	type in struct {
		City string `json:"city"`
	}
	type out struct {
		Plan string `json:"plan"`
	}
	wf := workflows.New(workflows.Config{ID: "trip-workflow", Description: "Plans a trip"}).
		Then(workflows.NewStep(workflows.StepConfig[in, out]{ID: "plan-trip",
			Execute: func(_ workflows.StepContext, i in) (out, error) { return out{Plan: "Visit " + i.City}, nil }}))
	if err := wf.Commit(); err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Config{ID: "planner", Workflows: map[string]*workflows.Workflow{"trip": wf},
		Model: toolThenText("planner-model", "call-wf", "workflow-trip", []string{`{"inputData":{"city":"Paris"}}`}, "Here is your plan.")})
	if err != nil {
		t.Fatal(err)
	}
	parts := runParts(t, a, StreamOptions{}, "Plan Paris")
	snaps := ofType(parts, PartToolWorkflow)
	if len(snaps) < 3 {
		t.Fatalf("workflow snapshots %v", snaps)
	}
	last := snaps[len(snaps)-1]["data"].(map[string]any)
	step := last["steps"].(map[string]any)["plan-trip"].(map[string]any)
	if last["name"] != "trip-workflow" || last["status"] != "success" || step["output"].(map[string]any)["plan"] != "Visit Paris" {
		t.Errorf("final snapshot %v", last)
	}
	if sp := ofType(parts, PartToolWorkflowStep); len(sp) != 1 || sp[0]["id"] != snaps[0]["id"].(string)+":plan-trip" {
		t.Errorf("step parts %v", sp)
	}
	if n := len(ofType(parts, PartToolAgent)); n != 0 {
		t.Errorf("%d agent snapshots", n)
	}
}
