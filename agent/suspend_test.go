package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type confirmIn struct {
	Amount int `json:"amount"`
}
type confirmOut struct {
	Paid bool   `json:"paid"`
	Note string `json:"note"`
}
type confirmResume struct {
	OK   bool   `json:"ok"`
	Note string `json:"note"`
}

// payTool suspends until a person confirms; runs counts executions.
func payTool(runs *atomic.Int32) *tools.Tool {
	return tools.New(tools.Config[confirmIn, confirmOut]{
		ID:            "pay",
		SuspendSchema: schema.MustCompile(mustSchemaJSON(`{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}`)),
		ResumeSchema:  schema.MustFor[confirmResume](),
		Execute: func(ctx tools.Context, in confirmIn) (confirmOut, error) {
			runs.Add(1)
			answer, ok, err := tools.ResumeDataAs[confirmResume](ctx)
			if err != nil {
				return confirmOut{}, err
			}
			if !ok {
				return confirmOut{}, ctx.Suspend(map[string]any{"question": "Pay " + json.Number(rune('0'+in.Amount)).String() + "?"})
			}
			return confirmOut{Paid: answer.OK, Note: answer.Note}, nil
		},
	})
}

func chunkTypes(t *testing.T, seq func(func(stream.Chunk, error) bool)) ([]stream.Chunk, []string) {
	t.Helper()
	var chunks []stream.Chunk
	var ts []string
	for c, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
		ts = append(ts, c.Type)
	}
	return chunks, ts
}

func TestSuspendAndResume(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}}},
		mock.Step{Text: "Paid."},
	)
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	out, err := a.Generate(context.Background(), "pay 5")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(types(out.Chunks), " ")
	if want := "start step-start tool-call-input-streaming-start tool-call-delta tool-call-input-streaming-end tool-call tool-call-suspended"; got != want {
		t.Errorf("suspended stream:\n got %s\nwant %s", got, want)
	}
	if out.FinishReason != model.FinishSuspended || out.ResumeSchema == "" {
		t.Fatalf("reason %s, resume schema %q", out.FinishReason, out.ResumeSchema)
	}
	sp := out.SuspendPayload.(stream.ToolCallSuspendedPayload)
	if sp.ToolCallID != "c1" || string(sp.SuspendPayload.(json.RawMessage)) != `{"question":"Pay 5?"}` || !strings.Contains(sp.ResumeSchema, `"ok"`) {
		t.Errorf("suspend payload %+v", sp)
	}

	// Invalid resume data is a validation error for the model, not a crash.
	resumed, err := a.ResumeGenerate(context.Background(), out.RunID, map[string]any{"ok": "yes"})
	if err != nil {
		t.Fatal(err)
	}
	ve := resumed.ToolResults[0].Payload.(stream.ToolResultPayload).Result
	if b, _ := json.Marshal(ve); !strings.Contains(string(b), `"error":true`) || resumed.FinishReason != model.FinishStop || resumed.Text != "Paid." {
		t.Errorf("invalid resume data: result %s, reason %s", b, resumed.FinishReason)
	}
	if runs.Load() != 1 {
		t.Errorf("the tool ran %d times; invalid resume data must not reach it", runs.Load())
	}
	if len(m.Calls()) != 2 {
		t.Fatalf("model calls %d", len(m.Calls()))
	}
	// The run is finished: resuming it again finds nothing.
	_, err = a.ResumeGenerate(context.Background(), out.RunID, map[string]any{"ok": true})
	var re *RunError
	if !errors.As(err, &re) || re.ID != "AGENT_RESUME_NO_SNAPSHOT_FOUND" || !strings.Contains(re.Message, `could not find a suspended run for runId "`+out.RunID+`"`) {
		t.Errorf("second resume: %v", err)
	}
}

