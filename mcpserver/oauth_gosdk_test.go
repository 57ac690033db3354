package mcpserver

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/oauthtest"
	"github.com/gomastra/mastra/server"
)

// The Go SDK's own OAuth client (auth.AuthorizationCodeHandler) finds
// its way through an OAuth-protected server too: discovery from the 401,
// dynamic registration, the code flow with PKCE, then a tool call that
// sees the user.
func TestGoSDKOAuthClient(t *testing.T) {
	for _, method := range []string{oauthtest.AuthNone, oauthtest.AuthClientSecretBasic, oauthtest.AuthClientSecretPost} {
		t.Run(method, func(t *testing.T) {
			as := oauthtest.New(t, oauthtest.Options{Subject: "carol", Scopes: []string{"mcp:tools"}, RequireResource: true})
			var resource string
			serveWith(t, func(base string) http.Handler {
				resource = base + "/api/mcp/who/mcp"
				cfg := whoamiConfig("who")
				cfg.OAuth = &OAuthOptions{Resource: resource, AuthorizationServers: []string{as.Issuer},
					ScopesSupported: []string{"mcp:tools"}, RequiredScopes: []string{"mcp:tools"},
					ValidateToken: IntrospectionValidator(as.Issuer+"/introspect", IntrospectionOptions{})}
				s, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = s.Close() })
				return server.New(mastra.New(mastra.Config{Logger: discardLogger()}), server.Options{Routes: Routes(s), Logger: discardLogger()})
			})
			const callback = "http://127.0.0.1:9/callback"
			h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
				DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
					RedirectURIs: []string{callback}, TokenEndpointAuthMethod: method, ClientName: "go-sdk"}},
				RedirectURL: callback,
				AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
					u, err := as.Authorize(ctx, args.URL)
					if err != nil {
						return nil, err
					}
					q := u.Query()
					return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			cs, err := newClient(clientOptions{}).Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: resource, OAuthHandler: h, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
			if err != nil || res.Content[0].(*mcp.TextContent).Text != "resource=carol" {
				t.Errorf("whoami: %v %+v", err, res)
			}
			if as.Requests("register") != 1 || as.Requests("token") != 1 {
				t.Errorf("register=%d token=%d", as.Requests("register"), as.Requests("token"))
			}
		})
	}
}
