package mcpclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/gomastra/mastra/internal/oauthtest"
)

// protectedServer is an MCP server on 127.0.0.1 that requires access
// tokens of an oauthtest authorization server, advertising it in its
// protected-resource metadata; its whoami tool answers the token's
// subject.
type protectedServer struct {
	URL string
	as  *oauthtest.Server
	// prm answers the protected-resource metadata (replaceable).
	mu  sync.Mutex
	prm http.Handler
}

func newProtectedServer(t *testing.T, as *oauthtest.Server) *protectedServer {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return textResult(req.Extra.TokenInfo.UserID), nil, nil
	})
	// Sessions whose client could not say goodbye (its DELETE was refused
	// for want of a valid token) end with the test.
	t.Cleanup(func() {
		for ss := range srv.Sessions() {
			ss.Close()
		}
	})
	p := &protectedServer{as: as}
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	p.URL = ts.URL + "/mcp"
	prmURL := ts.URL + "/.well-known/oauth-protected-resource/mcp"
	p.prm = auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: p.URL, AuthorizationServers: []string{as.Issuer}, ScopesSupported: []string{"mcp"}})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		h := p.prm
		p.mu.Unlock()
		h.ServeHTTP(w, r)
	})
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		info, err := as.Verify(tok)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
		}
		return &auth.TokenInfo{UserID: info.Subject, Scopes: info.Scopes, Expiration: info.Expiry}, nil
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: prmURL})(h))
	return p
}

// bearerServer is an MCP server on 127.0.0.1 with an echo tool that
// accepts only the access token token, advertising the authorization
// server at asURL in its protected-resource metadata; it returns the
// server's URL.
func bearerServer(t *testing.T, asURL, token string) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcpAddEcho(srv, "echo")
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	resource := ts.URL + "/mcp"
	mux.Handle("/.well-known/oauth-protected-resource/mcp", textHandler(`{"resource":"`+resource+`","authorization_servers":["`+asURL+`"]}`))
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	return resource
}

// setPRM replaces the protected-resource metadata handler.
func (p *protectedServer) setPRM(h http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prm = h
}

// browser plays the user for a LocalCallback: it approves at the
// authorization server and follows the redirect to the callback,
// remembering the codes it saw.
type browser struct {
	as    *oauthtest.Server
	mu    sync.Mutex
	codes []string
	opens int
}

func (b *browser) open(ctx context.Context, authURL string) error {
	redirect, err := b.as.Authorize(ctx, authURL)
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.opens++
	b.codes = append(b.codes, redirect.Query().Get("code"))
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, redirect.String(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (b *browser) opened() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.opens
}

// oauthClient is a Client of p's server "srv" authorizing through a
// LocalCallback driven by b.
func oauthClient(t *testing.T, p *protectedServer, b *browser, store TokenStore, logs *logRecorder) *Client {
	t.Helper()
	cb, err := NewLocalCallback(LocalCallbackOptions{Open: b.open})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cb.Close() })
	return newClient(t, Config{Logger: logs.logger(), Servers: map[string]ServerConfig{"srv": {
		URL: p.URL, ConnectTimeout: ctxTimeout,
		OAuth: &OAuthConfig{Authorize: cb.Authorize, RedirectURL: cb.RedirectURL(), Store: store},
	}}})
}

// ctxTimeout bounds connecting in these tests, OAuth flow included.
const ctxTimeout = 30 * time.Second

// whoami calls the whoami tool of server "srv".
func whoami(ctx context.Context, c *Client) (string, error) {
	set, err := c.ServerTools(ctx, "srv")
	if err != nil {
		return "", err
	}
	tool, ok := set["whoami"]
	if !ok {
		return "", fmt.Errorf("no whoami tool in %v", set)
	}
	res, err := tool.Execute(ctx, []byte(`{}`), nil)
	if err != nil {
		return "", err
	}
	out, err := res.JSON()
	return string(out), err
}

// textHandler answers body as JSON.
func textHandler(body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	})
}

// newTextServer answers body to every request; it returns its URL.
func newTextServer(t *testing.T, body string) string {
	ts := httptest.NewServer(textHandler(body))
	t.Cleanup(ts.Close)
	return ts.URL
}
