package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestCustomRoutesAndStudio(t *testing.T) {
	studio := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "studio "+r.URL.Path)
	})
	chat := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "chat "+r.PathValue("agentId")+" as "+AuthResource(r))
	})
	f := newFixture(t, withOptions(Options{
		Studio: studio,
		Routes: []Route{{Method: "POST", Path: "/chat/{agentId}", Handler: chat}},
		Auth: func(r *http.Request) (string, error) {
			if r.Header.Get("Authorization") != "Bearer ok" {
				return "", http.ErrNoCookie
			}
			return "user-1", nil
		},
	}))
	cases := []struct {
		method, path string
		auth         bool
		status       int
		body         string
	}{
		{"GET", "/", false, 200, "studio /"},
		{"GET", "/agents/weather", false, 200, "studio /agents/weather"},
		{"GET", "/health", false, 200, `{"success":true}`},
		{"GET", "/api/tools", false, 401, `{"error":"Unauthorized"}`},
		{"POST", "/chat/weather", false, 401, `{"error":"Unauthorized"}`},
		{"POST", "/chat/weather", true, 200, "chat weather as user-1"},
		{"POST", "/elsewhere", true, 404, "404 Not Found"},
	}
	for _, c := range cases {
		var hdr []string
		if c.auth {
			hdr = []string{"Authorization", "Bearer ok"}
		}
		resp, body := f.do(t, c.method, c.path, "", hdr...)
		if resp.StatusCode != c.status || string(body) != c.body {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, resp.StatusCode, body, c.status, c.body)
		}
	}
}

// The MCP transport's preflight allows the MCP headers and its answers
// expose the session id; other routes keep Mastra's CORS headers.
func TestCORSForTheMCPTransport(t *testing.T) {
	f := newFixture(t)
	resp, _ := f.do(t, "OPTIONS", "/api/mcp/weather/mcp", "")
	if got := resp.Header.Get("Access-Control-Allow-Headers"); !strings.Contains(got, "Mcp-Session-Id") || !strings.Contains(got, "Mcp-Protocol-Version") {
		t.Errorf("MCP preflight allows %q", got)
	}
	if got := resp.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "Mcp-Session-Id") {
		t.Errorf("MCP exposes %q", got)
	}
	resp, _ = f.do(t, "OPTIONS", "/api/tools", "")
	if got := resp.Header.Get("Access-Control-Allow-Headers"); got != "Content-Type,Authorization,A2A-Version,x-mastra-client-type,x-mastra-dev-playground" {
		t.Errorf("API preflight allows %q", got)
	}
}
