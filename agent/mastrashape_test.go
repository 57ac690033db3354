package agent

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// The tests of this file pin what the compatibility gate (package compat)
// found Mastra 1.71's client sees on the agent stream and resume routes,
// so that it is covered without Node. The expected texts are Mastra's, as
// compat/testdata/mastra-client.json recorded them.

// orderedRaw is a provider usage record whose member order is not
// alphabetical, to see it kept.
var orderedRaw = json.RawMessage(`{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}`)

func scriptedUsage() model.Usage {
	return model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15, Raw: orderedRaw}
}

// wire is a chunk as Mastra's server sends it.
func wire(t *testing.T, c stream.Chunk) string {
	t.Helper()
	b, err := stream.Marshal(stream.Redact(c))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// inOrder reports whether the texts occur in s one after the other.
func inOrder(s string, texts ...string) bool {
	at := 0
	for _, x := range texts {
		i := strings.Index(s[at:], x)
		if i < 0 {
			return false
		}
		at += i + len(x)
	}
	return true
}

func TestStepStartChunkHasMastrasMemberOrder(t *testing.T) {
	m := mock.New(mock.Step{Text: "hi"})
	chunks := collect(t, newAgent(t, m, nil), "hello")
	var start stream.Chunk
	for _, c := range chunks {
		if c.Type == stream.TypeStepStart {
			start = c
		}
	}
	// In process: {runId, from, type, payload: {request, warnings,
	// messageId, startedAt}}, as Mastra builds it.
	raw, err := stream.Marshal(start)
	if err != nil {
		t.Fatal(err)
	}
	if !inOrder(string(raw), `{"runId":`, `"from":"AGENT","type":"step-start","payload":{"request":{},"warnings":[],"messageId":`, `"startedAt":`) {
		t.Errorf("step-start: %s", raw)
	}
	// As a server sends it: the request, redacted, comes last.
	if got := wire(t, start); !inOrder(got, `{"runId":`, `"from":"AGENT","type":"step-start","payload":{"warnings":[],"messageId":`, `"startedAt":`, `,"request":{}}}`) {
		t.Errorf("redacted step-start: %s", got)
	}
}

func TestToolResultsHaveMastrasMemberOrder(t *testing.T) {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}},
		mock.Step{Text: "The sum is 5."},
	)
	out, err := newAgent(t, m, tools.Set{"add": addTool()}).Generate(context.Background(), "What is 2+3?")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	// A step's content lists a result {type, input, output, toolCallId,
	// toolName}; a tool message {type, toolCallId, toolName, output,
	// input}.
	if want := `{"type":"tool-result","input":{"a":2,"b":3},"output":{"type":"json","value":{"sum":5}},"toolCallId":"call-1","toolName":"add"}`; !strings.Contains(got, want) {
		t.Errorf("step content has no %s:\n%s", want, got)
	}
	if want := `{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"add","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]}`; !strings.Contains(got, want) {
		t.Errorf("response messages have no %s:\n%s", want, got)
	}
}

// suspendRun suspends a run of a with "What is 2+3?" and returns its id.
func suspendRun(t *testing.T, a *Agent) string {
	t.Helper()
	out, err := a.Generate(context.Background(), "What is 2+3?")
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("first run: %v, %s", err, out.FinishReason)
	}
	return out.RunID
}

func resumedAgent(t *testing.T, runs *atomic.Int32) *Agent {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "pay", Args: `{"amount":5}`}}, Usage: scriptedUsage()},
		mock.Step{Text: "The sum is 5.", Usage: scriptedUsage()},
	)
	// Without storage the snapshot lives in the agent, as JSON all the same.
	return newAgent(t, m, tools.Set{"pay": payTool(runs)})
}

