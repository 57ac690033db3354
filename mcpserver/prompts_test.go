package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// briefPrompts are an app's prompts: "greet" with a required argument,
// "brief" asking for a topic first (Mastra's suspend in
// getPromptMessages).
func briefPrompts(calls *[]string) *Prompts {
	return &Prompts{
		List: func(context.Context) ([]*mcp.Prompt, error) {
			return []*mcp.Prompt{
				{Name: "greet", Description: "Greets", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}, {Name: "tone"}}},
				{Name: "brief", Description: "A brief on a topic"},
				{Name: "broken"},
			}, nil
		},
		Messages: func(_ context.Context, req *PromptRequest) ([]*mcp.PromptMessage, error) {
			*calls = append(*calls, fmt.Sprintf("%s resume=%s payload=%s", req.Prompt.Name, req.ResumeData, req.SuspendPayload))
			switch req.Prompt.Name {
			case "greet":
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hi to " + req.Args["name"]}}}, nil
			case "brief":
				if req.ResumeData == nil {
					return nil, req.Suspend(map[string]any{"message": "Topic?"})
				}
				var answer struct{ Topic string }
				if err := json.Unmarshal(req.ResumeData, &answer); err != nil {
					return nil, err
				}
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "brief on " + answer.Topic}}}, nil
			}
			return nil, errors.New("no such template")
		},
		ResumeSchema: `{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]}`,
	}
}

func promptServer(t testing.TB, calls *[]string) *Server {
	t.Helper()
	s, err := New(Config{Name: "Prompts", Version: "1.0.0", Prompts: briefPrompts(calls), Logger: discardLogger(),
		RequestStateKey: []byte(strings.Repeat("k", 32))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Prompts are listed and built; a missing required argument and an
// unknown prompt are invalid-params errors and never reach Messages.
func TestPrompts(t *testing.T) {
	ctx := context.Background()
	var calls []string
	cs := connect(t, promptServer(t, &calls), clientOptions{})
	if caps := cs.InitializeResult().Capabilities; caps.Prompts == nil || !caps.Prompts.ListChanged {
		t.Fatalf("prompts capability %+v", caps.Prompts)
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 3 {
		t.Fatalf("list %+v, %v", list, err)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet", Arguments: map[string]string{"name": "Pat"}})
	if err != nil || len(got.Messages) != 1 || got.Messages[0].Content.(*mcp.TextContent).Text != "Say hi to Pat" || got.Description != "Greets" {
		t.Fatalf("get %+v, %v", got, err)
	}
	calls = nil
	for name, want := range map[string]string{"greet": "Missing required argument: name", "nope": "nope"} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name})
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpc.Message, want) {
			t.Errorf("%s: %v, want invalid params %q", name, err, want)
		}
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "broken"}); err == nil || !strings.Contains(err.Error(), "no such template") {
		t.Errorf("failing Messages: %v", err)
	}
	if len(calls) != 1 {
		t.Errorf("Messages ran for rejected requests: %v", calls)
	}
}

// A prompt that suspends asks the client (input_required on 2026-07-28,
// elicitation/create before) and is built from the answer, which
// ResumeData carries with the payload it suspended with.
func TestPromptSuspension(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			var calls []string
			var asked string
			cs := connect(t, promptServer(t, &calls), clientOptions{legacy: legacy, elicit: func(p *mcp.ElicitParams) *mcp.ElicitResult {
				asked = p.Message
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"topic": "Go"}}
			}})
			got, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief"})
			if err != nil || len(got.Messages) != 1 || got.Messages[0].Content.(*mcp.TextContent).Text != "brief on Go" {
				t.Fatalf("get %+v, %v", got, err)
			}
			want := []string{"brief resume= payload=", `brief resume={"topic":"Go"} payload={"message":"Topic?"}`}
			if asked != "Topic?" || strings.Join(calls, "|") != strings.Join(want, "|") {
				t.Errorf("asked %q, calls %q", asked, calls)
			}
		})
	}
}