func TestResumeRunsTheToolWithItsDataAndGoesOn(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}}},
		mock.Step{Text: "Paid."},
	)
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	out, _ := a.Generate(context.Background(), "pay 5")
	chunks, ts := chunkTypes(t, a.ResumeStream(context.Background(), out.RunID, confirmResume{OK: true, Note: "go"}, WithToolCallID("c1")))
	// As Mastra's, a resumed stream has no start chunk: it begins with
	// what the waiting call produced.
	if got := strings.Join(ts, " "); got != "tool-result step-finish step-start text-start text-delta text-end step-finish finish" {
		t.Fatalf("resumed stream: %s", got)
	}
	if chunks[0].RunID != out.RunID {
		t.Errorf("resumed chunk of run %q, want %q", chunks[0].RunID, out.RunID)
	}
	res := chunks[0].Payload.(stream.ToolResultPayload)
	if b, _ := json.Marshal(res.Result); string(b) != `{"paid":true,"note":"go"}` {
		t.Errorf("result %s", b)
	}
	second := m.Calls()[1].Messages
	if last := second[len(second)-1]; last.Role != model.RoleTool || last.Content[0].ToolResult.ToolCallID != "c1" {
		t.Errorf("the model did not get the result: %+v", last)
	}
}

func TestResumeErrors(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}}}, mock.Step{Text: "ok"})
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	out, _ := a.Generate(context.Background(), "pay 5")
	_, err := a.ResumeGenerate(context.Background(), out.RunID, confirmResume{OK: true}, WithToolCallID("c9"))
	var re *RunError
	if !errors.As(err, &re) || re.ID != "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED" || re.Message != `Agent "Calc" resumeGenerate() cannot resume tool call "c9" because it is not suspended.` {
		t.Errorf("wrong call: %v", err)
	}
	_, err = a.ResumeGenerate(context.Background(), "nope", confirmResume{OK: true})
	if !errors.As(err, &re) || re.ID != "AGENT_RESUME_NO_SNAPSHOT_FOUND" || !strings.Contains(re.Message, "No storage is configured") {
		t.Errorf("unknown run: %v", err)
	}
	// A failed check claims nothing: the right resume still works.
	if res, err := a.ResumeGenerate(context.Background(), out.RunID, confirmResume{OK: true}, WithToolCallID("c1")); err != nil || res.FinishReason != model.FinishStop {
		t.Errorf("resume after refused ones: %v", err)
	}
}

func TestConcurrentResumesLetExactlyOneThrough(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}}}, mock.Step{Text: "ok"}).RepeatLast()
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	out, _ := a.Generate(context.Background(), "pay 5")
	var wg sync.WaitGroup
	var ok, conflicts atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := a.ResumeGenerate(context.Background(), out.RunID, confirmResume{OK: true})
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, storage.ErrConflict):
				conflicts.Add(1)
			default:
				var re *RunError
				if !errors.As(err, &re) || re.ID != "AGENT_RESUME_NO_SNAPSHOT_FOUND" {
					t.Errorf("unexpected: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || runs.Load() != 2 {
		t.Errorf("%d resumes went through (%d conflicts), the tool ran %d times", ok.Load(), conflicts.Load(), runs.Load())
	}
}

func TestSeveralSuspendedCallsResumeOneByOne(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "a", Name: "pay", Args: `{"amount":1}`}, {ID: "b", Name: "pay", Args: `{"amount":2}`}, {ID: "c", Name: "add", Args: `{"a":1,"b":1}`}}},
		mock.Step{Text: "done"},
	)
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs), "add": addTool()})
	out, _ := a.Generate(context.Background(), "pay both")
	if got := strings.Join(types(out.Chunks)[len(out.Chunks)-3:], " "); got != "tool-call-suspended tool-call-suspended tool-result" {
		t.Errorf("end of the suspended stream: %s", got)
	}
	first, err := a.ResumeGenerate(context.Background(), out.RunID, confirmResume{OK: true, Note: "b"}, WithToolCallID("b"))
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("after resuming b: %v, %s", err, first.FinishReason)
	}
	if len(m.Calls()) != 1 {
		t.Errorf("the model was called before every call ended")
	}
	second, err := a.ResumeGenerate(context.Background(), out.RunID, confirmResume{OK: false, Note: "a"}, WithToolCallID("a"))
	if err != nil || second.FinishReason != model.FinishStop {
		t.Fatalf("after resuming a: %v, %s", err, second.FinishReason)
	}
	msgs := m.Calls()[1].Messages
	var got []string
	for _, p := range msgs[len(msgs)-1].Content {
		b, _ := json.Marshal(p.ToolResult.Output.Value)
		got = append(got, p.ToolResult.ToolCallID+"="+string(b))
	}
	want := []string{`a={"paid":false,"note":"a"}`, `b={"paid":true,"note":"b"}`, `c={"sum":2}`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("each call got its own data, in call order (-want +got):\n%s", d)
	}
	if runs.Load() != 4 {
		t.Errorf("pay ran %d times, want 4 (2 suspends, 2 resumes)", runs.Load())
	}
}

