package mcpclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/internal/oauthtest"
)

// At most max tenants keep a Client; the least recently used one is
// closed once released, and each tenant's configuration is its own.
func TestTenantClients(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcpAddEcho(srv, "echo")
	made := map[string]int{}
	tc := NewTenantClients(2, func(tenant string) (Config, error) {
		if tenant == "" {
			return Config{}, errors.New("no tenant")
		}
		made[tenant]++
		return Config{ID: tenant, Logger: quietLogger(), Servers: map[string]ServerConfig{"srv": inMemory(srv)}}, nil
	})
	defer tc.Close()
	ctx := ctxT(t)
	a, releaseA, err := tc.Acquire("alice")
	if err != nil || a.ID() != "alice" {
		t.Fatalf("alice: %v", err)
	}
	if _, err := a.ServerTools(ctx, "srv"); err != nil {
		t.Fatal(err)
	}
	b, releaseB, _ := tc.Acquire("bob")
	releaseB()
	if again, r, _ := tc.Acquire("bob"); again != b {
		t.Fatal("bob got a second Client")
	} else {
		r()
	}
	_, releaseC, _ := tc.Acquire("carol") // evicts alice (least recent), still held
	defer releaseC()
	if _, err := a.ServerTools(ctx, "srv"); err != nil {
		t.Fatalf("a held Client was closed: %v", err)
	}
	releaseA()
	releaseA() // a second call does nothing
	if _, err := a.ServerTools(ctx, "srv"); !errors.Is(err, ErrClosed) {
		t.Fatalf("evicted and released Client: %v, want ErrClosed", err)
	}
	if a2, r, _ := tc.Acquire("alice"); a2 == a || made["alice"] != 2 {
		t.Fatal("alice was not made anew")
	} else {
		r()
	}
	if _, _, err := tc.Acquire(""); err == nil {
		t.Fatal("a configuration error was not returned")
	}
	tc.Close()
	if _, _, err := tc.Acquire("dave"); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// Per-tenant Clients against a server that binds sessions to the user:
// each tenant authorizes as itself, its tokens are stored under its own
// key, and its calls run as itself.
func TestTenantClientsOAuth(t *testing.T) {
	as := oauthtest.New(t, oauthtest.Options{Scopes: []string{"mcp"}})
	p := newProtectedServer(t, as)
	store := &MemoryTokenStore{}
	b := &browser{as: as}
	cb, err := NewLocalCallback(LocalCallbackOptions{Open: b.open})
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	tc := NewTenantClients(10, func(tenant string) (Config, error) {
		return Config{Logger: quietLogger(), Servers: map[string]ServerConfig{"srv": {URL: p.URL, ConnectTimeout: ctxTimeout,
			OAuth: &OAuthConfig{Authorize: cb.Authorize, RedirectURL: cb.RedirectURL(), Store: store, Tenant: tenant}}}}, nil
	})
	defer tc.Close()
	ctx := ctxT(t)
	for _, user := range []string{"alice", "bob", "alice"} {
		as.SetSubject(user)
		c, release, err := tc.Acquire(user)
		if err != nil {
			t.Fatal(err)
		}
		got, err := whoami(ctx, c)
		release()
		if err != nil || !strings.Contains(got, user) {
			t.Fatalf("%s: whoami = %s, %v", user, got, err)
		}
	}
	if b.opened() != 2 {
		t.Fatalf("%d authorizations, want one per tenant", b.opened())
	}
	for _, user := range []string{"alice", "bob"} {
		saved, err := store.Load(ctx, TokenKey{Server: "srv", Tenant: user})
		if err != nil {
			t.Fatal(err)
		}
		if info, err := as.Verify(saved.Token.AccessToken); err != nil || info.Subject != user {
			t.Fatalf("%s's stored token is %s's (%v)", user, info.Subject, err)
		}
	}
}
