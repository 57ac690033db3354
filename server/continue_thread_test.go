package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
)

// browserAddDeclared is the clientTools field @mastra/client-js sends
// for a browser-side add tool.
const browserAddDeclared = `"clientTools":{"browserAdd":{"id":"browserAdd","description":"Add two integers in the browser",` +
	`"inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}}}`

const threadMemory = `"memory":{"thread":"thread-1","resource":"user-1"}`

// browserAddResult is the tool message client-js adds after running
// browserAdd (the generate loop sends no input; the stream loop does).
const browserAddResult = `{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","result":{"sum":5}}]}`

// promptShape is the roles of a prompt with the tool calls and results
// each message holds: "assistant[call:call-1]", "tool[result:call-1]".
func promptShape(msgs []model.Message) string {
	var out []string
	for _, m := range msgs {
		s := string(m.Role)
		var parts []string
		for _, p := range m.Content {
			switch {
			case p.ToolCall != nil:
				parts = append(parts, "call:"+p.ToolCall.ToolCallID)
			case p.ToolResult != nil:
				parts = append(parts, "result:"+p.ToolResult.ToolCallID)
			}
		}
		if len(parts) > 0 {
			s += "[" + strings.Join(parts, ",") + "]"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// continuedFixture is the server whose model calls the client tool
// browserAdd once, then answers; it keeps the model's prompts.
func continuedFixture(t *testing.T) (*fixture, *prompting) {
	pm := &prompting{}
	f := newFixture(t,
		withModel(func(m *scripted) { m.toolName = "browserAdd"; pm.scripted = m }),
		withAgent(func(c *agent.Config) { c.Model = pm; c.Tools = nil }))
	return f, pm
}

// firstTurn asks the question on the thread and returns the response's
// messages (response.messages), which end with the client tool's call.
func firstTurn(t *testing.T, f *fixture) json.RawMessage {
	t.Helper()
	resp, body := f.do(t, "POST", "/api/agents/calc-agent/generate",
		`{"messages":"What is 2+3?",`+threadMemory+`,`+browserAddDeclared+`}`)
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
	if out.FinishReason != "tool-calls" {
		t.Fatalf("first turn finished with %q", out.FinishReason)
	}
	return out.Response.Messages
}

// TestClientToolContinuationOnThreadPromptsEachCallOnce: a client goes on
// after running a client tool on a memory thread, as @mastra/client-js
// does (generate: the previous response's messages, then the tool's
// result; stream: the result alone). The thread already holds the
// assistant's call, so the model sees it once, answered by the result:
// system, user, assistant, tool.
func TestClientToolContinuationOnThreadPromptsEachCallOnce(t *testing.T) {
	const want = "system user assistant[call:call-1] tool[result:call-1]"
	for _, route := range []string{"generate", "stream"} {
		for _, tt := range []struct {
			name     string
			messages func(prev json.RawMessage) string
		}{
			{"previous response's messages and the result", func(prev json.RawMessage) string {
				return strings.TrimSuffix(string(prev), "]") + "," + browserAddResult + "]"
			}},
			{"the result alone", func(json.RawMessage) string { return "[" + browserAddResult + "]" }},
		} {
			t.Run(route+", "+tt.name, func(t *testing.T) {
				f, pm := continuedFixture(t)
				prev := firstTurn(t, f)
				body := `{"messages":` + tt.messages(prev) + `,` + threadMemory + `,` + browserAddDeclared + `}`
				resp, out := f.do(t, "POST", "/api/agents/calc-agent/"+route, body)
				if resp.StatusCode != 200 {
					t.Fatalf("%d %s", resp.StatusCode, out)
				}
				pm.mu.Lock()
				defer pm.mu.Unlock()
				if len(pm.prompts) != 2 {
					t.Fatalf("%d model calls", len(pm.prompts))
				}
				if got := promptShape(pm.prompts[1]); got != want {
					t.Errorf("second prompt:\n got  %s\n want %s", got, want)
				}
			})
		}
	}
}

// TestThreadTurnAfterClientToolContinuation: the turn after a
// continuation sees the call once, with its result, then the answer.
func TestThreadTurnAfterClientToolContinuation(t *testing.T) {
	for _, tt := range []struct{ name, messages string }{
		{"previous response's messages and the result", ""},
		{"the result alone", "[" + browserAddResult + "]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, pm := continuedFixture(t)
			prev := firstTurn(t, f)
			msgs := tt.messages
			if msgs == "" {
				msgs = strings.TrimSuffix(string(prev), "]") + "," + browserAddResult + "]"
			}
			for _, body := range []string{
				`{"messages":` + msgs + `,` + threadMemory + `,` + browserAddDeclared + `}`,
				`{"messages":"And 4+4?",` + threadMemory + `,` + browserAddDeclared + `}`,
			} {
				if resp, out := f.do(t, "POST", "/api/agents/calc-agent/generate", body); resp.StatusCode != 200 {
					t.Fatalf("%d %s", resp.StatusCode, out)
				}
			}
			pm.mu.Lock()
			defer pm.mu.Unlock()
			const want = "system user assistant[call:call-1] tool[result:call-1] assistant user"
			if got := promptShape(pm.prompts[len(pm.prompts)-1]); got != want {
				t.Errorf("third prompt:\n got  %s\n want %s", got, want)
			}
		})
	}
}

// TestThreadKeepsOnlyTheNewUserTurn: a client on a thread that sends the
// whole conversation with its new question; the thread holds all but the
// question, so the model sees the thread, then the question once (the
// thread's unanswered client call is left out, as is the client's result
// for it, which the thread does not know).
func TestThreadKeepsOnlyTheNewUserTurn(t *testing.T) {
	f, pm := continuedFixture(t)
	prev := firstTurn(t, f)
	msgs := `[{"role":"user","content":"What is 2+3?"},` + strings.TrimPrefix(strings.TrimSuffix(string(prev), "]"), "[") +
		`,` + browserAddResult + `,{"role":"user","content":"And 4+4?"}]`
	resp, out := f.do(t, "POST", "/api/agents/calc-agent/generate", `{"messages":`+msgs+`,`+threadMemory+`,`+browserAddDeclared+`}`)
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, out)
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	if got, want := promptShape(pm.prompts[1]), "system user user"; got != want {
		t.Errorf("second prompt:\n got  %s\n want %s", got, want)
	}
}
