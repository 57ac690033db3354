package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// The tests of this file pin, without Node, what the compatibility gate
// (package compat) found @mastra/client-js relies on in the agent routes.

func messageJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clientToolsFollowUp is the body @mastra/client-js 1.47 sends to go on
// after running a client tool the stream asked for: the UI message of the
// model's call, then the tool's result.
const clientToolsFollowUp = `{"messages":[` +
	`{"id":"m-1","role":"assistant","content":"","parts":[{"type":"step-start"},{"type":"tool-invocation","toolInvocation":{"state":"call","step":0,"toolCallId":"call-1","toolName":"browserAdd","args":{"a":2,"b":3}}}],` +
	`"toolInvocations":[{"state":"call","step":0,"toolCallId":"call-1","toolName":"browserAdd","args":{"a":2,"b":3}}]},` +
	`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3},"result":{"sum":5}}]}],` +
	`"clientTools":{"browserAdd":{"id":"browserAdd","description":"Add two integers in the browser","inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}}}}`

func TestParseUIMessagesKeepsToolCalls(t *testing.T) {
	var body struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(clientToolsFollowUp), &body); err != nil {
		t.Fatal(err)
	}
	in, iss := parseMessages("messages", body.Messages)
	if iss != nil {
		t.Fatal(iss)
	}
	want := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]}]`
	if got := messageJSON(t, in); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	for _, tt := range []struct{ name, in, want string }{
		{"AI SDK v4: a call with its result, then text in the next step",
			`[{"role":"assistant","content":"The sum is 5.","parts":[{"type":"text","text":"Adding."},{"type":"tool-invocation","toolInvocation":{"state":"result","toolCallId":"c1","toolName":"add","args":{"a":2,"b":3},"result":{"sum":5}}},{"type":"step-start"},{"type":"text","text":"The sum is 5."}]}]`,
			`[{"role":"assistant","content":[{"type":"text","text":"Adding."},{"type":"tool-call","toolCallId":"c1","toolName":"add","input":{"a":2,"b":3}}]},` +
				`{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"add","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]},` +
				`{"role":"assistant","content":[{"type":"text","text":"The sum is 5."}]}]`},
		{"AI SDK v5: tool parts with an output, an error, and a call still open",
			`[{"id":"x","role":"assistant","parts":[{"type":"tool-add","toolCallId":"c1","state":"output-available","input":{"a":1},"output":"one"},{"type":"dynamic-tool","toolName":"lookup","toolCallId":"c2","state":"output-error","input":{},"errorText":"boom"},{"type":"tool-ask","toolCallId":"c3","state":"input-available","input":{"q":"?"}},{"type":"tool-ask","toolCallId":"c4","state":"input-streaming"},{"type":"data-progress","data":{}}]}]`,
			`[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"c1","toolName":"add","input":{"a":1}},{"type":"tool-call","toolCallId":"c2","toolName":"lookup","input":{}},{"type":"tool-call","toolCallId":"c3","toolName":"ask","input":{"q":"?"}}]},` +
				`{"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"add","output":{"type":"text","value":"one"},"input":{"a":1}},{"type":"tool-result","toolCallId":"c2","toolName":"lookup","output":{"type":"error-text","value":"boom"},"input":{}}]}]`},
		{"a user UI message: its text parts, its content summary aside",
			`[{"role":"user","content":"hi","parts":[{"type":"text","text":"hi"},{"type":"file","mediaType":"text/plain","url":"data:text/plain;base64,aGk=","filename":"a.txt"}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"file","data":"data:text/plain;base64,aGk=","mediaType":"text/plain","filename":"a.txt"}]}]`},
		{"Mastra's stored format",
			`[{"id":"s1","role":"assistant","content":{"format":2,"parts":[{"type":"text","text":"ok"}]}}]`,
			`[{"role":"assistant","content":[{"type":"text","text":"ok"}]}]`},
	} {
		in, iss := parseMessages("messages", json.RawMessage(tt.in))
		if iss != nil {
			t.Errorf("%s: %v", tt.name, iss)
			continue
		}
		if got := messageJSON(t, in); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
	if _, iss := parseMessages("messages", json.RawMessage(`[{"role":"robot","parts":[]}]`)); iss == nil || iss.Field != "messages.0" {
		t.Errorf("a UI message of an unknown role: %+v", iss)
	}
}

