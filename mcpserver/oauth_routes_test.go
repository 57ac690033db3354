package mcpserver

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/oauthtest"
	"github.com/gomastra/mastra/server"
)

// In the API server, an OAuth-protected MCP server checks its own tokens
// (the app's BearerToken does not apply to its transport), its metadata
// is public at the RFC 9728 path, and browsers may read the challenge;
// every other route keeps the app's authentication.
func TestOAuthRoutesInAPIServer(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{})
	var resource string
	ts := serveWith(t, func(base string) http.Handler {
		resource = base + "/api/mcp/who/mcp"
		cfg := whoamiConfig("who")
		cfg.OAuth = &OAuthOptions{Resource: resource, AuthorizationServers: []string{as.Issuer},
			ValidateToken: IntrospectionValidator(as.Issuer+"/introspect", IntrospectionOptions{})}
		protected, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = protected.Close() })
		plain := whoamiServer(t, "plain")
		return server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{
			BearerToken: "app-secret", Routes: Routes(protected, plain), Logger: discardLogger()})
	})
	alice := as.IssueToken("alice", resource, 0)

	for _, path := range []string{"/.well-known/oauth-protected-resource/api/mcp/who/mcp", "/.well-known/oauth-protected-resource"} {
		if status, body := do(t, ts, "GET", path, "", ""); status != 200 || !strings.Contains(body, `"resource":"`+resource+`"`) {
			t.Errorf("GET %s: %d %s", path, status, body)
		}
	}
	resp, _ := post(t, resource, "")
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `resource_metadata="`+ts.URL+`/.well-known/oauth-protected-resource/api/mcp/who/mcp"`) ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("no token: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, body := post(t, resource, "app-secret"); resp.StatusCode != 401 || body["error"] != "invalid_token" {
		t.Errorf("the app's token on the OAuth transport: %d %v", resp.StatusCode, body)
	}
	client := &http.Client{Transport: bearer{alice, http.DefaultTransport}}
	cs, err := newClient(clientOptions{}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: resource, HTTPClient: client, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"}); err != nil || res.Content[0].(*mcp.TextContent).Text != "resource=alice" {
		t.Errorf("whoami: %v %+v", err, res)
	}
	// Everything else is the app's, unchanged.
	if resp, _ := post(t, ts.URL+"/api/mcp/plain/mcp", alice); resp.StatusCode != 401 {
		t.Errorf("OAuth token on a plain server: %d", resp.StatusCode)
	}
	if resp, _ := post(t, ts.URL+"/api/mcp/plain/mcp", "app-secret"); resp.StatusCode != 200 {
		t.Errorf("app token on a plain server: %d", resp.StatusCode)
	}
	for _, path := range []string{"/api/mcp/v0/servers", "/api/mcp/who/tools"} {
		if status, _ := do(t, ts, "GET", path, "", alice); status != 401 {
			t.Errorf("GET %s with an OAuth token: %d", path, status)
		}
	}
}

// Two protected servers each get their metadata; the bare well-known
// path is ambiguous and not served.
func TestOAuthRoutesTwoServers(t *testing.T) {
	var list []*Server
	for _, id := range []string{"a", "b"} {
		cfg := whoamiConfig(id)
		cfg.OAuth = &OAuthOptions{Resource: "http://127.0.0.1:1/api/mcp/" + id + "/mcp", AuthorizationServers: []string{"http://127.0.0.1:2"},
			ValidateToken: func(context.Context, string, string) (*TokenInfo, error) { return nil, ErrInvalidToken }}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		list = append(list, s)
	}
	ts := apiServer(t, Routes(list...), "")
	for _, c := range []struct {
		path, token string
		status      int
	}{
		{"/.well-known/oauth-protected-resource/api/mcp/a/mcp", "nobody", 200},
		{"/.well-known/oauth-protected-resource/api/mcp/b/mcp", "nobody", 200},
		{"/.well-known/oauth-protected-resource", "", 404},
	} {
		if status, body := do(t, ts, "GET", c.path, "", c.token); status != c.status {
			t.Errorf("GET %s: %d %s", c.path, status, body)
		}
	}
}