func TestApproval(t *testing.T) {
	var executed atomic.Int32
	guarded := tools.New(tools.Config[confirmIn, confirmOut]{ID: "transfer", RequireApproval: true, Execute: func(tools.Context, confirmIn) (confirmOut, error) {
		executed.Add(1)
		return confirmOut{Paid: true}, nil
	}})
	newRun := func() (*Agent, *mock.Model, *Output) {
		m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "t1", Name: "transfer", Args: `{"amount":3}`}}}, mock.Step{Text: "ok"})
		a := newAgent(t, m, tools.Set{"transfer": guarded})
		out, err := a.Generate(context.Background(), "transfer 3")
		if err != nil {
			t.Fatal(err)
		}
		return a, m, out
	}
	a, _, out := newRun()
	last := out.Chunks[len(out.Chunks)-1]
	if last.Type != stream.TypeToolCallApproval || out.FinishReason != model.FinishSuspended || executed.Load() != 0 {
		t.Fatalf("approval: last chunk %s, reason %s, executed %d", last.Type, out.FinishReason, executed.Load())
	}
	if p := last.Payload.(stream.ToolCallApprovalPayload); p.ToolCallID != "t1" || p.ResumeSchema != stream.ApprovalResumeSchema || string(p.Args) != `{"amount":3}` {
		t.Errorf("approval payload %+v", p)
	}
	// An approval for another call is refused; the model cannot approve.
	if _, err := a.ApproveToolCallGenerate(context.Background(), out.RunID, "t2"); err == nil {
		t.Error("a mismatched approval went through")
	}
	res, err := a.ApproveToolCallGenerate(context.Background(), out.RunID, "t1")
	if err != nil || executed.Load() != 1 || res.FinishReason != model.FinishStop {
		t.Fatalf("approve: %v, executed %d", err, executed.Load())
	}
	// A stale approval (the run has moved on) fails.
	if _, err := a.ApproveToolCallGenerate(context.Background(), out.RunID, "t1"); err == nil {
		t.Error("a stale approval went through")
	}

	a, m, out := newRun()
	res, err = a.DeclineToolCallGenerate(context.Background(), out.RunID, "t1", "too much")
	if err != nil || executed.Load() != 1 {
		t.Fatalf("decline: %v, executed %d", err, executed.Load())
	}
	denied := res.Chunks[0]
	if denied.Type != stream.TypeToolOutputDenied || denied.Payload.(stream.ToolOutputDeniedPayload).Approval.Reason != "too much" {
		t.Errorf("decline chunk %+v", denied)
	}
	msgs := m.Calls()[1].Messages
	// As Mastra's, the model is told the reason as the call's text result.
	if o := msgs[len(msgs)-1].Content[0].ToolResult.Output; o.Type != model.OutputText || o.Value != "too much" {
		t.Errorf("the model was told %+v", o)
	}

	// Resume data for an approval must be a decision.
	a, _, out = newRun()
	if _, err := a.ResumeGenerate(context.Background(), out.RunID, map[string]any{"ok": true}); err == nil || !strings.Contains(err.Error(), "waits for an approval") {
		t.Errorf("non-decision resume data: %v", err)
	}
	if res, err := a.ResumeGenerate(context.Background(), out.RunID, map[string]any{"approved": false}); err != nil || res.Chunks[0].Type != stream.TypeToolOutputDenied {
		t.Errorf("decision as resume data: %v", err)
	}
}

