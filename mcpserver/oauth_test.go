package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/internal/oauthtest"
	"github.com/gomastra/mastra/tools"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// oauthFixture is a whoami server behind OAuth at <ts>/mcp, its
// authorization server, and everything it logged.
type oauthFixture struct {
	as     *oauthtest.Server
	srv    *Server
	url    string // the MCP endpoint, also OAuth.Resource
	origin string
	logs   *syncBuffer
}

// newOAuthFixture serves a whoami server whose tokens are checked by
// introspection at a test authorization server; edit adjusts its
// config.
func newOAuthFixture(t *testing.T, edit func(*Config)) *oauthFixture {
	t.Helper()
	f := &oauthFixture{as: oauthtest.New(t, oauthtest.Options{}), logs: &syncBuffer{}}
	serveWith(t, func(base string) http.Handler {
		f.origin, f.url = base, base+"/mcp"
		return f.build(t, edit)
	})
	return f
}

// build makes the fixture's server and its handler.
func (f *oauthFixture) build(t *testing.T, edit func(*Config)) http.Handler {
	t.Helper()
	cfg := whoamiConfig("who")
	cfg.Logger = slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg.OAuth = &OAuthOptions{
		Resource:             f.url,
		AuthorizationServers: []string{f.as.Issuer},
		RequiredScopes:       []string{"mcp:tools"},
		ValidateToken:        IntrospectionValidator(f.as.Issuer+"/introspect", IntrospectionOptions{}),
	}
	if edit != nil {
		edit(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	f.srv = s
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler())
	if p := s.ProtectedResourceMetadataPath(); p != "" {
		mux.Handle(p, s.ProtectedResourceMetadataHandler())
	}
	return mux
}

// serveWith serves on 127.0.0.1 the handler build makes for the
// server's base URL (known before it starts).
func serveWith(t testing.TB, build func(base string) http.Handler) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	ts.Config.Handler = build("http://" + ts.Listener.Addr().String())
	ts.Start()
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts
}

// whoamiConfig is whoamiServer's config.
func whoamiConfig(id string) Config {
	return Config{ID: id, Name: "Who " + id, Version: "1", Logger: discardLogger(), RequestStateKey: stateKey, Tools: tools.Set{
		"whoami": tools.New(tools.Config[struct{}, string]{ID: "whoami", Description: "Names the caller's resource",
			Execute: func(ctx tools.Context, _ struct{}) (string, error) {
				v, _ := ctx.RequestContext().Get(tools.ResourceIDKey)
				s, _ := v.(string)
				return "resource=" + s, nil
			}}),
	}}
}

// post sends an initialize request with token (none when empty) and
// extra headers.
func post(t *testing.T, url, token string, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp, m
}

// A request without a usable token is refused with the challenge an MCP
// client discovers the authorization server from; the token never
// reaches the logs.
func TestOAuthRefusals(t *testing.T) {
	f := newOAuthFixture(t, nil)
	prm := `resource_metadata="` + f.origin + `/.well-known/oauth-protected-resource/mcp"`
	expired := f.as.IssueToken("alice", f.url, 0, "mcp:tools")
	f.as.ExpireAccessTokens()
	other := f.as.IssueToken("alice", "http://127.0.0.1:1/mcp", 0, "mcp:tools")
	narrow := f.as.IssueToken("alice", f.url, 0, "mcp:read")
	cases := []struct {
		name, token string
		status      int
		code, auth  string
	}{
		{"no token", "", 401, "unauthorized", `Bearer ` + prm + `, scope="mcp:tools"`},
		{"unknown token", "at-forged-secret", 401, "invalid_token", `Bearer error="invalid_token", error_description="the access token is not valid", ` + prm + `, scope="mcp:tools"`},
		{"expired token", expired, 401, "invalid_token", `Bearer error="invalid_token", error_description="the access token is not valid", ` + prm + `, scope="mcp:tools"`},
		{"wrong audience", other, 401, "invalid_token", `Bearer error="invalid_token", error_description="the access token was issued for another resource", ` + prm + `, scope="mcp:tools"`},
		{"insufficient scope", narrow, 403, "insufficient_scope", `Bearer error="insufficient_scope", error_description="the access token lacks a required scope", ` + prm + `, scope="mcp:tools"`},
	}
	for _, c := range cases {
		resp, body := post(t, f.url, c.token)
		if resp.StatusCode != c.status || body["error"] != c.code || resp.Header.Get("WWW-Authenticate") != c.auth {
			t.Errorf("%s: %d %v\n  WWW-Authenticate: %s\n  want %d %s %s", c.name, resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"), c.status, c.code, c.auth)
		}
	}
	for _, tok := range []string{"at-forged-secret", other, narrow, expired} {
		if strings.Contains(f.logs.String(), tok) {
			t.Errorf("a token reached the logs:\n%s", f.logs.String())
		}
	}
	if !strings.Contains(f.logs.String(), "OAuth refused a request") {
		t.Errorf("refusals were not logged:\n%s", f.logs.String())
	}
}

// A token the validator cannot check (its authorization server is
// failing) is a 500 without a challenge, logged without the token; a
// validator's own expiry is enforced.
func TestOAuthValidatorFailures(t *testing.T) {
	var mu sync.Mutex
	var info *TokenInfo
	var verr error
	f := newOAuthFixture(t, func(c *Config) {
		c.OAuth.ValidateToken = func(ctx context.Context, token, resource string) (*TokenInfo, error) {
			mu.Lock()
			defer mu.Unlock()
			return info, verr
		}
	})
	set := func(i *TokenInfo, err error) { mu.Lock(); info, verr = i, err; mu.Unlock() }
	set(nil, errors.New("introspection endpoint unreachable"))
	resp, body := post(t, f.url, "tok-secret-1")
	if resp.StatusCode != 500 || body["error"] != "server_error" || resp.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("failing validator: %d %v %q", resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"))
	}
	if !strings.Contains(f.logs.String(), "introspection endpoint unreachable") || strings.Contains(f.logs.String(), "tok-secret-1") {
		t.Errorf("logs:\n%s", f.logs.String())
	}
	set(nil, nil)
	if resp, _ := post(t, f.url, "tok-secret-1"); resp.StatusCode != 500 {
		t.Errorf("nil info: %d", resp.StatusCode)
	}
	set(&TokenInfo{Subject: "alice", Scopes: []string{"mcp:tools"}, Expiry: time.Now().Add(-time.Minute)}, nil)
	if resp, body := post(t, f.url, "tok-secret-1"); resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `error_description="the access token expired"`) {
		t.Errorf("expired by Expiry: %d %v %s", resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"))
	}
	set(&TokenInfo{Subject: "alice", Scopes: []string{"mcp:tools"}}, nil)
	if resp, body := post(t, f.url, "tok-secret-1"); resp.StatusCode != 200 {
		t.Errorf("valid without expiry: %d %v", resp.StatusCode, body)
	}
}

// With a valid token the SDK's client works over both protocol eras and
// tools see the token's subject as the resource id; a session belongs to
// its user.
func TestOAuthToolsSeeSubject(t *testing.T) {
	f := newOAuthFixture(t, nil)
	alice := f.as.IssueToken("alice", f.url, 0, "mcp:tools")
	bob := f.as.IssueToken("bob", f.url, 0, "mcp:tools")
	for _, legacy := range []bool{false, true} {
		client := &http.Client{Transport: bearer{alice, http.DefaultTransport}}
		cs, err := newClient(clientOptions{legacy: legacy}).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: f.url, HTTPClient: client, MaxRetries: -1}, sessionOptions(clientOptions{legacy: legacy}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "resource=alice" {
			t.Errorf("legacy=%v: %v %+v", legacy, err, res)
		}
		if legacy {
			resp, _ := post(t, f.url, bob, "Mcp-Session-Id", cs.ID())
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("alice's session used by bob: %d", resp.StatusCode)
			}
		}
		_ = cs.Close()
	}
}

