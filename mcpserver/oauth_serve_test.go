package mcpserver_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gomastra/mastra/internal/oauthtest"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/serve"
)

// An app served by serve.Main with MASTRA_MCP_OAUTH_* set: its MCP
// transport takes OAuth tokens (not the app's -token), its metadata is
// public at the RFC 9728 path, and the rest of the API keeps the app's
// token.
func TestServeOptionOAuthFromEnv(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // the app listens here next; the resource URL needs the port first
	base := "http://" + addr
	resource := base + "/api/mcp/mastra/mcp"
	env := map[string]string{
		mcpserver.EnvOAuthResource:         resource,
		mcpserver.EnvOAuthServers:          as.Issuer,
		mcpserver.EnvOAuthIntrospectionURL: as.Issuer + "/introspect",
		mcpserver.EnvOAuthScopes:           "mcp:tools",
		mcpserver.EnvAllowedHosts:          "127.0.0.1",
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, withMCP(serve.Config{Host: "127.0.0.1", Port: addr[strings.LastIndex(addr, ":")+1:], StorageURL: ":memory:", NoStudio: true,
			Token: "app-secret", Ready: func(a string) { ready <- a }}),
			func(k string) string { return env[k] }, slog.New(slog.DiscardHandler), addApp)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()

	token := as.IssueToken("alice", resource, 0, "mcp:tools")
	send := func(method, url, token string) (int, string, http.Header) {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if status, body, _ := send("GET", base+"/.well-known/oauth-protected-resource/api/mcp/mastra/mcp", ""); status != 200 || !strings.Contains(body, `"authorization_servers":["`+as.Issuer+`"]`) {
		t.Errorf("metadata: %d %s", status, body)
	}
	if status, _, h := send("POST", resource, "app-secret"); status != 401 || !strings.Contains(h.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("app token on the transport: %d %v", status, h)
	}
	if status, body, _ := send("POST", resource, token); status != 200 || !strings.Contains(body, `"serverInfo":{"name":"mastra"`) {
		t.Errorf("OAuth token: %d %s", status, body)
	}
	if status, _, _ := send("GET", base+"/api/mcp/v0/servers", token); status != 401 {
		t.Errorf("OAuth token on the REST routes: %d", status)
	}
	if status, _, _ := send("GET", base+"/api/mcp/v0/servers", "app-secret"); status != 200 {
		t.Errorf("app token on the REST routes: %d", status)
	}
}

// An incomplete OAuth environment stops the app instead of serving an
// unprotected transport.
func TestServeOptionOAuthEnvIncomplete(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"no introspection": {mcpserver.EnvOAuthResource: "http://127.0.0.1:1/api/mcp/mastra/mcp", mcpserver.EnvOAuthServers: "http://127.0.0.1:2"},
		"no servers":       {mcpserver.EnvOAuthResource: "http://127.0.0.1:1/api/mcp/mastra/mcp", mcpserver.EnvOAuthIntrospectionURL: "http://127.0.0.1:2/introspect"},
		"no resource":      {mcpserver.EnvOAuthServers: "http://127.0.0.1:2", mcpserver.EnvOAuthIntrospectionURL: "http://127.0.0.1:2/introspect"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		started := false
		// Serving at all is the failure: stop at once rather than hang.
		ready := func(string) { started = true; cancel() }
		err := serve.Run(ctx, withMCP(serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: ":memory:", NoStudio: true, Ready: ready}),
			func(k string) string { return env[k] }, slog.New(slog.DiscardHandler), addApp)
		cancel()
		if started || err == nil || !strings.Contains(err.Error(), "OAUTH") && !strings.Contains(err.Error(), "OAuth") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
