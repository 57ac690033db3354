package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// seatSchema is the form the test servers ask for: a required seat, and a
// meal with a default (SEP-1034).
var seatSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"seat": map[string]any{"type": "string", "minLength": 2},
		"meal": map[string]any{"type": "string", "enum": []any{"veg", "fish"}, "default": "veg"},
	},
	"required": []any{"seat"},
}

// classicVersions makes an SDK server speak a revision where a tool sends
// elicitation/create in flight; nil lets it use multi-round-trip input
// requests (2026-07-28).
var classicVersions = []string{"2025-11-25"}

// elicitingServer has a tool "book" that asks for a seat and answers with
// the elicitation result as JSON text (or an isError result saying why it
// has none).
func elicitingServer(versions []string) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "eliciting", Version: "1.0.0"},
		&mcp.ServerOptions{SupportedProtocolVersions: versions})
	ask := &mcp.ElicitParams{Message: "Which seat?", RequestedSchema: seatSchema}
	mcp.AddTool(srv, &mcp.Tool{Name: "book", Description: "Books a seat"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			var res *mcp.ElicitResult
			if versions == nil {
				r, ok := req.Params.InputResponses["seat"]
				if !ok {
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"seat": ask}, RequestState: "s1"}, nil, nil
				}
				res, _ = r.(*mcp.ElicitResult)
			} else {
				var err error
				if res, err = req.Session.Elicit(ctx, ask); err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no answer: " + err.Error()}}}, nil, nil
				}
			}
			b, _ := json.Marshal(res)
			return textResult(string(b)), nil, nil
		})
	return srv
}

// bookTool lists the "book" tool of a client's server "s".
func bookTool(t *testing.T, c *Client) *tools.Tool {
	t.Helper()
	set, err := c.ServerTools(ctxT(t), "s")
	if err != nil {
		t.Fatal(err)
	}
	return set["book"]
}

// answerText is the text a result of "book" carries.
func answerText(t *testing.T, res *tools.Result) string {
	t.Helper()
	r, ok := res.Output.(*mcp.CallToolResult)
	if !ok {
		t.Fatalf("output %T %+v", res.Output, res.Output)
	}
	return contentText(r.Content)
}

// An application handler answers, on both protocol styles: it sees the
// request and the tool, and the SDK adds the schema's defaults to the
// accepted content.
func TestElicitationHandlerAnswers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"classic", classicVersions}, {"multi-round-trip", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var seen *ElicitationRequest
			sc := inMemory(elicitingServer(tc.versions))
			sc.ElicitationHandler = func(_ context.Context, req *ElicitationRequest) (*ElicitationResponse, error) {
				seen = req
				return &ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"seat": "12A"}}, nil
			}
			c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
			res, err := bookTool(t, c).Execute(ctxT(t), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := answerText(t, res), `{"action":"accept","content":{"meal":"veg","seat":"12A"}}`; got != want {
				t.Errorf("server got %s, want %s", got, want)
			}
			if seen == nil || seen.Server != "s" || seen.Tool != "book" || seen.Message != "Which seat?" || seen.Mode != "form" ||
				seen.RequestedSchema["required"] == nil {
				t.Errorf("handler saw %+v", seen)
			}
		})
	}
}

// Decline and cancel reach the server as they are; an answer that fails
// the requested schema, or a bad action, is an error to the server.
func TestElicitationHandlerDeclineCancelAndBadAnswers(t *testing.T) {
	answers := []struct {
		resp *ElicitationResponse
		want string
	}{
		{&ElicitationResponse{Action: ElicitationDecline}, `{"action":"decline"}`},
		{&ElicitationResponse{Action: ElicitationCancel}, `{"action":"cancel"}`},
		{&ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"seat": "1"}}, "no answer: "},
		{&ElicitationResponse{Action: ElicitationAccept, Content: map[string]any{"meal": "fish"}}, "no answer: "},
		{&ElicitationResponse{Action: "maybe"}, "no answer: "},
		{&ElicitationResponse{Action: ElicitationDecline, Content: map[string]any{"seat": "1A"}}, "no answer: "},
	}
	for _, a := range answers {
		sc := inMemory(elicitingServer(classicVersions))
		sc.ElicitationHandler = func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) { return a.resp, nil }
		sc.OnToolError = ToolErrorReturn
		c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
		res, err := bookTool(t, c).Execute(ctxT(t), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := answerText(t, res); !strings.HasPrefix(got, a.want) {
			t.Errorf("answer %+v: server got %q, want prefix %q", a.resp, got, a.want)
		}
	}
}

