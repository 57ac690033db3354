package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// oauthHandler is the auth.OAuthHandler of one server: the MCP SDK's
// handler (authorization code, client credentials, or the configured one),
// with tokens loaded from and saved to the Store, and errors that name the
// server and carry no secret.
type oauthHandler struct {
	cfg    OAuthConfig
	server string
	key    TokenKey
	hc     *http.Client
	logger *slog.Logger

	mu     sync.Mutex
	inner  auth.OAuthHandler // built on the first Authorize (authorization code)
	loaded bool              // the Store was read
	stored *persistingSource // tokens from the Store, until inner has its own
	client *StoredClient     // the registered client from the Store
}

var _ auth.OAuthHandler = (*oauthHandler)(nil)

// newOAuthHandler returns the handler of server name; serverClient is
// the server's HTTPClient.
func newOAuthHandler(name string, cfg *OAuthConfig, serverClient *http.Client, logger *slog.Logger) (*oauthHandler, error) {
	h := &oauthHandler{cfg: *cfg, server: name, key: TokenKey{Server: name, Tenant: cfg.Tenant},
		hc: cfg.oauthHTTPClient(serverClient), logger: logger}
	switch {
	case cfg.Handler != nil:
		h.inner = cfg.Handler
	case cfg.Enterprise != nil:
		h.inner = &enterpriseHandler{cfg: *cfg.Enterprise, clientID: cfg.ClientID, secret: cfg.ClientSecret, hc: h.hc}
	case cfg.ClientCredentials && cfg.ClientAssertionKey != nil:
		h.inner = &jwtHandler{clientID: cfg.ClientID, key: cfg.ClientAssertionKey, hc: h.hc}
	case cfg.ClientCredentials:
		inner, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: cfg.ClientID,
				ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: cfg.ClientSecret}},
			HTTPClient: h.hc,
		})
		if err != nil {
			return nil, fmt.Errorf("mcpclient: server %q: OAuth: %w", name, err)
		}
		h.inner = inner
	}
	return h, nil
}

// TokenSource is the SDK handler's token source once it authorized, else
// the stored tokens' (read from the Store on the first call).
func (h *oauthHandler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inner != nil {
		ts, err := h.inner.TokenSource(ctx)
		if err != nil || ts != nil {
			return ts, err
		}
	}
	if !h.loaded && h.cfg.Store != nil {
		t, err := h.cfg.Store.Load(ctx, h.key)
		switch {
		case err == nil:
			h.loaded = true
			h.client = &t.Client
			h.stored = h.persisting(t.Client, t.Token)
		case errors.Is(err, ErrNoTokens):
			h.loaded = true
		default:
			return nil, err
		}
	}
	if h.stored == nil {
		return nil, nil // an untyped nil: no token yet
	}
	return h.stored, nil
}

// Authorize runs the SDK handler's flow for the failed request and
// rewords its errors (see oauthError).
func (h *oauthHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	inner, err := h.handler()
	if err != nil {
		resp.Body.Close()
		return err
	}
	if err := inner.Authorize(ctx, req, resp); err != nil {
		return h.oauthError("authorizing", err)
	}
	return nil
}

// handler returns the SDK handler, making the authorization-code one on
// first use: it reuses the client registered earlier (from the Store)
// unless a client is configured.
func (h *oauthHandler) handler() (auth.OAuthHandler, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.inner != nil {
		return h.inner, nil
	}
	c := &h.cfg
	fetch := c.Authorize
	if fetch == nil {
		fetch = func(context.Context, *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			return nil, fmt.Errorf("%w by server %q and no Authorize function is configured", ErrAuthorizationRequired, h.server)
		}
	}
	redirect := c.RedirectURL
	if redirect == "" {
		// Never visited: fetch fails before any redirect.
		redirect = "http://127.0.0.1/unused"
	}
	grants := []string{"authorization_code", "refresh_token"}
	if c.NoRefreshToken {
		grants = grants[:1]
	}
	name := c.ClientName
	if name == "" {
		name = "gomastra"
	}
	ac := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetch,
		RequestRefreshToken:      !c.NoRefreshToken,
		Client:                   h.hc,
		NewTokenSource:           h.newTokenSource,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirect}, ClientName: name, GrantTypes: grants},
		},
	}
	if c.ClientMetadataURL != "" {
		ac.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: c.ClientMetadataURL}
	}
	switch {
	case c.ClientID != "":
		ac.PreregisteredClient = &oauthex.ClientCredentials{ClientID: c.ClientID}
		if c.ClientSecret != "" {
			ac.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: c.ClientSecret}
		}
	case h.client != nil && h.client.ClientID != "" && h.client.RedirectURL == redirect:
		ac.PreregisteredClient = &oauthex.ClientCredentials{ClientID: h.client.ClientID}
		if h.client.ClientSecret != "" {
			ac.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: h.client.ClientSecret}
		}
	}
	inner, err := auth.NewAuthorizationCodeHandler(ac)
	if err != nil {
		return nil, fmt.Errorf("mcpclient: server %q: OAuth: %w", h.server, err)
	}
	h.inner = inner
	return inner, nil
}

// newTokenSource saves the tokens the SDK handler just obtained, with the
// client they were issued to, and refreshes them through a
// persistingSource.
func (h *oauthHandler) newTokenSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	client := StoredClient{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		TokenURL: cfg.Endpoint.TokenURL, AuthStyle: cfg.Endpoint.AuthStyle, RedirectURL: cfg.RedirectURL}
	h.save(ctx, client, tok)
	p := &persistingSource{h: h, client: client, last: tok.AccessToken, noRefresh: tok.RefreshToken == "",
		base: cfg.TokenSource(ctx, tok)}
	return p, nil
}

// persisting is a token source refreshing tok with client.
func (h *oauthHandler) persisting(client StoredClient, tok *oauth2.Token) *persistingSource {
	cfg := &oauth2.Config{ClientID: client.ClientID, ClientSecret: client.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: client.TokenURL, AuthStyle: client.AuthStyle}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, h.hc)
	return &persistingSource{h: h, client: client, last: tok.AccessToken, noRefresh: tok.RefreshToken == "",
		base: cfg.TokenSource(ctx, tok)}
}

// save stores tok; a failure is logged (the tokens still work for now).
func (h *oauthHandler) save(ctx context.Context, client StoredClient, tok *oauth2.Token) {
	if h.cfg.Store == nil {
		return
	}
	if err := h.cfg.Store.Save(ctx, h.key, &StoredTokens{Token: tok, Client: client, Saved: time.Now()}); err != nil {
		h.logger.Warn("could not save OAuth tokens", "server", h.server, "error", err)
	}
}

// refreshFailed handles a failed refresh: a rejected refresh token
// (invalid_grant) deletes the stored tokens and asks for
// re-authorization.
func (h *oauthHandler) refreshFailed(p *persistingSource, err error) error {
	var re *oauth2.RetrieveError
	expired := p.noRefresh && !errors.As(err, &re)
	if expired {
		// What the transport takes as "authorize again".
		re = &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "no refresh token"}
	} else if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		return h.oauthError("refreshing the access token", err)
	}
	h.mu.Lock()
	if h.stored == p {
		h.stored = nil
	}
	h.mu.Unlock()
	if h.cfg.Store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), h.hc.Timeout)
		defer cancel()
		if derr := h.cfg.Store.Delete(ctx, h.key); derr != nil {
			h.logger.Warn("could not delete rejected OAuth tokens", "server", h.server, "error", derr)
		}
	}
	return &reauthError{server: h.server, cause: re, expired: expired}
}
