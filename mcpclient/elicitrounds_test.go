package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// roundsServer (protocol 2026-07-28) asks through multi-round-trip input
// requests: its tool "pair" asks two questions in one round; its prompt
// and resource ask one.
func roundsServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "rounds", Version: "1"}, nil)
	seat := &mcp.ElicitParams{Message: "Which seat?", RequestedSchema: seatSchema}
	name := &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{"type": "object",
		"properties": map[string]any{"name": map[string]any{"type": "string"}}}}
	mcp.AddTool(srv, &mcp.Tool{Name: "pair"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		if len(req.Params.InputResponses) == 0 {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"a-seat": seat, "b-name": name}, RequestState: "st-1"}, nil, nil
		}
		b, _ := json.Marshal(map[string]any{"state": req.Params.RequestState, "answers": req.Params.InputResponses})
		return textResult(string(b)), nil, nil
	})
	srv.AddPrompt(&mcp.Prompt{Name: "greet"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		r, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{"name": name}}, nil
		}
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Hello " + r.Content["name"].(string)}}}}, nil
	})
	srv.AddResource(&mcp.Resource{URI: "file:///secret", Name: "secret"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		r, ok := req.Params.InputResponses["seat"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.ReadResourceResult{InputRequests: mcp.InputRequestMap{"seat": seat}}, nil
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///secret", Text: r.Content["seat"].(string) + "/" + r.Content["meal"].(string)}}}, nil
	})
	return srv
}

// A call suspended on an input request needs nothing in memory: a new
// client (as after a restart) resumes it, question by question; a bad
// answer suspends it again; the retry carries every answer (defaults
// applied) and the request state.
func TestInputRoundsSurviveRestart(t *testing.T) {
	srv := roundsServer()
	pair := func(c *Client) *tools.Tool {
		set, err := c.ServerTools(ctxT(t), "s")
		if err != nil {
			t.Fatal(err)
		}
		return set["pair"]
	}
	c1, err := New(Config{Logger: quietLogger(), Servers: map[string]ServerConfig{"s": inMemory(srv)}})
	if err != nil {
		t.Fatal(err)
	}
	inv := &tools.Invocation{RunID: "run", ToolCallID: "call"}
	res, err := pair(c1).Execute(ctxT(t), nil, inv)
	if err != nil || !res.Suspended() {
		t.Fatalf("not suspended: %+v, %v", res, err)
	}
	c1.Close() // the process "restarts"

	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(srv)}})
	tool := pair(c2)
	step := func(data string) *tools.Result {
		t.Helper()
		inv.ResumeData, inv.SuspendPayload = json.RawMessage(data), res.Suspension.Payload
		r, err := tool.Execute(ctxT(t), nil, inv)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	payload := func() (p ElicitationSuspension) {
		if err := json.Unmarshal(res.Suspension.Payload, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := payload()
	if p.Message != "Which seat?" || p.Tool != "pair" || len(p.Round) == 0 {
		t.Fatalf("first question %+v", p)
	}
	res = step(`{"action":"accept","content":{"seat":"1"}}`)
	if p = payload(); !res.Suspended() || !strings.Contains(p.Error, "does not match") {
		t.Fatalf("a bad answer: %+v", p)
	}
	res = step(`{"action":"accept","content":{"seat":"9B"}}`)
	if p = payload(); !res.Suspended() || p.Message != "Your name?" || p.Error != "" {
		t.Fatalf("second question %+v", p)
	}
	res = step(`{"action":"decline"}`)
	if res.Suspended() {
		t.Fatal("still suspended")
	}
	want := `{"answers":{"a-seat":{"action":"accept","content":{"meal":"veg","seat":"9B"}},"b-name":{"action":"decline"}},"state":"st-1"}`
	if got := answerText(t, res); got != want {
		t.Errorf("server got\n%s\nwant\n%s", got, want)
	}
}

// Prompts and resources whose server asks for input are answered by the
// handler (they cannot suspend); without one they fail clearly.
func TestInputRoundsForPromptsAndResources(t *testing.T) {
	sc := inMemory(roundsServer())
	sc.ElicitationHandler = func(_ context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
		if req.Message == "Your name?" {
			return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"name": "Ada"}}, nil
		}
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"seat": "4D"}}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	pr, err := c.GetPrompt(ctxT(t), "s", "greet", nil)
	if err != nil || len(pr.Messages) != 1 || pr.Messages[0].Content.(*mcp.TextContent).Text != "Hello Ada" {
		t.Errorf("prompt: %+v, %v", pr, err)
	}
	rr, err := c.ReadResource(ctxT(t), "s", "file:///secret")
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "4D/veg" {
		t.Errorf("resource: %+v, %v", rr, err)
	}

	bad := inMemory(roundsServer())
	bad.ElicitationHandler = func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) {
		return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"seat": "1"}}, nil
	}
	c3 := newClient(t, Config{Servers: map[string]ServerConfig{"s": bad}})
	if _, err := c3.ReadResource(ctxT(t), "s", "file:///secret"); err == nil || !strings.Contains(err.Error(), "does not match the requested schema") {
		t.Errorf("a handler's answer outside the schema: %v", err)
	}

	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(roundsServer())}})
	if _, err := c2.GetPrompt(ctxT(t), "s", "greet", nil); err == nil || !strings.Contains(err.Error(), "no elicitation handler") {
		t.Errorf("prompt without a handler: %v", err)
	}
	if _, err := c2.ReadResource(ctxT(t), "s", "file:///secret"); err == nil || !strings.Contains(err.Error(), "no elicitation handler") {
		t.Errorf("resource without a handler: %v", err)
	}
}