// TestClientToolFollowUpStream: the follow-up of a client-tool turn goes
// on from the model's call (the prompt holds the call before its
// result), and the messages it carried are the run's response (nonUser),
// as Mastra reports them.
func TestClientToolFollowUpStream(t *testing.T) {
	f := newFixture(t, withModel(func(m *scripted) { m.toolName = "browserAdd" }), withAgent(func(c *agent.Config) { c.Tools = nil }))
	cs := f.streamChunks(t, "/api/agents/calc-agent/stream", clientToolsFollowUp)
	if got := strings.Join(chunkTypes(cs), " "); got != "start step-start text-start text-delta text-delta text-delta text-delta text-end step-finish finish" {
		t.Fatalf("chunks: %s", got)
	}
	p := cs[len(cs)-1].Payload.(stream.FinishPayload)
	if p.StepResult.Reason != model.FinishStop || p.Output.Text != "The sum is 5." {
		t.Errorf("finish: %+v", p.StepResult)
	}
	want := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"The sum is 5."}]}]`
	if got := messageJSON(t, p.Messages.User); got != `[]` {
		t.Errorf("user: %s", got)
	}
	if d := cmp.Diff(want, messageJSON(t, p.Messages.NonUser)); d != "" {
		t.Errorf("nonUser (-want +got):\n%s", d)
	}
}

// TestClientToolFirstRequestListsTheEmptyToolMessage: the run that ends on
// a client tool lists the call's tool message, empty, as Mastra does
// (client-js sends it back as it is).
func TestClientToolFirstRequestListsTheEmptyToolMessage(t *testing.T) {
	f := newFixture(t, withModel(func(m *scripted) { m.toolName = "browserAdd" }), withAgent(func(c *agent.Config) { c.Tools = nil }))
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":"What is 2+3?","clientTools":{"browserAdd":{"id":"browserAdd","description":"Add"}}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var out struct {
		FinishReason string `json:"finishReason"`
		Response     struct {
			Messages json.RawMessage `json:"messages"`
		} `json:"response"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]},{"role":"tool","content":[]}]`
	if out.FinishReason != "tool-calls" || string(out.Response.Messages) != want {
		t.Errorf("%s: %s", out.FinishReason, out.Response.Messages)
	}
	// client-js's generate sends them back with the result (no input).
	follow := `{"messages":[` + strings.TrimSuffix(strings.TrimPrefix(want, "["), "]") +
		`,{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","result":{"sum":5}}]}],"clientTools":{"browserAdd":{"id":"browserAdd","description":"Add"}}}`
	resp, body = f.do(t, "POST", "/api/agents/calc-agent/generate", follow)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	want = `[{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]},` +
		`{"role":"assistant","content":[{"type":"text","text":"The sum is 5."}]}]`
	if out.FinishReason != "stop" || string(out.Response.Messages) != want {
		t.Errorf("follow-up %s:\n got %s\nwant %s", out.FinishReason, out.Response.Messages, want)
	}
}

type confirmAnswer struct {
	Confirmed bool `json:"confirmed"`
}

// TestResumeStreamOnTheWire: the resumed stream begins with the tool's
// result (no start chunk); its step-start has Mastra's member order; the
// suspended-runs route lists a suspended call without its args.
func TestResumeStreamOnTheWire(t *testing.T) {
	resume, err := schema.For[confirmAnswer]()
	if err != nil {
		t.Fatal(err)
	}
	confirmAdd := tools.New(tools.Config[addIn, addOut]{
		ID: "confirm-add", ResumeSchema: resume,
		Execute: func(ctx tools.Context, in addIn) (addOut, error) {
			if ctx.ResumeData() == nil {
				return addOut{}, ctx.Suspend(map[string]string{"question": "Add?"})
			}
			return addOut{Sum: in.A + in.B}, nil
		},
	})
	f := newFixture(t, withModel(func(m *scripted) { m.toolName = "confirm-add" }), withAgent(func(c *agent.Config) { c.Tools = tools.Set{"confirm-add": confirmAdd} }))
	first := f.streamChunks(t, "/api/agents/calc-agent/stream", `{"messages":"What is 2+3?"}`)
	last := first[len(first)-1]
	p, ok := last.Payload.(stream.ToolCallSuspendedPayload)
	if !ok || p.ResumeSchema != `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"confirmed":{"type":"boolean"}},"required":["confirmed"],"additionalProperties":false}` {
		t.Fatalf("suspended: %+v", last)
	}

	resp, body := f.do(t, "GET", "/api/agents/calc-agent/suspended-runs", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"toolCalls":[{"toolCallId":"call-1","toolName":"confirm-add","requiresApproval":false,"suspendPayload":{"question":"Add?"}}]`) {
		t.Errorf("suspended runs: %d %s", resp.StatusCode, body)
	}

	resp, body = f.do(t, "POST", "/api/agents/calc-agent/resume-stream", `{"runId":"`+last.RunID+`","toolCallId":"call-1","resumeData":{"confirmed":true}}`)
	if resp.StatusCode != 200 {
		t.Fatalf("resume: %d %s", resp.StatusCode, body)
	}
	frames := readFrames(t, body)
	if !strings.HasPrefix(frames[0], `{"type":"tool-result",`) {
		t.Errorf("first resumed frame: %s", frames[0])
	}
	if !strings.HasPrefix(frames[2], `{"runId":"`+last.RunID+`","from":"AGENT","type":"step-start","payload":{"warnings":[],"messageId":`) || !strings.HasSuffix(frames[2], `,"request":{}}}`) {
		t.Errorf("step-start frame: %s", frames[2])
	}
	if !strings.Contains(frames[1], `"isContinued":true,"messageId":"`) || !strings.Contains(frames[1], `"processorRetryCount":0,"messages":{`) {
		t.Errorf("resumed step-finish frame: %s", frames[1])
	}
}
