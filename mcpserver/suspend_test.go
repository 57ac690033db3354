//lint:file-ignore SA1019 the tests exercise MCP logging and roots, deprecated by SEP-2577 but served.

package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

type stepsIn struct {
	Steps int `json:"steps"`
}

// suspendServer exposes tools that suspend in different ways.
func suspendServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(Config{Name: "suspender", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"confirm": fixtureTools()["confirm"],
		// multi asks Steps times, counting the answers it got.
		"multi": tools.New(tools.Config[stepsIn, string]{ID: "multi", Description: "Asks several times",
			Execute: func(ctx tools.Context, in stepsIn) (string, error) {
				var round struct {
					Round int `json:"round"`
				}
				if ctx.SuspendPayload() != nil {
					if err := json.Unmarshal(ctx.SuspendPayload(), &round); err != nil {
						return "", err
					}
				}
				if round.Round < in.Steps {
					return "", ctx.Suspend(map[string]any{"round": round.Round + 1, "message": fmt.Sprintf("Question %d?", round.Round+1)},
						tools.WithResumeSchema(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"ok":{"type":"boolean"}},"description":"Say ok"}`))
				}
				return fmt.Sprintf("answered %d", round.Round), nil
			}}),
		// quiet suspends with no message and no schema.
		"quiet": tools.New(tools.Config[struct{}, string]{ID: "quiet", Description: "Suspends silently",
			Execute: func(ctx tools.Context, _ struct{}) (string, error) {
				if ctx.ResumeData() == nil {
					return "", ctx.Suspend(nil)
				}
				return "resumed with " + string(ctx.ResumeData()), nil
			}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func accept(content map[string]any) func(*mcp.ElicitParams) *mcp.ElicitResult {
	return func(*mcp.ElicitParams) *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: content}
	}
}

// A tool that suspends several times is answered round after round, by
// the SDK client's input_required loop (2026-07-28) and through
// elicitation/create (2025-11-25); the form comes from the schema given to
// Suspend, the message from the payload.
func TestMultiRoundSuspension(t *testing.T) {
	s := suspendServer(t)
	for _, legacy := range []bool{false, true} {
		var asked []string
		cs := connect(t, s, clientOptions{legacy: legacy, elicit: func(p *mcp.ElicitParams) *mcp.ElicitResult {
			asked = append(asked, p.Message)
			if b, _ := json.Marshal(p.RequestedSchema); !strings.Contains(string(b), `"description":"Say ok"`) || strings.Contains(string(b), "$schema") {
				t.Errorf("form %s", b)
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}
		}})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "multi", Arguments: map[string]any{"steps": 3}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || res.Content[0].(*mcp.TextContent).Text != "answered 3" {
			t.Errorf("legacy=%v: %+v", legacy, res.Content[0])
		}
		if strings.Join(asked, ",") != "Question 1?,Question 2?,Question 3?" {
			t.Errorf("legacy=%v asked %q", legacy, asked)
		}
	}
}

// A suspension with neither message nor schema asks `"<name>" needs more
// input` with an empty form; the answer reaches the tool as ResumeData.
func TestSuspensionDefaults(t *testing.T) {
	s := suspendServer(t)
	var asked *mcp.ElicitParams
	cs := connect(t, s, clientOptions{elicit: func(p *mcp.ElicitParams) *mcp.ElicitResult {
		asked = p
		return &mcp.ElicitResult{Action: "accept"}
	}})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "quiet"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "resumed with {}" {
		t.Errorf("result %q", got)
	}
	form, _ := json.Marshal(asked.RequestedSchema)
	if asked.Message != `"quiet" needs more input` || string(form) != `{"properties":{},"type":"object"}` {
		t.Errorf("asked %q %s", asked.Message, form)
	}
}

// A legacy client that keeps being asked gives up after maxLegacyRounds.
func TestLegacyRoundLimit(t *testing.T) {
	s := suspendServer(t)
	cs := connect(t, s, clientOptions{legacy: true, elicit: accept(map[string]any{"ok": true})})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "multi", Arguments: map[string]any{"steps": 50}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Tool 'multi' asked for input more than 10 times." {
		t.Errorf("%+v", res.Content[0])
	}
}

// A client that cannot answer input requests (no elicitation capability)
// gets an isError result naming the question, on every protocol.
func TestSuspensionWithoutElicitation(t *testing.T) {
	s := suspendServer(t)
	for _, legacy := range []bool{false, true} {
		cs := connect(t, s, clientOptions{legacy: legacy})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{"action": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		want := "Tool 'confirm' needs input (Approve x?), but the client cannot provide it: it declared no elicitation capability."
		if !res.IsError || res.NeedsInput() || res.Content[0].(*mcp.TextContent).Text != want {
			t.Errorf("legacy=%v: %+v", legacy, res)
		}
	}
}

// Continuations are checked: a forged, expired or foreign requestState
// and a missing or unusable answer are invalid-params errors; stray
// input responses without a state are ignored.
func TestContinuationChecks(t *testing.T) {
	s := suspendServer(t)
	cs := connect(t, s, clientOptions{noMRTR: true, elicit: accept(nil)})
	ctx := context.Background()
	args := map[string]any{"action": "deploy"}
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", Arguments: args})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("%v %+v", err, first)
	}
	yes := mcp.InputResponseMap{inputKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approved": true}}}
	mint := func(e envelope) string {
		st, err := s.codec.mint(e)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	hash, _ := hashArguments(json.RawMessage(`{"action":"deploy"}`))
	now := time.Now().Unix()
	for _, tc := range []struct {
		name   string
		params *mcp.CallToolParams
		want   string
	}{
		{"forged", &mcp.CallToolParams{Name: "confirm", Arguments: args, InputResponses: yes, RequestState: first.RequestState[:len(first.RequestState)-3] + "abc"},
			"Invalid requestState: requestState signature mismatch"},
		{"garbage", &mcp.CallToolParams{Name: "confirm", Arguments: args, InputResponses: yes, RequestState: "not a state"},
			"Invalid requestState: malformed requestState"},
		{"other arguments", &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{"action": "delete"}, InputResponses: yes, RequestState: first.RequestState},
			`requestState does not belong to tools/call "confirm" with these arguments`},
		{"other tool", &mcp.CallToolParams{Name: "multi", Arguments: args, InputResponses: yes, RequestState: first.RequestState},
			`requestState does not belong to tools/call "multi" with these arguments`},
		{"other caller", &mcp.CallToolParams{Name: "confirm", Arguments: args, InputResponses: yes,
			RequestState: mint(envelope{Method: "tools/call", Name: "confirm", ArgsHash: hash, Round: 1, Principal: "user:mallory", IssuedAt: now})},
			"requestState was issued to a different caller"},
		{"expired", &mcp.CallToolParams{Name: "confirm", Arguments: args, InputResponses: yes,
			RequestState: mint(envelope{Method: "tools/call", Name: "confirm", ArgsHash: hash, Round: 1, Principal: "anonymous", IssuedAt: now - 3600})},
			"Invalid requestState: requestState expired"},
		{"no answer", &mcp.CallToolParams{Name: "confirm", Arguments: args, RequestState: first.RequestState},
			`Missing input response "input"`},
		{"wrong answer kind", &mcp.CallToolParams{Name: "confirm", Arguments: args, RequestState: first.RequestState,
			InputResponses: mcp.InputResponseMap{inputKey: &mcp.ListRootsResult{}}}, `Unsupported input response "input"`},
	} {
		_, err := cs.CallTool(ctx, tc.params)
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message != tc.want {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// Input responses without a state: a fresh call whose first question
	// is already answered (suspend.go's presuppliedAnswer).
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", Arguments: args, InputResponses: yes})
	if err != nil || res.NeedsInput() || res.IsError {
		t.Errorf("responses sent before the question: %v %+v", err, res)
	}
	// The genuine state, with the arguments in another key order, is
	// accepted (the hash is canonical).
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", Arguments: json.RawMessage(`{ "action" : "deploy" }`),
		InputResponses: yes, RequestState: first.RequestState})
	if err != nil || res.IsError {
		t.Errorf("genuine: %v %+v", err, res)
	}
}

// The canonical argument hash ignores key order and spacing and is
// JSON.stringify's for scalars.
func TestHashArguments(t *testing.T) {
	a, _ := hashArguments(json.RawMessage(`{"b":[1,{"y":2,"x":1}],"a":"\u00e9"}`))
	b, _ := hashArguments(json.RawMessage(` { "a" : "é", "b" : [ 1.0 , { "x" : 1 , "y" : 2e0 } ] } `))
	if a != b {
		t.Errorf("%s != %s", a, b)
	}
	// sha256 of {"action":"deploy"}, Mastra's hash in the capture.
	if h, _ := hashArguments(json.RawMessage(`{"action":"deploy"}`)); h != "en70zgksQ1BbuXWwkeXp5dV7tBEv_8CuW25PuZTVGCQ" {
		t.Errorf("hash %s", h)
	}
	if _, err := hashArguments(json.RawMessage(`{"a":`)); err == nil {
		t.Error("invalid JSON hashed")
	}
}