func TestApprovalPolicies(t *testing.T) {
	free := tools.New(tools.Config[confirmIn, confirmOut]{ID: "free", Execute: func(tools.Context, confirmIn) (confirmOut, error) { return confirmOut{}, nil }})
	decides := tools.New(tools.Config[confirmIn, confirmOut]{ID: "decides",
		NeedsApproval: func(_ context.Context, in confirmIn, _ *tools.RequestContext) (bool, error) {
			return in.Amount > 10, nil
		},
		Execute: func(tools.Context, confirmIn) (confirmOut, error) { return confirmOut{}, nil }})
	cases := []struct {
		name string
		tool *tools.Tool
		args string
		opts []Option
		want bool
	}{
		{"no policy", free, `{"amount":1}`, nil, false},
		{"run requires", free, `{"amount":1}`, []Option{WithRequireToolApproval(true)}, true},
		{"run function", free, `{"amount":1}`, []Option{WithToolApprovalFunc(func(context.Context, ApprovalRequest) (bool, error) { return true, nil })}, true},
		{"failing function requires", free, `{"amount":1}`, []Option{WithToolApprovalFunc(func(context.Context, ApprovalRequest) (bool, error) { return false, errors.New("x") })}, true},
		{"tool function is authoritative (no)", decides, `{"amount":1}`, []Option{WithRequireToolApproval(true)}, false},
		{"tool function is authoritative (yes)", decides, `{"amount":20}`, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "x", Args: c.args}}}, mock.Step{Text: "ok"})
			out, err := newAgent(t, m, tools.Set{"x": c.tool}).Generate(context.Background(), "go", c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.FinishReason == model.FinishSuspended; got != c.want {
				t.Errorf("approval required: %v, want %v", got, c.want)
			}
		})
	}
}

func TestListSuspendedRunsAndSendToolApproval(t *testing.T) {
	guarded := tools.New(tools.Config[confirmIn, confirmOut]{ID: "transfer", RequireApproval: true, Execute: func(tools.Context, confirmIn) (confirmOut, error) {
		return confirmOut{Paid: true}, nil
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "transfer", Args: `{"amount":3}`}}}).RepeatLast()
	a := newAgent(t, m, tools.Set{"transfer": guarded})
	ctx := context.Background()
	var ids []string
	for _, thread := range []string{"t-1", "t-2", "t-2"} {
		out, err := a.Generate(ctx, "transfer", WithMemory(thread, "user-1"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, out.RunID)
	}
	runs, total, err := a.ListSuspendedRuns(ctx, SuspendedRunsFilter{})
	if err != nil || total != 3 || len(runs) != 3 || !runs[0].ToolCalls[0].RequiresApproval || runs[0].Status != "suspended" {
		t.Fatalf("all: %d of %d, %v, %+v", len(runs), total, err, runs)
	}
	page, total, _ := a.ListSuspendedRuns(ctx, SuspendedRunsFilter{ThreadID: "t-2", PerPage: 1, Page: 1})
	if total != 2 || len(page) != 1 || page[0].ThreadID != "t-2" {
		t.Errorf("thread t-2, page 1: %d of %d", len(page), total)
	}
	var re *RunError
	if _, _, err := a.SendToolApproval(ctx, ToolApproval{ThreadID: "t-2", Approved: true}); !errors.As(err, &re) || re.ID != "AGENT_SEND_TOOL_APPROVAL_AMBIGUOUS_SUSPENDED_RUNS" {
		t.Errorf("ambiguous: %v", err)
	}
	if _, _, err := a.SendToolApproval(ctx, ToolApproval{ThreadID: "t-9", Approved: true}); !errors.As(err, &re) || re.ID != "AGENT_SEND_TOOL_APPROVAL_NO_ACTIVE_THREAD_RUN" {
		t.Errorf("no run: %v", err)
	}
	runID, s, err := a.SendToolApproval(ctx, ToolApproval{ThreadID: "t-1", Approved: false, Reason: "no"})
	if err != nil || runID != ids[0] {
		t.Fatalf("send: %v, run %s", err, runID)
	}
	_, ts := chunkTypes(t, s)
	if ts[0] != stream.TypeToolOutputDenied {
		t.Errorf("declined stream: %v", ts)
	}
}