// TestResumedStreamHasMastrasShape: Mastra's resumed stream (approve,
// decline, resumeStream) starts with the waiting call's outcome, not with
// a start chunk; the step-finish of the resumed step is rebuilt from the
// snapshot (stepResult.messageId set, messages after processorRetryCount,
// the usage record in the provider's member order); and the steps run
// after the resume list no content.
func TestResumedStreamHasMastrasShape(t *testing.T) {
	var runs atomic.Int32
	a := resumedAgent(t, &runs)
	runID := suspendRun(t, a)
	chunks, ts := chunkTypes(t, a.ResumeStream(context.Background(), runID, confirmResume{OK: true}))
	if got := strings.Join(ts, " "); got != "tool-result step-finish step-start text-start text-delta text-delta text-delta text-delta text-end step-finish finish" {
		t.Fatalf("resumed stream: %s", got)
	}

	first := chunks[1].Payload.(stream.FinishPayload)
	if !first.Resumed || first.StepResult.MessageID == "" || first.StepResult.MessageID != first.MessageID {
		t.Errorf("resumed step-finish: resumed %v, stepResult.messageId %q, messageId %q", first.Resumed, first.StepResult.MessageID, first.MessageID)
	}
	got := wire(t, chunks[1])
	if !inOrder(got, `"stepResult":{"reason":"tool-calls","isContinued":true,"messageId":"`+first.MessageID+`"}`, `"output":`, `"processorRetryCount":0,"messages":{"all":`) {
		t.Errorf("resumed step-finish: %s", got)
	}
	if !strings.Contains(got, `"raw":{"inputTokens":{"total":10,"noCache":10},"outputTokens":{"total":5,"text":5}}`) || strings.Contains(got, `"noCache":10,"total"`) {
		t.Errorf("the usage record lost its order through the snapshot: %s", got)
	}
	if step := chunks[2]; step.Type != stream.TypeStepStart || step.Payload.(stream.StepStartPayload).MessageID != first.MessageID {
		t.Errorf("the next step goes on with message %q: %+v", first.MessageID, step)
	}

	for _, c := range chunks[len(chunks)-2:] {
		p := c.Payload.(stream.FinishPayload)
		if p.Resumed || p.StepResult.MessageID != "" {
			t.Errorf("%s after the resumed step: %+v", c.Type, p.StepResult)
		}
		w := wire(t, c)
		if !inOrder(w, `"messages":{"all":`, `"processorRetryCount":0}`) {
			t.Errorf("%s: messages not before processorRetryCount: %s", c.Type, w)
		}
		steps := p.Output.Steps
		if len(steps) != 2 || len(steps[0].Content) == 0 || steps[1].Content == nil || len(steps[1].Content) != 0 {
			t.Fatalf("%s steps: %+v", c.Type, steps)
		}
		if !strings.Contains(w, `"steps":[{"content":[{"type":"tool-call"`) || !strings.Contains(w, `},{"content":[],"usage":`) {
			t.Errorf("%s: the step after the resume should list no content: %s", c.Type, w)
		}
	}
}

