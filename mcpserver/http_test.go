package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves h on 127.0.0.1 for the test.
func serveHTTP(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts
}

// connectHTTP connects a Go SDK client over streamable HTTP.
func connectHTTP(t testing.TB, url string, o clientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := newClient(o).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, sessionOptions(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func sessionCount(s *Server) int {
	n := 0
	for range s.MCPServer().Sessions() {
		n++
	}
	return n
}

// Streamable HTTP serves every kind of tool, suspension included, on the
// newest protocol (self-contained requests, no session left behind) and
// on 2025-11-25 (a session, ended by the client's DELETE).
func TestStreamableHTTP(t *testing.T) {
	s := fixtureServer(t)
	ts := serveHTTP(t, s.HTTPHandler())
	for _, legacy := range []bool{false, true} {
		cs := connectHTTP(t, ts.URL, clientOptions{legacy: legacy, elicit: accept(map[string]any{"approved": true})})
		tl, err := cs.ListTools(context.Background(), nil)
		if err != nil || len(tl.Tools) != 11 || tl.Tools[0].Name != "adder" {
			t.Fatalf("legacy=%v list: %v %+v", legacy, err, tl)
		}
		for _, c := range []struct {
			name string
			args any
			want string
		}{
			{"adder", map[string]any{"a": 2, "b": 3}, `{"sum":5}`},
			{"echoText", map[string]any{"text": "hi"}, "hi"},
			{"confirm", map[string]any{"action": "deploy"}, `{"action":"deploy","approved":true,"asked":"Approve deploy?"}`},
			{"nope", nil, "Unknown tool: nope"},
		} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.name, Arguments: c.args})
			if err != nil || res.Content[0].(*mcp.TextContent).Text != c.want {
				t.Errorf("legacy=%v %s: %v %+v", legacy, c.name, err, res)
			}
		}
		for _, name := range []string{"ask_helper", "run_double"} {
			args := map[string]any{"message": "hi"}
			if name == "run_double" {
				args = map[string]any{"n": 1}
			}
			if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args}); err != nil || res.IsError {
				t.Errorf("legacy=%v %s: %v %+v", legacy, name, err, res)
			}
		}
		if legacy && sessionCount(s) != 1 {
			t.Errorf("a 2025-11-25 client has %d sessions", sessionCount(s))
		}
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for sessionCount(s) != 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := sessionCount(s); n != 0 {
			t.Errorf("legacy=%v: %d sessions left", legacy, n)
		}
	}
}

// A 2025-11-25 session: POST initialize gives Mcp-Session-Id, DELETE ends
// it, and the id is then unknown (404).
func TestHTTPSessionLifecycle(t *testing.T) {
	s := fixtureServer(t)
	ts := serveHTTP(t, s.HTTPHandler())
	post := func(body, session string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "")
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize: %d session %q", resp.StatusCode, id)
	}
	if r := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, id); r.StatusCode != http.StatusAccepted {
		t.Errorf("initialized: %d", r.StatusCode)
	}
	req, _ := http.NewRequest("DELETE", ts.URL, nil)
	req.Header.Set("Mcp-Session-Id", id)
	dr, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	dr.Body.Close()
	if dr.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: %d", dr.StatusCode)
	}
	if r := post(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, id); r.StatusCode != http.StatusNotFound {
		t.Errorf("after DELETE: %d", r.StatusCode)
	}
}

// Stateless mode serves only POST; a closed server answers 503.
func TestHTTPStatelessAndClosed(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.HTTP.Stateless = true
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := serveHTTP(t, s.HTTPHandler())
	for _, legacy := range []bool{false, true} {
		cs := connectHTTP(t, ts.URL, clientOptions{legacy: legacy})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "adder", Arguments: map[string]any{"a": 1, "b": 1}})
		if err != nil || res.Content[0].(*mcp.TextContent).Text != `{"sum":2}` {
			t.Errorf("legacy=%v: %v %+v", legacy, err, res)
		}
		_ = cs.Close()
	}
	resp, err := ts.Client().Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", resp.StatusCode)
	}
	_ = s.Close()
	resp, err = ts.Client().Post(ts.URL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("after Close: %d", resp.StatusCode)
	}
}

// Over HTTP, a 2026-07-28 client that gives up on a call (its POST goes
// away) cancels the tool.
func TestHTTPCancellation(t *testing.T) {
	started, stopped := make(chan struct{}, 1), make(chan error, 1)
	s := hangServer(t, started, stopped)
	ts := serveHTTP(t, s.HTTPHandler())
	cs := connectHTTP(t, ts.URL, clientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hang"})
		done <- err
	}()
	waitFor(t, started, "the tool to start")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool: %v", err)
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool was not cancelled")
	}
}