// sendToolApproval's resumeData answers a suspended tool (not an
// approval) by thread, as Mastra's does.
func TestSendToolApprovalResumesASuspendedToolWithItsData(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":2}`}}}, mock.Step{Text: "Paid."})
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	ctx := context.Background()
	first, err := a.Generate(ctx, "pay 2", WithMemory("thread-r", "user-1"))
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("first run: %v %s", err, first.FinishReason)
	}
	runID, s, err := a.SendToolApproval(ctx, ToolApproval{ThreadID: "thread-r", ResourceID: "user-1", ToolCallID: "c1", ResumeData: map[string]any{"ok": true, "note": "by thread"}})
	if err != nil || runID != first.RunID {
		t.Fatalf("send: %v, run %s", err, runID)
	}
	var result json.RawMessage
	for c, err := range s {
		if err != nil {
			t.Fatal(err)
		}
		if c.Type == stream.TypeToolResult {
			result, _ = json.Marshal(c.Payload)
		}
	}
	if !strings.Contains(string(result), `"result":{"paid":true,"note":"by thread"}`) || runs.Load() != 2 {
		t.Errorf("resumed result %s after %d runs", result, runs.Load())
	}
}

func TestAutoResumeSuspendedTools(t *testing.T) {
	var runs atomic.Int32
	guarded := tools.New(tools.Config[confirmIn, confirmOut]{ID: "transfer", RequireApproval: true, Execute: func(tools.Context, confirmIn) (confirmOut, error) {
		return confirmOut{Paid: true}, nil
	}})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "pay", Args: `{"amount":5}`}, {ID: "t1", Name: "transfer", Args: `{"amount":1}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{
			{ID: "c2", Name: "pay", Args: `{"amount":5,"resumeData":{"ok":true,"note":"from chat"},"suspendedToolCallId":"c1"}`},
			{ID: "t2", Name: "transfer", Args: `{"amount":1,"resumeData":{"approved":true},"suspendedToolCallId":"t1"}`},
		}},
		mock.Step{Text: "Paid."},
	)
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs), "transfer": guarded})
	ctx := context.Background()
	first, err := a.Generate(ctx, "pay 5 and transfer 1", WithMemory("thread-1", "user-1"))
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("first run: %v %s", err, first.FinishReason)
	}
	second, err := a.Generate(ctx, "yes, pay it", WithMemory("thread-1", "user-1"), WithAutoResumeSuspendedTools())
	if err != nil {
		t.Fatal(err)
	}
	req := m.Calls()[1]
	system := req.Messages[0].TextContent()
	if !strings.Contains(system, `"toolCallId":"c1"`) || strings.Contains(system, `"toolCallId":"t1"`) || strings.Contains(system, "set approved to true") {
		t.Errorf("directive: %q", system)
	}
	var payDef *model.ToolDefinition
	for i := range req.Tools {
		if req.Tools[i].Name == "pay" {
			payDef = &req.Tools[i]
		}
	}
	if payDef == nil || payDef.InputSchema.Properties[keyResumeData] == nil || payDef.InputSchema.Properties[keySuspendedToolCallID] == nil {
		t.Errorf("pay's schema lacks the resume keys")
	}
	results := map[string]string{}
	for _, c := range second.Chunks {
		switch p := c.Payload.(type) {
		case stream.ToolResultPayload:
			b, _ := json.Marshal(p.Result)
			results[p.ToolCallID] = string(b)
		case stream.ToolErrorPayload:
			results[p.ToolCallID] = "error: " + p.Error.(map[string]any)["message"].(string)
		}
	}
	if results["c2"] != `{"paid":true,"note":"from chat"}` || !strings.HasPrefix(results["t2"], `error: tool call "t1" waits for a person's approval`) {
		t.Errorf("results %v", results)
	}
	// c1 is resumed; the first run still waits for the approval only.
	left, _, _ := a.ListSuspendedRuns(ctx, SuspendedRunsFilter{ThreadID: "thread-1"})
	if len(left) != 1 || len(left[0].ToolCalls) != 1 || left[0].ToolCalls[0].ToolCallID != "t1" {
		t.Errorf("left waiting: %+v", left)
	}
}