// TestAStepAfterAResumeKeepsNoContentThroughAnotherSuspension: a step
// whose model call came after a resume lists no content, also when it is
// itself the step a later resume completes.
func TestAStepAfterAResumeKeepsNoContentThroughAnotherSuspension(t *testing.T) {
	var runs atomic.Int32
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "pay", Args: `{"amount":1}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-2", Name: "pay", Args: `{"amount":2}`}}},
		mock.Step{Text: "Paid twice."},
	)
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs)})
	runID := suspendRun(t, a)
	again, err := a.ResumeGenerate(context.Background(), runID, confirmResume{OK: true})
	if err != nil || again.FinishReason != model.FinishSuspended {
		t.Fatalf("first resume: %v, %s", err, again.FinishReason)
	}
	out, err := a.ResumeGenerate(context.Background(), runID, confirmResume{OK: true})
	if err != nil || out.FinishReason != model.FinishStop {
		t.Fatalf("second resume: %v, %s", err, out.FinishReason)
	}
	// The run's every step is listed: the first (before any resume) with
	// its content, the two whose model calls came after a resume without.
	if len(out.Steps) != 3 || len(out.Steps[0].Content) == 0 || len(out.Steps[1].Content) != 0 || len(out.Steps[2].Content) != 0 {
		t.Errorf("steps after a resume: %+v", out.Steps)
	}
}

func TestApprovalChunkAndDeclineAreMastras(t *testing.T) {
	guarded := tools.New(tools.Config[addIn, addOut]{ID: "guarded-add", RequireApproval: true,
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "guarded-add", Args: `{"a":2,"b":3}`}}},
		mock.Step{Text: "The sum is 5."},
	)
	a := newAgent(t, m, tools.Set{"guarded-add": guarded})
	first := collect(t, a, "What is 2+3?")
	approval := first[len(first)-1]
	const mastraSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"approved":{"type":"boolean","description":"Controls if the tool call is approved or not, should be true when approved and false when declined"},"reason":{"description":"Optional explanation for the decision, surfaced to the model when the tool call is declined","type":"string"}},"required":["approved"],"additionalProperties":false}`
	if p, ok := approval.Payload.(stream.ToolCallApprovalPayload); !ok || p.ResumeSchema != mastraSchema {
		t.Fatalf("approval chunk: %+v", approval)
	}

	chunks, ts := chunkTypes(t, a.DeclineToolCall(context.Background(), approval.RunID, "call-1", ""))
	if ts[0] != stream.TypeToolOutputDenied {
		t.Fatalf("declined stream: %v", ts)
	}
	// The model is told the reason as the call's text result, and the
	// run's messages hold the same.
	msgs := m.Calls()[1].Messages
	if o := msgs[len(msgs)-1].Content[0].ToolResult.Output; o.Type != model.OutputText || o.Value != DefaultDeclineReason {
		t.Errorf("the model was told %+v", o)
	}
	want := `{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"guarded-add","output":{"type":"text","value":"Tool call was not approved by the user"},"input":{"a":2,"b":3}}]}`
	for _, c := range chunks {
		if c.Type != stream.TypeStepFinish && c.Type != stream.TypeFinish {
			continue
		}
		if got := wire(t, c); strings.Count(got, want) < 2 {
			t.Errorf("%s: the decline is not %s in messages.all and nonUser:\n%s", c.Type, want, got)
		}
	}
}

func TestSuspendedResumeSchemaIsMastras(t *testing.T) {
	var runs atomic.Int32
	a := resumedAgent(t, &runs)
	chunks := collect(t, a, "What is 2+3?")
	p := chunks[len(chunks)-1].Payload.(stream.ToolCallSuspendedPayload)
	const want = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"ok":{"type":"boolean"},"note":{"type":"string"}},"required":["ok","note"],"additionalProperties":false}`
	if p.ResumeSchema != want {
		t.Errorf("resumeSchema\n got %s\nwant %s", p.ResumeSchema, want)
	}
}

// TestSuspendedRunsListArgsOnlyForApprovals: Mastra lists a call waiting
// for approval with its args, a suspended one with its payload only.
func TestSuspendedRunsListArgsOnlyForApprovals(t *testing.T) {
	var runs atomic.Int32
	guarded := tools.New(tools.Config[addIn, addOut]{ID: "guarded-add", RequireApproval: true,
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
	m := mock.NewFunc(func(req *model.Request) mock.Step {
		name := "pay"
		if req.Messages[len(req.Messages)-1].TextContent() == "approve" {
			name = "guarded-add"
		}
		return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: name, Args: `{"amount":5,"a":2,"b":3}`}}}
	})
	a := newAgent(t, m, tools.Set{"pay": payTool(&runs), "guarded-add": guarded})
	ctx := context.Background()
	for _, in := range []string{"suspend", "approve"} {
		if out, err := a.Generate(ctx, in); err != nil || out.FinishReason != model.FinishSuspended {
			t.Fatalf("%s: %v", in, err)
		}
		time.Sleep(2 * time.Millisecond) // distinct suspension times
	}
	list, _, err := a.ListSuspendedRuns(ctx, SuspendedRunsFilter{})
	if err != nil || len(list) != 2 {
		t.Fatalf("%v %+v", err, list)
	}
	for _, r := range list {
		b, _ := json.Marshal(r.ToolCalls)
		switch c := r.ToolCalls[0]; {
		case c.RequiresApproval && string(b) != `[{"toolCallId":"call-1","toolName":"guarded-add","args":{"amount":5,"a":2,"b":3},"requiresApproval":true}]`:
			t.Errorf("approval: %s", b)
		case !c.RequiresApproval && string(b) != `[{"toolCallId":"call-1","toolName":"pay","requiresApproval":false,"suspendPayload":{"question":"Pay 5?"}}]`:
			t.Errorf("suspension: %s", b)
		}
	}
}
