package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/oauthtest"
	"github.com/gomastra/mastra/mcpserver/interop/peer"
	"github.com/gomastra/mastra/server"
)

// The official TypeScript SDK client, with its OAuthClientProvider,
// reaches an OAuth-protected server in the API server (whose own
// BearerToken guards everything else): 401, protected resource metadata,
// authorization server metadata, dynamic registration (each client
// authentication method), authorization code with PKCE and the RFC 8707
// resource, a tool call that sees the user, and a refresh with rotation.
// The authorization server is oauthtest on 127.0.0.1; the script refuses
// any other host.
func TestInteropTypeScriptOAuthClient(t *testing.T) {
	p := peer.Find(t)
	for _, method := range []string{oauthtest.AuthNone, oauthtest.AuthClientSecretBasic, oauthtest.AuthClientSecretPost} {
		t.Run(method, func(t *testing.T) {
			as := oauthtest.New(t, oauthtest.Options{Subject: "alice", Scopes: []string{"mcp:tools", "mcp:read"}, RequireResource: true})
			var resource string
			serveWith(t, func(base string) http.Handler {
				resource = base + "/api/mcp/who/mcp"
				cfg := whoamiConfig("who")
				cfg.OAuth = &OAuthOptions{Resource: resource, AuthorizationServers: []string{as.Issuer},
					ScopesSupported: []string{"mcp:tools", "mcp:read"}, RequiredScopes: []string{"mcp:tools"},
					ValidateToken: IntrospectionValidator(as.Issuer+"/introspect", IntrospectionOptions{})}
				s, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = s.Close() })
				return server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{
					BearerToken: "app-secret", Routes: Routes(s), Logger: discardLogger()})
			})

			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := p.Command(ctx, "client-oauth.mjs", "--http", resource, "--auth", method)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var rep clientReport
			if jerr := json.Unmarshal(bytes.TrimSpace(out), &rep); jerr != nil {
				t.Fatalf("client-oauth.mjs: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
			}
			for _, c := range rep.Checks {
				if !c.OK {
					t.Errorf("%s: %s", c.Name, c.Detail)
				}
			}
			if len(rep.Checks) != 5 {
				t.Errorf("%d checks ran, want 5", len(rep.Checks))
			}
			if err != nil && rep.Failed == 0 {
				t.Errorf("client-oauth.mjs exited with %v\nstderr: %s", err, stderr.String())
			}
			if as.Requests("register") != 1 || as.Requests("token") != 2 || as.Requests("introspect") < 2 {
				t.Errorf("authorization server saw register=%d token=%d introspect=%d", as.Requests("register"), as.Requests("token"), as.Requests("introspect"))
			}
			t.Logf("%s (%s): %d checks passed, %d failed", rep.Client, method, rep.Passed, rep.Failed)
		})
	}
}
