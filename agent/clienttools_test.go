package agent

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// browserAdd is a client tool: the caller runs it.
func browserAdd() tools.Set {
	return tools.Set{"browserAdd": tools.New(tools.Config[addIn, addOut]{ID: "browserAdd", Description: "Add two integers in the browser"})}
}

// clientModel calls browserAdd until the prompt holds its result, then
// answers (the compat gate's scripted model); prompts gets each call's
// messages.
func clientModel(prompts *[][]model.Message) *mock.Model {
	return mock.NewFunc(func(req *model.Request) mock.Step {
		*prompts = append(*prompts, req.Messages)
		for _, m := range req.Messages {
			for _, p := range m.Content {
				if p.ToolResult != nil {
					return mock.Step{Text: "The sum is 5."}
				}
			}
		}
		return mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "browserAdd", Args: `{"a":2,"b":3}`}}}
	})
}

func messagesJSON(t *testing.T, msgs []model.Message) string {
	t.Helper()
	b, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClientToolRoundTrip is the client-tool turn as @mastra/client-js
// drives it: the first run ends on the client's tool call; the client
// runs the tool and sends the run's response messages back with the
// result; the second run goes on from them.
func TestClientToolRoundTrip(t *testing.T) {
	var prompts [][]model.Message
	a := newAgent(t, clientModel(&prompts), nil)
	ctx := context.Background()
	first, err := a.Generate(ctx, "What is 2+3?", WithClientTools(browserAdd()))
	if err != nil || first.FinishReason != model.FinishToolCalls {
		t.Fatalf("first run: %v, %s", err, first.FinishReason)
	}
	// Mastra lists the call's tool message, empty, until a result comes.
	call := `{"role":"assistant","content":[{"type":"tool-call","toolCallId":"call-1","toolName":"browserAdd","input":{"a":2,"b":3}}]}`
	if got, want := messagesJSON(t, first.Response.Messages), `[`+call+`,{"role":"tool","content":[]}]`; got != want {
		t.Errorf("first response messages\n got %s\nwant %s", got, want)
	}
	finish := first.Chunks[len(first.Chunks)-1].Payload.(stream.FinishPayload)
	if got := messagesJSON(t, finish.Messages.NonUser); got != `[`+call+`,{"role":"tool","content":[]}]` {
		t.Errorf("first finish nonUser: %s", got)
	}

	// client-js's follow-up: the response messages, then the result (its
	// call's input left out, as client-js's generate sends it).
	followUp := append(append([]model.Message(nil), first.Response.Messages...),
		model.ToolMessage(model.ToolResultPart{ToolCallID: "call-1", ToolName: "browserAdd", Output: model.JSONOutput(json.RawMessage(`{"sum":5}`))}))
	chunks := collect(t, a, followUp, WithClientTools(browserAdd()))
	if ts := strings.Join(types(chunks), " "); strings.Contains(ts, "error") {
		t.Fatalf("second run: %s", ts)
	}
	// The model sees the call, then its result; no empty tool message.
	if len(prompts) != 2 {
		t.Fatalf("%d model calls", len(prompts))
	}
	prompt := prompts[1]
	var roles []string
	for _, msg := range prompt {
		roles = append(roles, string(msg.Role))
	}
	if d := cmp.Diff([]string{"system", "assistant", "tool"}, roles); d != "" {
		t.Errorf("second prompt roles (-want +got):\n%s", d)
	}
	// The messages carried back are the run's response, not its input.
	result := `{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"browserAdd","output":{"type":"json","value":{"sum":5}},"input":{"a":2,"b":3}}]}`
	answer := `{"role":"assistant","content":[{"type":"text","text":"The sum is 5."}]}`
	want := `[` + call + `,` + result + `,` + answer + `]`
	p := chunks[len(chunks)-1].Payload.(stream.FinishPayload)
	if got := messagesJSON(t, p.Messages.User); got != `[]` {
		t.Errorf("user messages: %s", got)
	}
	if got := messagesJSON(t, p.Messages.NonUser); got != want {
		t.Errorf("nonUser\n got %s\nwant %s", got, want)
	}
	if got := messagesJSON(t, p.Messages.All); got != want {
		t.Errorf("all\n got %s\nwant %s", got, want)
	}
	if got := messagesJSON(t, p.Output.Steps[0].Response.Messages); got != want {
		t.Errorf("step response messages\n got %s\nwant %s", got, want)
	}
}

func TestSplitInput(t *testing.T) {
	user, sys := model.UserText("hi"), model.System("be brief")
	call := model.Assistant(model.ToolCall("c1", "t", json.RawMessage(`{}`)))
	result := model.ToolMessage(model.ToolResultPart{ToolCallID: "c1", ToolName: "t", Output: model.TextOutput("ok")})
	empty := model.Message{Role: model.RoleTool, Content: []model.Part{}}
	text := model.Assistant(model.Text("earlier answer"))
	for _, tt := range []struct {
		name           string
		in             []model.Message
		input, carried []model.Message
	}{
		{"user only", []model.Message{user}, []model.Message{user}, nil},
		{"a conversation ending with the user", []model.Message{user, text, user}, []model.Message{user, text, user}, nil},
		{"a call and its result", []model.Message{user, call, empty, result}, []model.Message{user}, []model.Message{call, result}},
		{"no user message", []model.Message{call, result}, []model.Message{}, []model.Message{call, result}},
		{"a system message among them", []model.Message{user, call, sys, result}, []model.Message{user, sys}, []model.Message{call, result}},
	} {
		input, carried := splitInput(tt.in)
		if d := cmp.Diff(tt.input, input); d != "" {
			t.Errorf("%s: input (-want +got):\n%s", tt.name, d)
		}
		if d := cmp.Diff(tt.carried, carried); d != "" {
			t.Errorf("%s: carried (-want +got):\n%s", tt.name, d)
		}
	}
}

// TestShadowedToolMapsWithoutListingToolsAgain: a client tool of the
// name of one of the agent's ToolsFunc tools gets that tool's
// ToModelOutput applied to its ingested result, and ToolsFunc runs once
// in the run, not again to find the shadowed tool.
func TestShadowedToolMapsWithoutListingToolsAgain(t *testing.T) {
	var prompts [][]model.Message
	calls := 0
	server := tools.New(tools.Config[addIn, addOut]{ID: "browserAdd", Description: "Add two integers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil },
		ToModelOutput: func(_ context.Context, out addOut) (*model.ToolResultOutput, error) {
			return tools.TextOutput("sum is " + strconv.Itoa(out.Sum))
		}})
	a := newAgent(t, clientModel(&prompts), nil, func(c *Config) {
		c.ToolsFunc = func(context.Context, *tools.RequestContext) (tools.Set, error) {
			calls++
			return tools.Set{"browserAdd": server}, nil
		}
	})
	history := []model.Message{
		model.UserText("What is 2+3?"),
		model.Assistant(model.ToolCall("call-1", "browserAdd", json.RawMessage(`{"a":2,"b":3}`))),
		model.ToolMessage(model.ToolResultPart{ToolCallID: "call-1", ToolName: "browserAdd", Output: model.JSONOutput(json.RawMessage(`{"sum":5}`))}),
	}
	collect(t, a, history, WithClientTools(browserAdd()))
	if calls != 1 {
		t.Errorf("ToolsFunc ran %d times in one run, want once", calls)
	}
	if got := messagesJSON(t, prompts[0]); !strings.Contains(got, `"sum is 5"`) {
		t.Errorf("the model did not get the mapped result: %s", got)
	}
}
