package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

type nameAnswer struct {
	Name string `json:"name"`
}

// namedKeyServer exposes "greet", which asks for a name under the key
// "user_name" (mcpserver.Question) and greets.
func namedKeyServer(t testing.TB, runs *int) *Server {
	t.Helper()
	greet := tools.New(tools.Config[struct{}, string]{ID: "greet", Description: "Greets",
		ResumeSchema: compiled(t, `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			*runs++
			answer, ok, err := tools.ResumeDataAs[nameAnswer](ctx)
			if err != nil {
				return "", err
			}
			if !ok {
				return "", ctx.Suspend(Question{Message: "What is your name?", InputKey: "user_name"})
			}
			return "Hello, " + answer.Name + "!", nil
		}})
	s, err := New(Config{Name: "keys", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{"greet": greet}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// textOf returns a function reading a call's first text, failing t on an
// error: textOf(t)(cs.CallTool(...)).
func textOf(t testing.TB) func(*mcp.CallToolResult, error) string {
	return func(res *mcp.CallToolResult, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) == 0 {
			return ""
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
}

// A tool asks under the key it names; the answer is read under that key,
// and an answer under another key is missing.
func TestQuestionInputKey(t *testing.T) {
	ctx := context.Background()
	runs := 0
	cs := connect(t, namedKeyServer(t, &runs), clientOptions{noMRTR: true, elicit: accept(nil)})
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	q, ok := first.InputRequests["user_name"].(*mcp.ElicitParams)
	if !ok || q.Message != "What is your name?" || len(first.InputRequests) != 1 {
		t.Fatalf("input requests %+v", first.InputRequests)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Al"}}}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams || rpc.Message != `Missing input response "user_name"` {
		t.Errorf("answer under another key: %v", err)
	}
	got := textOf(t)(cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, RequestState: first.RequestState,
		InputResponses: mcp.InputResponseMap{
			"user_name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Alice"}},
			"extra":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"x": 1}},
		}}))
	if got != "Hello, Alice!" {
		t.Errorf("answered: %q", got)
	}
}

// A 2026-07-28 client may send the answer with the first call, before
// being asked: the tool resumes at once (unrecognised keys ignored); a
// declined answer ends the call; an answer of the wrong shape is asked
// again; legacy clients are asked under the same key with
// elicitation/create.
func TestPresuppliedAnswer(t *testing.T) {
	ctx := context.Background()
	runs := 0
	cs := connect(t, namedKeyServer(t, &runs), clientOptions{noMRTR: true, elicit: accept(nil)})
	call := func(responses mcp.InputResponseMap) (*mcp.CallToolResult, error) {
		return cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}, InputResponses: responses})
	}
	got := textOf(t)(call(mcp.InputResponseMap{
		"user_name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Alice"}},
		"other":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"foo": "bar"}},
	}))
	if got != "Hello, Alice!" || runs != 2 {
		t.Errorf("presupplied: %q after %d runs", got, runs)
	}
	res, err := call(mcp.InputResponseMap{"user_name": &mcp.ElicitResult{Action: "decline"}})
	if got := textOf(t)(res, err); !res.IsError || got != "Tool 'greet' was declined" {
		t.Errorf("declined: %q", got)
	}
	res, err = call(mcp.InputResponseMap{"something_else": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Bob"}}})
	if err != nil || res.InputRequests["user_name"] == nil {
		t.Errorf("answer under another key: %+v, %v", res, err)
	}
	res, err = call(mcp.InputResponseMap{"user_name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": 42}}})
	if got := textOf(t)(res, err); !res.IsError || !strings.Contains(got, "name") {
		t.Errorf("invalid answer: %q", got)
	}

	var keysAsked []string
	legacy := connect(t, namedKeyServer(t, &runs), clientOptions{legacy: true, elicit: func(p *mcp.ElicitParams) *mcp.ElicitResult {
		keysAsked = append(keysAsked, p.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Lee"}}
	}})
	got = textOf(t)(legacy.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{}}))
	if got != "Hello, Lee!" || fmt.Sprint(keysAsked) != "[What is your name?]" {
		t.Errorf("legacy: %q, asked %v", got, keysAsked)
	}
}

func compiled(t testing.TB, text string) *schema.Compiled {
	t.Helper()
	c, err := schema.FromJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
