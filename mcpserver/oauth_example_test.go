package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/tools"
)

// An MCP server whose HTTP transport needs OAuth access tokens, mounted
// in the API server with Routes: a request without a token is told
// where the protected resource metadata is, which names the
// authorization server.
func ExampleOAuthOptions() {
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	srv, err := mcpserver.New(mcpserver.Config{
		ID: "weather", Name: "Weather Server", Version: "1.0.0", Logger: quiet,
		Tools: tools.Set{"weather": weatherTool},
		OAuth: &mcpserver.OAuthOptions{
			Resource:             base + "/api/mcp/weather/mcp",
			AuthorizationServers: []string{"https://auth.example.com"},
			RequiredScopes:       []string{"mcp:read"},
			ValidateToken: func(ctx context.Context, token, resource string) (*mcpserver.TokenInfo, error) {
				if token != "token-for-alice" { // check a JWT or ask the authorization server here
					return nil, mcpserver.ErrInvalidToken
				}
				return &mcpserver.TokenInfo{Subject: "alice", Scopes: []string{"mcp:read"}, Audience: []string{resource}}, nil
			},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ts.Config.Handler = server.New(mastra.New(mastra.Config{Logger: quiet}), server.Options{Routes: mcpserver.Routes(srv)})
	ts.Start()
	defer ts.Close()

	resp, err := http.Post(base+"/api/mcp/weather/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.ReplaceAll(resp.Header.Get("WWW-Authenticate"), base, "BASE"))

	resp, err = http.Get(base + srv.ProtectedResourceMetadataPath())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	doc, _ := io.ReadAll(resp.Body)
	fmt.Print(strings.ReplaceAll(string(doc), base, "BASE"))
	// Output:
	// 401 Bearer resource_metadata="BASE/.well-known/oauth-protected-resource/api/mcp/weather/mcp", scope="mcp:read"
	// {"resource":"BASE/api/mcp/weather/mcp","authorization_servers":["https://auth.example.com"],"scopes_supported":["mcp:read","mcp:write"],"bearer_methods_supported":["header"]}
}

// Tokens checked by the authorization server's RFC 7662 introspection
// endpoint, with the resource server's own client credentials.
func ExampleIntrospectionValidator() {
	oauth := &mcpserver.OAuthOptions{
		Resource:             "https://mcp.example.com/api/mcp/weather/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
		ValidateToken: mcpserver.IntrospectionValidator("https://auth.example.com/oauth/introspect",
			mcpserver.IntrospectionOptions{ClientID: "mcp-server", ClientSecret: "from-a-secret-store"}),
	}
	_ = mcpserver.Config{ID: "weather", Name: "Weather Server", Version: "1.0.0", OAuth: oauth}
}

// Outside the API server, mount the transport and the metadata
// document yourself.
func ExampleServer_ProtectedResourceMetadataHandler() {
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Weather Server", Version: "1.0.0", Logger: quiet, Tools: tools.Set{"weather": weatherTool},
		OAuth: &mcpserver.OAuthOptions{
			Resource:             "https://mcp.example.com/mcp",
			AuthorizationServers: []string{"https://auth.example.com"},
			ValidateToken: mcpserver.IntrospectionValidator("https://auth.example.com/oauth/introspect",
				mcpserver.IntrospectionOptions{}),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	mux.Handle(srv.ProtectedResourceMetadataPath(), srv.ProtectedResourceMetadataHandler())
	fmt.Println(srv.ProtectedResourceMetadataPath())
	// Output: /.well-known/oauth-protected-resource/mcp
}

// Only requests naming an allowed Host (and, from browsers, an allowed
// Origin) reach the transport: a DNS-rebinding guard for servers that
// are not on a loopback address.
func ExampleHTTPOptions_allowedHosts() {
	srv, err := mcpserver.New(mcpserver.Config{
		Name: "Weather Server", Version: "1.0.0", Logger: quiet, Tools: tools.Set{"weather": weatherTool},
		HTTP: mcpserver.HTTPOptions{
			AllowedHosts:   []string{"mcp.example.com", "127.0.0.1"},
			AllowedOrigins: []string{"https://app.example.com"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.HTTPHandler())
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{}`))
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output: 403 {"error":{"code":-32000,"message":"Invalid Origin header: https://evil.example"},"id":null,"jsonrpc":"2.0"}
}
