// Package oauthtest is an OAuth 2.1 authorization server for tests: an
// httptest server on 127.0.0.1 serving RFC 8414 metadata, RFC 7591
// dynamic client registration, /authorize (PKCE S256 required, RFC 9207
// iss in the redirect), /token (authorization_code with RFC 8707
// resource, refresh_token with rotation; client authentication none,
// client_secret_post and client_secret_basic) and RFC 7662
// introspection. Tokens are opaque; a resource server checks them with
// Verify or the introspection endpoint.
//
// Every check is real: a wrong code_verifier, a reused code, another
// client's code or refresh token, a mismatched redirect_uri or resource
// all fail with the RFC 6749 error a real server gives. Tests steer it
// with SetDecision (approve, deny, wrong state or iss), FailToken and
// FailRegistration (an error status, a malformed body, or a request that
// hangs until the client gives up), and ExpireRefreshTokens,
// RevokeRefreshTokens, ExpireAccessTokens.
package oauthtest

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Options configure New. The zero value is a server that grants any
// requested scope, issues hour-long access tokens and day-long rotating
// refresh tokens, and lets clients register.
type Options struct {
	// Scopes are the scopes_supported; when set, a request for any other
	// scope fails with invalid_scope, and a request naming none is
	// granted all of them.
	Scopes []string
	// Subject is the user /authorize authenticates (default "user-1").
	Subject string
	// AccessTokenTTL is the access tokens' lifetime (default one hour).
	AccessTokenTTL time.Duration
	// RefreshTokenTTL is the refresh tokens' lifetime (default a day).
	RefreshTokenTTL time.Duration
	// NoRefreshTokens issues access tokens only.
	NoRefreshTokens bool
	// DisableRegistration leaves registration_endpoint out of the
	// metadata and answers it 404: clients must be pre-registered with
	// RegisterClient.
	DisableRegistration bool
	// RequireResource makes /authorize and the authorization_code grant
	// fail with invalid_target when the RFC 8707 resource is missing.
	RequireResource bool
	// EditMetadata, when set, edits the metadata document before each
	// answer (drop code_challenge_methods_supported, name another
	// issuer...), for clients' bad-input tests. The endpoints themselves
	// keep working as before.
	EditMetadata func(metadata map[string]any)
}

// Server is a running test authorization server. Its methods are safe
// for concurrent use.
type Server struct {
	// Issuer is the server's base URL, http://127.0.0.1:<port>, which is
	// also its RFC 8414 issuer identifier.
	Issuer string

	opts Options
	http *httptest.Server

	mu       sync.Mutex
	subject  string
	decision Decision
	tokenErr *Failure
	regErr   *Failure
	metaErr  *Failure
	clients  map[string]*Client
	codes    map[string]*grant
	access   map[string]*issued
	refresh  map[string]*issued
	requests map[string]int

	// onRequest, when set (by this package's tests), is told each
	// request's endpoint as it arrives.
	onRequest func(endpoint string)
}

// New starts a server on 127.0.0.1 and closes it when tb's test ends.
func New(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := Start(opts)
	tb.Cleanup(s.Close)
	return s
}

// Start starts a server on 127.0.0.1; the caller closes it. Use New in
// tests; Start is for programs (an example, a harness) without a
// testing.TB.
func Start(opts Options) *Server {
	if opts.Subject == "" {
		opts.Subject = "user-1"
	}
	if opts.AccessTokenTTL <= 0 {
		opts.AccessTokenTTL = time.Hour
	}
	if opts.RefreshTokenTTL <= 0 {
		opts.RefreshTokenTTL = 24 * time.Hour
	}
	s := &Server{
		opts:     opts,
		subject:  opts.Subject,
		clients:  map[string]*Client{},
		codes:    map[string]*grant{},
		access:   map[string]*issued{},
		refresh:  map[string]*issued{},
		requests: map[string]int{},
	}
	s.http = httptest.NewServer(s.routes())
	s.Issuer = s.http.URL
	return s
}

// Close stops the server; requests that hang (FailToken with Hang) end.
func (s *Server) Close() {
	s.http.CloseClientConnections()
	s.http.Close()
}

// MetadataURL is where the RFC 8414 metadata is served.
func (s *Server) MetadataURL() string {
	return s.Issuer + "/.well-known/oauth-authorization-server"
}

// Requests is how many requests endpoint has had: "metadata",
// "register", "authorize", "token" or "introspect".
func (s *Server) Requests(endpoint string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[endpoint]
}

// routes is the server's mux; each handler counts its requests.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	handle := func(pattern, name string, h http.HandlerFunc) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			s.count(name)
			h(w, r)
		})
	}
	handle("GET /.well-known/oauth-authorization-server", "metadata", s.serveMetadata)
	handle("GET /.well-known/openid-configuration", "metadata", s.serveMetadata)
	handle("POST /register", "register", s.serveRegister)
	handle("GET /authorize", "authorize", s.serveAuthorize)
	handle("POST /token", "token", s.serveToken)
	handle("POST /introspect", "introspect", s.serveIntrospect)
	return mux
}

func (s *Server) count(name string) {
	s.mu.Lock()
	s.requests[name]++
	hook := s.onRequest
	s.mu.Unlock()
	if hook != nil {
		hook(name)
	}
}
