package builtin_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

var inAgent = &tools.AgentInfo{AgentID: "a"}

func execute(t *testing.T, tool *tools.Tool, args string, inv *tools.Invocation) *tools.Result {
	t.Helper()
	res, err := tool.Execute(context.Background(), json.RawMessage(args), inv)
	if err != nil {
		t.Fatalf("%s %s: %v", tool.ID(), args, err)
	}
	return res
}

func TestAskUser(t *testing.T) {
	for _, c := range []struct {
		name, args string
		agent      *tools.AgentInfo
		resume     string
		want       builtin.AskUserResult
		suspend    string // the suspend payload, "" for none
	}{
		{name: "no agent: free text", args: `{"question":"Name?"}`,
			want: builtin.AskUserResult{Content: "[Question for user]: Name?"}},
		{name: "no agent: options, single_select by default", args: `{"question":"Pick","options":[{"label":"Red"},{"label":"Blue","description":"sea"}]}`,
			want: builtin.AskUserResult{Content: "[Question for user]: Pick\nOptions: Red, Blue\nSelection mode: single_select"}},
		{name: "no agent: multi_select", args: `{"question":"Pick","options":[{"label":"A"},{"label":"B"}],"selectionMode":"multi_select"}`,
			want: builtin.AskUserResult{Content: "[Question for user]: Pick\nOptions: A, B\nSelection mode: multi_select"}},
		{name: "selectionMode needs options", args: `{"question":"Q","selectionMode":"multi_select"}`, agent: inAgent,
			want: builtin.AskUserResult{Content: "Failed to ask user: selectionMode requires options.", IsError: true}},
		{name: "selectionMode needs non-empty options", args: `{"question":"Q","options":[],"selectionMode":"single_select"}`,
			want: builtin.AskUserResult{Content: "Failed to ask user: selectionMode requires options.", IsError: true}},
		{name: "agent: suspends", args: `{"question":"Q?"}`, agent: inAgent, suspend: `{"question":"Q?"}`},
		{name: "agent: suspends with the resolved mode", args: `{"question":"Q?","options":[{"label":"A","description":"a"}]}`, agent: inAgent,
			suspend: `{"question":"Q?","options":[{"label":"A","description":"a"}],"selectionMode":"single_select"}`},
		{name: "agent: empty options kept, no mode", args: `{"question":"Q?","options":[]}`, agent: inAgent, suspend: `{"question":"Q?","options":[]}`},
		{name: "resumed with a string", args: `{"question":"Q?"}`, agent: inAgent, resume: `"Blue"`,
			want: builtin.AskUserResult{Content: "User answered: Blue"}},
		{name: "resumed with an array", args: `{"question":"Q?","options":[{"label":"A"},{"label":"B"}],"selectionMode":"multi_select"}`,
			agent: inAgent, resume: `["A","B"]`, want: builtin.AskUserResult{Content: "User answered: A, B"}},
	} {
		inv := &tools.Invocation{Agent: c.agent}
		if c.resume != "" {
			inv.ResumeData = json.RawMessage(c.resume)
		}
		res := execute(t, builtin.AskUserTool, c.args, inv)
		if c.suspend != "" {
			if res.Suspension == nil || res.Output != nil {
				t.Errorf("%s: did not suspend: %+v", c.name, res)
				continue
			}
			if got := string(res.Suspension.Payload); got != c.suspend {
				t.Errorf("%s: payload %s, want %s", c.name, got, c.suspend)
			}
			continue
		}
		if res.Suspension != nil {
			t.Errorf("%s: suspended", c.name)
		}
		if diff := cmp.Diff(c.want, res.Output); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}

	// The resume schema is enforced.
	res := execute(t, builtin.AskUserTool, `{"question":"Q"}`, &tools.Invocation{Agent: inAgent, ResumeData: json.RawMessage(`5`)})
	if ve := res.ValidationError(); ve == nil || ve.Message != "Tool input validation failed for ask_user. Please fix the following errors and try again:\n- root: Invalid input\n\nProvided arguments: 5" {
		t.Errorf("resume with a number: %v", res.Output)
	}
}

func TestSubmitPlan(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name    string
		agent   *tools.AgentInfo
		resume  string
		want    builtin.SubmitPlanResult
		suspend string
	}{
		{name: "no agent", want: builtin.SubmitPlanResult{Content: "[Plan submitted for review]\n\nPath: plans/a.md"}},
		{name: "agent: suspends", agent: inAgent, suspend: `{"toolId":"submit_plan","path":"plans/a.md"}`},
		{name: "approved", agent: inAgent, resume: `{"action":"approved","path":"plans/a.md","title":"A","plan":"# A"}`,
			want: builtin.SubmitPlanResult{ToolID: "submit_plan", Content: "Plan approved. Proceed with implementation following the approved plan.",
				SubmittedPlan: &builtin.SubmittedPlan{Title: str("A"), Path: str("plans/a.md"), Plan: str("# A")}}},
		{name: "rejected with feedback", agent: inAgent, resume: `{"action":"rejected","feedback":"Add tests"}`,
			want: builtin.SubmitPlanResult{ToolID: "submit_plan",
				Content:       "Plan was not approved. The user wants revisions.\n\nUser feedback: Add tests\n\nPlease revise the plan based on the feedback and submit again with submit_plan.",
				SubmittedPlan: &builtin.SubmittedPlan{Feedback: str("Add tests")}}},
		{name: "rejected with empty feedback", agent: inAgent, resume: `{"action":"rejected","feedback":""}`,
			want: builtin.SubmitPlanResult{ToolID: "submit_plan",
				Content:       "Plan was not approved. The user will send revision instructions in their next message. Stop now and wait for the user to provide feedback before revising the plan.",
				SubmittedPlan: &builtin.SubmittedPlan{}}},
	} {
		inv := &tools.Invocation{Agent: c.agent}
		if c.resume != "" {
			inv.ResumeData = json.RawMessage(c.resume)
		}
		res := execute(t, builtin.SubmitPlanTool, `{"path":"plans/a.md"}`, inv)
		if c.suspend != "" {
			if res.Suspension == nil || string(res.Suspension.Payload) != c.suspend {
				t.Errorf("%s: suspension %+v", c.name, res.Suspension)
			}
			continue
		}
		if diff := cmp.Diff(c.want, res.Output); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	res := execute(t, builtin.SubmitPlanTool, `{"path":"p"}`, &tools.Invocation{Agent: inAgent, ResumeData: json.RawMessage(`{"action":"approved"}`)})
	if b, _ := res.JSON(); string(b) != `{"toolId":"submit_plan","content":"Plan approved. Proceed with implementation following the approved plan.","isError":false,"submittedPlan":{}}` {
		t.Errorf("bare approval JSON %s", b)
	}
}