// The metadata document names the resource, its authorization server
// and scopes (Mastra's defaults when unset).
func TestProtectedResourceMetadata(t *testing.T) {
	f := newOAuthFixture(t, nil)
	resp, err := http.Get(f.origin + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	want := `map[authorization_servers:[` + f.as.Issuer + `] bearer_methods_supported:[header] resource:` + f.url + ` scopes_supported:[mcp:read mcp:write]]`
	if got := fmt.Sprint(m); got != want || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("metadata %s\nwant     %s", got, want)
	}
	plain := whoamiServer(t, "plain")
	if plain.ProtectedResourceMetadataHandler() != nil || plain.ProtectedResourceMetadataPath() != "" {
		t.Error("a server without OAuth has metadata")
	}
}

// An invalid OAuth config fails New, and never serves an unprotected
// transport: a config made invalid after New (OAuthOptions is a pointer)
// makes the transport refuse every request.
func TestOAuthMisconfiguredFailsClosed(t *testing.T) {
	for name, edit := range map[string]func(*OAuthOptions){
		"no resource":      func(o *OAuthOptions) { o.Resource = "" },
		"relative":         func(o *OAuthOptions) { o.Resource = "/mcp" },
		"fragment":         func(o *OAuthOptions) { o.Resource += "#x" },
		"no auth server":   func(o *OAuthOptions) { o.AuthorizationServers = nil },
		"bad auth server":  func(o *OAuthOptions) { o.AuthorizationServers = []string{"issuer"} },
		"no validate func": func(o *OAuthOptions) { o.ValidateToken = nil },
	} {
		logs := &syncBuffer{}
		cfg := whoamiConfig("who")
		cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
		cfg.OAuth = &OAuthOptions{
			Resource:             "http://127.0.0.1:1/mcp",
			AuthorizationServers: []string{"http://127.0.0.1:2"},
			ValidateToken:        func(context.Context, string, string) (*TokenInfo, error) { return nil, ErrInvalidToken },
		}
		broken := *cfg.OAuth
		edit(&broken)
		invalid := cfg
		invalid.OAuth = &broken
		if _, err := New(invalid); err == nil || !strings.Contains(err.Error(), "OAuth") {
			t.Errorf("%s: New: %v", name, err)
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		edit(cfg.OAuth) // after New, before the transport is made
		rec := httptest.NewRecorder()
		s.HTTPHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("anything")))
		if rec.Code != 500 {
			t.Errorf("%s: %d", name, rec.Code)
		}
		if !strings.Contains(logs.String(), "Config.OAuth is invalid") {
			t.Errorf("%s: not logged:\n%s", name, logs.String())
		}
		_ = s.Close()
	}
}

// syncBuffer is a bytes.Buffer for concurrent log writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