// A client configured with DisableElicitation does not declare the
// capability; a server that elicits anyway gets an error from the client.
func TestElicitationUndeclaredCapability(t *testing.T) {
	sc := inMemory(elicitingServer(classicVersions))
	sc.DisableElicitation = true
	sc.OnToolError = ToolErrorReturn
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	res, err := bookTool(t, c).Execute(ctxT(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := answerText(t, res); !strings.Contains(got, "does not support elicitation") {
		t.Errorf("server got %q", got)
	}
	if err := c.OnElicitationRequest("s", func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) { return nil, nil }); err == nil {
		t.Error("OnElicitationRequest on a server with DisableElicitation succeeded")
	}

	// A raw server that sends elicitation/create though the client did not
	// declare the capability: the client's SDK refuses it.
	raw := newRawElicitingServer(t)
	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"raw": {NewTransport: raw.transport, DisableElicitation: true}}})
	set, err := c2.ServerTools(ctxT(t), "raw")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set["ask"].Execute(ctxT(t), nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := <-raw.elicitAnswer; !strings.Contains(got, `"error"`) || !strings.Contains(got, "client does not support elicitation") {
		t.Errorf("the client answered the raw server's elicitation/create with %s", got)
	}
}

// A handler registered at run time wins over suspension and over the
// configured handler; nil goes back to the configured one.
func TestOnElicitationRequestReplacesHandler(t *testing.T) {
	sc := inMemory(elicitingServer(classicVersions))
	sc.ElicitationHandler = func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) {
		return &ElicitationResponse{Action: ElicitationDecline}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	if err := c.OnElicitationRequest("s", func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) {
		return &ElicitationResponse{Action: ElicitationCancel}, nil
	}); err != nil {
		t.Fatal(err)
	}
	book := bookTool(t, c)
	res, err := book.Execute(ctxT(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := answerText(t, res); got != `{"action":"cancel"}` {
		t.Errorf("with the run-time handler the server got %s", got)
	}
	if err := c.OnElicitationRequest("s", nil); err != nil {
		t.Fatal(err)
	}
	res, err = book.Execute(ctxT(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := answerText(t, res); got != `{"action":"decline"}` {
		t.Errorf("back to the configured handler the server got %s", got)
	}
	if err := c.OnElicitationRequest("nope", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
}

func TestElicitationConfigChecks(t *testing.T) {
	h := func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) { return nil, nil }
	for _, sc := range []ServerConfig{
		{URL: "http://127.0.0.1:1/mcp", DisableElicitation: true, ElicitationHandler: h},
		{URL: "http://127.0.0.1:1/mcp", ElicitationTimeout: -1},
		{URL: "http://127.0.0.1:1/mcp", MaxSuspendedElicitations: -1},
	} {
		if _, err := New(Config{Servers: map[string]ServerConfig{"s": sc}}); err == nil {
			t.Errorf("New accepted %+v", sc)
		}
	}
}

// An accepted answer with no content at all still gets the requested
// schema's defaults (SEP-1034), from a handler and from a resume.
func TestElicitationAcceptEmptyGetsDefaults(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "defaults", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: classicVersions})
	mcp.AddTool(srv, &mcp.Tool{Name: "book"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "OK?", RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"n": map[string]any{"type": "integer", "default": 30}, "ok": map[string]any{"type": "boolean", "default": true}},
		}})
		if err != nil {
			return nil, nil, err
		}
		b, _ := json.Marshal(res)
		return textResult(string(b)), nil, nil
	})
	const want = `{"action":"accept","content":{"n":30,"ok":true}}`
	sc := inMemory(srv)
	sc.ElicitationHandler = func(context.Context, *ElicitationRequest) (*ElicitationResponse, error) {
		return &ElicitationResponse{Action: ElicitationAccept}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"s": sc}})
	res, err := bookTool(t, c).Execute(ctxT(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := answerText(t, res); got != want {
		t.Errorf("handler: server got %s, want %s", got, want)
	}
	c2 := newClient(t, Config{Servers: map[string]ServerConfig{"s": inMemory(srv)}})
	book := bookTool(t, c2)
	sus, _ := suspendOnce(t, book, "c1")
	if got := answerText(t, resume(t, book, "c1", sus, `{"action":"accept"}`)); got != want {
		t.Errorf("resume: server got %s, want %s", got, want)
	}
}
