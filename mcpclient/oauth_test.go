package mcpclient

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/gomastra/mastra/internal/oauthtest"
)

// The whole flow against a local authorization server: discovery,
// dynamic registration, the user's approval through the local callback,
// PKCE code exchange; the tokens and the registered client land in the
// file store, and a second client (a restart) uses them without asking
// the user again.
func TestOAuthAuthorizationCodeFlow(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{Scopes: []string{"mcp"}, Subject: "alice"})
	p := newProtectedServer(t, as)
	store := NewFileTokenStore(filepath.Join(t.TempDir(), "tokens.json"))
	b := &browser{as: as}
	logs := &logRecorder{}
	ctx := ctxT(t)

	got, err := whoami(ctx, oauthClient(t, p, b, store, logs))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "alice") || b.opened() != 1 {
		t.Fatalf("whoami = %s after %d authorizations, want alice after 1", got, b.opened())
	}
	saved, err := store.Load(ctx, TokenKey{Server: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if saved.Token.RefreshToken == "" || saved.Client.ClientID == "" || saved.Client.TokenURL != as.Issuer+"/token" {
		t.Fatalf("stored %+v, want a refresh token and the registered client", saved.Client)
	}
	if _, err := as.Verify(saved.Token.AccessToken); err != nil {
		t.Fatalf("stored access token: %v", err)
	}
	info, err := os.Stat(store.path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v (%v), want 0600", info.Mode(), err)
	}

	registrations := as.Requests("register")
	if _, err := whoami(ctx, oauthClient(t, p, b, store, logs)); err != nil {
		t.Fatal(err)
	}
	if b.opened() != 1 || as.Requests("register") != registrations {
		t.Fatalf("the restarted client authorized again (%d) or registered again", b.opened())
	}
	checkNoSecrets(t, logs, nil, saved, b)
}

// An access token that expires is refreshed with the stored refresh
// token, and the new tokens (the refresh token rotates) are saved.
func TestOAuthRefreshSavesTokens(t *testing.T) {
	as, p, store, b := authorizedOnce(t) // tokens refreshed on every use
	ctx := ctxT(t)
	first, err := store.Load(ctx, TokenKey{Server: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	tokens := as.Requests("token")
	if _, err := whoami(ctx, oauthClient(t, p, b, store, &logRecorder{})); err != nil {
		t.Fatal(err)
	}
	now, err := store.Load(ctx, TokenKey{Server: "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if as.Requests("token") == tokens || now.Token.RefreshToken == first.Token.RefreshToken || b.opened() != 1 {
		t.Fatalf("no refresh saved: token requests %d -> %d, refresh token changed %v, authorizations %d",
			tokens, as.Requests("token"), now.Token.RefreshToken != first.Token.RefreshToken, b.opened())
	}
}

// authorizedOnce starts an authorization server issuing access tokens
// that oauth2 refreshes on every use (it refreshes 10s before expiry:
// these last 5s) and a server protected by it, and has a client authorize
// once, keeping the tokens in store; b is the browser that approved.
func authorizedOnce(t *testing.T) (as *oauthtest.Server, p *protectedServer, store *MemoryTokenStore, b *browser) {
	t.Helper()
	as = oauthtest.New(t, oauthtest.Options{Scopes: []string{"mcp"}, AccessTokenTTL: 5 * time.Second})
	p = newProtectedServer(t, as)
	store = &MemoryTokenStore{}
	b = &browser{as: as}
	if _, err := whoami(ctxT(t), oauthClient(t, p, b, store, &logRecorder{})); err != nil {
		t.Fatal(err)
	}
	return as, p, store, b
}

// A revoked refresh token: without an Authorize hook the call fails with
// ErrAuthorizationRequired and the stored tokens are deleted.
func TestOAuthRevokedRefreshToken(t *testing.T) {
	as, p, store, b := authorizedOnce(t)
	ctx := ctxT(t)
	saved, _ := store.Load(ctx, TokenKey{Server: "srv"})
	as.RevokeRefreshTokens()
	logs := &logRecorder{}
	c := newClient(t, Config{Logger: logs.logger(), Servers: map[string]ServerConfig{"srv": {
		URL: p.URL, ConnectTimeout: ctxTimeout, OAuth: &OAuthConfig{Store: store}}}})
	_, err := whoami(ctx, c)
	if !errors.Is(err, ErrAuthorizationRequired) {
		t.Fatalf("err = %v, want ErrAuthorizationRequired", err)
	}
	if _, lerr := store.Load(ctx, TokenKey{Server: "srv"}); !errors.Is(lerr, ErrNoTokens) {
		t.Fatalf("store after the rejected refresh: %v, want it cleared", lerr)
	}
	checkNoSecrets(t, logs, err, saved, b)
}

// A revoked refresh token with an Authorize hook: the user is asked again
// and the call succeeds.
func TestOAuthRevokedRefreshTokenReauthorizes(t *testing.T) {
	as, p, store, b := authorizedOnce(t)
	ctx := ctxT(t)
	as.RevokeRefreshTokens()
	if _, err := whoami(ctx, oauthClient(t, p, b, store, &logRecorder{})); err != nil {
		t.Fatal(err)
	}
	if b.opened() != 2 {
		t.Fatalf("authorizations = %d, want 2", b.opened())
	}
}

// Bad answers of the authorization server fail the connection with an
// error naming the step, bounded in time, without secrets.
func TestOAuthBadAuthorizationServer(t *testing.T) {
	cases := []struct {
		name  string
		setup func(as *oauthtest.Server, p *protectedServer)
		want  string
	}{
		{"token endpoint error", func(as *oauthtest.Server, _ *protectedServer) {
			as.FailToken(&oauthtest.Failure{Status: 400, Code: "invalid_grant", Description: "code expired"})
		}, "invalid_grant"},
		{"token endpoint 500", func(as *oauthtest.Server, _ *protectedServer) {
			as.FailToken(&oauthtest.Failure{Status: 500})
		}, "HTTP 500"},
		{"malformed token answer", func(as *oauthtest.Server, _ *protectedServer) {
			as.FailToken(&oauthtest.Failure{Malformed: true})
		}, "OAuth authorizing failed"},
		{"state mismatch", func(as *oauthtest.Server, _ *protectedServer) {
			as.SetDecision(oauthtest.WrongState)
		}, "state does not match"},
		{"user denies", func(as *oauthtest.Server, _ *protectedServer) {
			as.SetDecision(oauthtest.Deny)
		}, "refused"},
		{"malformed resource metadata", func(_ *oauthtest.Server, p *protectedServer) {
			p.setPRM(textHandler("{not json"))
		}, "OAuth authorizing failed"},
		{"malformed server metadata", func(_ *oauthtest.Server, p *protectedServer) {
			bad := newTextServer(t, "<html>no metadata</html>")
			p.setPRM(textHandler(`{"resource":"` + p.URL + `","authorization_servers":["` + bad + `"]}`))
		}, "OAuth authorizing failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			as := oauthtest.New(t, oauthtest.Options{Scopes: []string{"mcp"}})
			p := newProtectedServer(t, as)
			tc.setup(as, p)
			b := &browser{as: as}
			logs := &logRecorder{}
			cb, err := NewLocalCallback(LocalCallbackOptions{Open: b.open, Timeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer cb.Close()
			c := newClient(t, Config{Logger: logs.logger(), Servers: map[string]ServerConfig{"srv": {
				URL: p.URL, ConnectTimeout: ctxTimeout,
				OAuth: &OAuthConfig{Authorize: cb.Authorize, RedirectURL: cb.RedirectURL(), RequestTimeout: time.Second},
			}}})
			_, err = whoami(ctxT(t), c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			checkNoSecrets(t, logs, err, nil, b)
		})
	}
}

// A token endpoint that never answers a refresh fails the request after
// RequestTimeout, and the stored tokens are kept (the failure may pass).
func TestOAuthRefreshHangs(t *testing.T) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	as := oauthtest.New(t, oauthtest.Options{})
	p := newProtectedServer(t, as)
	store := &MemoryTokenStore{}
	key := TokenKey{Server: "srv"}
	expired := &oauth2.Token{AccessToken: "stale-access", RefreshToken: "the-refresh-token", Expiry: time.Now().Add(-time.Hour)}
	if err := store.Save(ctxT(t), key, &StoredTokens{Token: expired, Client: StoredClient{ClientID: "c", ClientSecret: "the-client-secret", TokenURL: hang.URL}}); err != nil {
		t.Fatal(err)
	}
	logs := &logRecorder{}
	c := newClient(t, Config{Logger: logs.logger(), Servers: map[string]ServerConfig{"srv": {
		URL: p.URL, ConnectTimeout: ctxTimeout, OAuth: &OAuthConfig{Store: store, RequestTimeout: 500 * time.Millisecond}}}})
	_, err := whoami(ctxT(t), c)
	if err == nil || !strings.Contains(err.Error(), "refreshing the access token failed") {
		t.Fatalf("err = %v, want a refresh failure", err)
	}
	if _, lerr := store.Load(ctxT(t), key); lerr != nil {
		t.Fatalf("the stored tokens were dropped: %v", lerr)
	}
	saved := &StoredTokens{Token: expired, Client: StoredClient{ClientSecret: "the-client-secret"}}
	checkNoSecrets(t, logs, err, saved, &browser{})
}

// checkNoSecrets fails when the logs or err contain a token, client
// secret or authorization code.
func checkNoSecrets(t *testing.T, logs *logRecorder, err error, saved *StoredTokens, b *browser) {
	t.Helper()
	var secrets []string
	if saved != nil {
		secrets = append(secrets, saved.Token.AccessToken, saved.Token.RefreshToken, saved.Client.ClientSecret)
	}
	b.mu.Lock()
	secrets = append(secrets, b.codes...)
	b.mu.Unlock()
	logs.mu.Lock()
	text := strings.Join(logs.msgs, "\n")
	logs.mu.Unlock()
	if err != nil {
		text += "\n" + err.Error()
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("a secret (%.4s…) appears in the logs or the error", s)
		}
	}
}

// Contradictory or incomplete OAuth settings are refused by New, naming
// the server.
func TestOAuthConfigErrors(t *testing.T) {
	for name, sc := range map[string]ServerConfig{
		"stdio":                  {Command: "x", OAuth: &OAuthConfig{}},
		"credentials on stdio":   {Command: "x", Credentials: func(context.Context) (*Credentials, error) { return nil, nil }},
		"no secret":              {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{ClientCredentials: true, ClientID: "c"}},
		"secret and key":         {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{ClientCredentials: true, ClientID: "c", ClientSecret: "s", ClientAssertionKey: testKey(t)}},
		"key without grant":      {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{ClientID: "c", ClientAssertionKey: testKey(t)}},
		"authorize, no redirect": {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{Authorize: (&LocalCallback{}).Authorize}},
		"enterprise incomplete":  {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{ClientID: "c", Enterprise: &EnterpriseConfig{IdPIssuerURL: "http://127.0.0.1"}}},
		"negative timeout":       {URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{RequestTimeout: -1}},
	} {
		_, err := New(Config{Servers: map[string]ServerConfig{"srv": sc}})
		if err == nil || !strings.Contains(err.Error(), `"srv"`) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func testKey(t *testing.T) *ecdsa.PrivateKey {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// A stored access token that expired without a refresh token leads to a
// new authorization, or, without Authorize, to ErrAuthorizationRequired.
func TestOAuthExpiredWithoutRefreshToken(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{Scopes: []string{"mcp"}, Subject: "bob"})
	p := newProtectedServer(t, as)
	key := TokenKey{Server: "srv"}
	expired := &StoredTokens{Token: &oauth2.Token{AccessToken: "old", Expiry: time.Now().Add(-time.Hour)},
		Client: StoredClient{ClientID: "gone", TokenURL: as.Issuer + "/token"}}
	store := &MemoryTokenStore{}
	store.Save(ctxT(t), key, expired)
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {
		URL: p.URL, ConnectTimeout: ctxTimeout, OAuth: &OAuthConfig{Store: store}}}})
	if _, err := whoami(ctxT(t), c); !errors.Is(err, ErrAuthorizationRequired) {
		t.Fatalf("without Authorize: %v, want ErrAuthorizationRequired", err)
	}
	store.Save(ctxT(t), key, expired)
	b := &browser{as: as}
	got, err := whoami(ctxT(t), oauthClient(t, p, b, store, &logRecorder{}))
	if err != nil || !strings.Contains(got, "bob") || b.opened() != 1 {
		t.Fatalf("whoami = %s, %v after %d authorizations", got, err, b.opened())
	}
}

// With an Authorize hook, connecting waits for a person by default.
func TestOAuthConnectTimeoutDefault(t *testing.T) {
	r, err := resolve("srv", ServerConfig{URL: "http://127.0.0.1/mcp", OAuth: &OAuthConfig{
		Authorize: (&LocalCallback{}).Authorize, RedirectURL: "http://127.0.0.1/cb"}}, DefaultTimeout)
	if err != nil || r.connectTimeout != DefaultCallbackTimeout {
		t.Fatalf("connectTimeout = %v (%v), want %v", r.connectTimeout, err, DefaultCallbackTimeout)
	}
	r, err = resolve("srv", ServerConfig{URL: "http://127.0.0.1/mcp", ConnectTimeout: time.Second, OAuth: &OAuthConfig{
		Authorize: (&LocalCallback{}).Authorize, RedirectURL: "http://127.0.0.1/cb"}}, DefaultTimeout)
	if err != nil || r.connectTimeout != time.Second {
		t.Fatalf("configured connectTimeout = %v (%v)", r.connectTimeout, err)
	}
}
