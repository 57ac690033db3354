package mcpclient

import (
	"crypto"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// DefaultOAuthRequestTimeout bounds each request to an authorization
// server (metadata, registration, token exchange and refresh) when
// OAuthConfig.RequestTimeout is zero.
const DefaultOAuthRequestTimeout = 30 * time.Second

// OAuthConfig authorizes a URL server with OAuth 2.1 (Mastra's
// authProvider / MCPOAuthClientProvider). When the server answers 401 (or
// 403 insufficient_scope), the client discovers the protected-resource and
// authorization-server metadata, registers itself (a client id metadata
// document, a pre-registered client or dynamic registration, in that
// order), runs the authorization-code flow with PKCE through Authorize,
// and retries with the token; tokens are refreshed as they expire. With a
// Store, tokens and the registered client survive restarts.
//
// Exactly one mode applies: Handler (any OAuth handler of the MCP SDK),
// ClientCredentials (the client-credentials grant for service accounts: no
// user, no Store), Enterprise (enterprise-managed authorization), or the
// authorization-code flow.
type OAuthConfig struct {
	// Authorize sends the user to the authorization URL and returns the
	// code, state and issuer the authorization server redirected back with
	// to RedirectURL, blocking meanwhile (the request waits; with Authorize
	// set, ConnectTimeout defaults to DefaultCallbackTimeout).
	// LocalCallback.Authorize does it for CLIs; a web app implements it
	// itself. When nil, a server that needs authorization
	// fails with an error wrapping ErrAuthorizationRequired (tokens must
	// then come from Store).
	Authorize auth.AuthorizationCodeFetcher
	// RedirectURL is where the authorization server sends the user back
	// (LocalCallback.RedirectURL for CLIs). Required for the
	// authorization-code flow.
	RedirectURL string

	// ClientID and ClientSecret are a pre-registered client (the secret is
	// empty for a public client). ClientMetadataURL is this client's id
	// metadata document (an https URL with a path), used when the
	// authorization server supports it. Without either, the client
	// registers dynamically as ClientName (default "gomastra").
	ClientID          string
	ClientSecret      string
	ClientMetadataURL string
	ClientName        string
	// ClientCredentials uses the client-credentials grant with ClientID
	// and ClientSecret instead of the authorization-code flow; with
	// ClientAssertionKey instead of ClientSecret, the client authenticates
	// with a JWT signed by that key (private_key_jwt: ES256 for a P-256
	// *ecdsa.PrivateKey, RS256 for an RSA crypto.Signer).
	ClientCredentials  bool
	ClientAssertionKey crypto.Signer

	// NoRefreshToken stops asking for refresh tokens (the offline_access
	// scope and the refresh_token grant type). Set it when tokens cannot
	// be kept safely.
	NoRefreshToken bool

	// Store keeps tokens and the registered client under the server's name
	// and Tenant. Optional: without it tokens live as long as the Client.
	Store  TokenStore
	Tenant string

	// HTTPClient makes the requests to the authorization server. Default:
	// the server's HTTPClient, else http.DefaultClient. RequestTimeout
	// bounds each of them (default DefaultOAuthRequestTimeout).
	HTTPClient     *http.Client
	RequestTimeout time.Duration

	// Enterprise, when set, authorizes with the user's identity-provider
	// ID token instead of the authorization-code flow (no Store).
	Enterprise *EnterpriseConfig

	// Handler, when set, replaces all of the above.
	Handler auth.OAuthHandler
}

// ErrAuthorizationRequired is wrapped by the error of a request to a
// server that needs (new) OAuth authorization this client cannot obtain by
// itself: no Authorize function is configured, or the stored refresh
// token was rejected (the stored tokens are then deleted).
var ErrAuthorizationRequired = errors.New("mcpclient: OAuth authorization is required")

// validate checks c for server name; serverClient is the server's
// HTTPClient.
func (c *OAuthConfig) validate(name string) error {
	if c.Handler != nil {
		if c.ClientCredentials || c.Authorize != nil || c.Store != nil || c.ClientID != "" {
			return fmt.Errorf("mcpclient: server %q: OAuth Handler replaces the other OAuth settings; set only it", name)
		}
		return nil
	}
	if c.RequestTimeout < 0 {
		return fmt.Errorf("mcpclient: server %q: OAuth RequestTimeout must not be negative", name)
	}
	if c.Enterprise != nil {
		e := c.Enterprise
		if c.ClientCredentials || c.Authorize != nil || c.Store != nil || c.ClientID == "" ||
			e.IdPIssuerURL == "" || e.IdPClientID == "" || e.IDToken == nil {
			return fmt.Errorf("mcpclient: server %q: OAuth Enterprise needs ClientID, IdPIssuerURL, IdPClientID and IDToken, and takes no ClientCredentials, Authorize or Store", name)
		}
		return nil
	}
	if c.ClientCredentials {
		if c.ClientID == "" || (c.ClientSecret == "") == (c.ClientAssertionKey == nil) {
			return fmt.Errorf("mcpclient: server %q: OAuth ClientCredentials needs ClientID and either ClientSecret or ClientAssertionKey", name)
		}
		if c.ClientAssertionKey != nil {
			if _, err := jwtAlg(c.ClientAssertionKey); err != nil {
				return fmt.Errorf("mcpclient: server %q: OAuth: %w", name, err)
			}
		}
		if c.Authorize != nil || c.Store != nil {
			return fmt.Errorf("mcpclient: server %q: OAuth ClientCredentials takes no Authorize and no Store", name)
		}
		return nil
	}
	if c.ClientAssertionKey != nil {
		return fmt.Errorf("mcpclient: server %q: OAuth ClientAssertionKey applies to ClientCredentials only", name)
	}
	if c.RedirectURL == "" && c.Authorize != nil {
		return fmt.Errorf("mcpclient: server %q: OAuth Authorize needs a RedirectURL", name)
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		return fmt.Errorf("mcpclient: server %q: OAuth ClientSecret needs a ClientID", name)
	}
	return nil
}

// oauthHTTPClient is the client for authorization-server requests, with
// its timeout.
func (c *OAuthConfig) oauthHTTPClient(serverClient *http.Client) *http.Client {
	var hc http.Client
	switch {
	case c.HTTPClient != nil:
		hc = *c.HTTPClient
	case serverClient != nil:
		hc = *serverClient
	}
	if hc.Timeout == 0 {
		hc.Timeout = c.RequestTimeout
		if hc.Timeout == 0 {
			hc.Timeout = DefaultOAuthRequestTimeout
		}
	}
	return &hc
}

// resolveOAuth checks the OAuth and Credentials settings of r and makes
// its OAuth handler.
func resolveOAuth(r *resolved) error {
	if r.kind != kindHTTP && (r.OAuth != nil || r.Credentials != nil) {
		return fmt.Errorf("mcpclient: server %q: OAuth and Credentials apply to URL servers only", r.name)
	}
	if r.OAuth == nil {
		return nil
	}
	if err := r.OAuth.validate(r.name); err != nil {
		return err
	}
	h, err := newOAuthHandler(r.name, r.OAuth, r.HTTPClient, slog.Default())
	if err != nil {
		return err
	}
	r.oauth = h
	if r.OAuth.Authorize != nil && r.ConnectTimeout == 0 {
		// Connecting may wait for a person to authorize.
		r.connectTimeout = DefaultCallbackTimeout
	}
	return nil
}