// The continuation of a suspended prompt is checked: an answer that does
// not fit the form, a declined question, a state for other arguments and
// a forged state never reach Messages.
func TestPromptContinuationChecks(t *testing.T) {
	ctx := context.Background()
	var calls []string
	cs := connect(t, promptServer(t, &calls), clientOptions{noMRTR: true, elicit: accept(nil)})
	first, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "brief"})
	if err != nil || first.RequestState == "" {
		t.Fatalf("first round %+v, %v", first, err)
	}
	q, ok := first.InputRequests[inputKey].(*mcp.ElicitParams)
	if !ok || q.Message != "Topic?" || !strings.Contains(fmt.Sprint(q.RequestedSchema), "topic") {
		t.Fatalf("input request %+v", first.InputRequests)
	}
	answer := func(r *mcp.ElicitResult) mcp.InputResponseMap { return mcp.InputResponseMap{inputKey: r} }
	accepted := func(topic any) mcp.InputResponseMap {
		return answer(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"topic": topic}})
	}
	for _, c := range []struct {
		name, want string
		params     *mcp.GetPromptParams
	}{
		{"bad answer", `Invalid input response "input"`, &mcp.GetPromptParams{Name: "brief", RequestState: first.RequestState, InputResponses: accepted(42)}},
		{"declined", "Prompt 'brief' was declined", &mcp.GetPromptParams{Name: "brief", RequestState: first.RequestState, InputResponses: answer(&mcp.ElicitResult{Action: "decline"})}},
		{"cancelled", "Prompt 'brief' was cancelled", &mcp.GetPromptParams{Name: "brief", RequestState: first.RequestState, InputResponses: answer(&mcp.ElicitResult{Action: "cancel"})}},
		{"other args", `requestState does not belong to prompts/get "brief"`, &mcp.GetPromptParams{Name: "brief", Arguments: map[string]string{"x": "y"}, RequestState: first.RequestState, InputResponses: accepted("Go")}},
		{"forged", "Invalid requestState", &mcp.GetPromptParams{Name: "brief", RequestState: first.RequestState + "x", InputResponses: accepted("Go")}},
		{"missing answer", `Missing input response "input"`, &mcp.GetPromptParams{Name: "brief", RequestState: first.RequestState}},
	} {
		if res, err := cs.GetPrompt(ctx, c.params); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v, want an error %q", c.name, res, err, c.want)
		}
	}
	if len(calls) != 1 {
		t.Errorf("Messages ran for rejected continuations: %q", calls)
	}
}

// A client without the elicitation capability gets an error, not a
// question it cannot answer.
func TestPromptSuspensionWithoutElicitation(t *testing.T) {
	var calls []string
	cs := connect(t, promptServer(t, &calls), clientOptions{})
	_, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "brief"})
	if err == nil || !strings.Contains(err.Error(), "declared no elicitation capability") {
		t.Errorf("got %v", err)
	}
}

// NotifyPromptListChanged lists again; a Prompts without Messages or with
// a resume schema that is no form fails New.
func TestPromptListChangedAndConfig(t *testing.T) {
	ctx := context.Background()
	names := []string{"a", "b"}
	p := &Prompts{
		List: func(context.Context) ([]*mcp.Prompt, error) {
			var l []*mcp.Prompt
			for _, n := range names {
				l = append(l, &mcp.Prompt{Name: n})
			}
			return l, nil
		},
		Messages: func(context.Context, *PromptRequest) ([]*mcp.PromptMessage, error) { return nil, nil },
	}
	s, err := New(Config{Name: "x", Version: "1", Prompts: p, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs := connect(t, s, clientOptions{})
	names = []string{"b", "c"}
	if err := s.NotifyPromptListChanged(ctx); err != nil {
		t.Fatal(err)
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 2 || list.Prompts[0].Name != "b" || list.Prompts[1].Name != "c" {
		t.Errorf("after the change: %+v, %v", list, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "a"}); err == nil {
		t.Error("removed prompt still served")
	}
	for name, bad := range map[string]*Prompts{
		"no Messages": {List: p.List},
		"nested form": {List: p.List, Messages: p.Messages, ResumeSchema: `{"type":"object","properties":{"a":{"type":"object"}}}`},
	} {
		if _, err := New(Config{Name: "x", Version: "1", Prompts: bad, Logger: discardLogger()}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
