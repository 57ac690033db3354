package mcpclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

type tenantKey struct{}

// Each tool call carries the credentials the CredentialsFunc gives for
// its context; the connection's own requests carry the configured ones.
func TestCredentialsPerRequest(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcpAddEcho(srv, "echo")
	var mu sync.Mutex
	seen := map[string][]string{} // method -> Authorization headers
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httpServer(t, srv)
	ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method+" "+r.Header.Get("X-Tenant")] = append(seen[r.Method+" "+r.Header.Get("X-Tenant")], r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	})
	creds := func(ctx context.Context) (*Credentials, error) {
		tenant, _ := ctx.Value(tenantKey{}).(string)
		if rc := RequestContextFrom(ctx); rc != nil && tenant == "" {
			v, _ := rc.Get("tenant")
			tenant, _ = v.(string)
		}
		switch tenant {
		case "":
			return nil, nil
		case "mallory":
			return nil, errors.New("unknown tenant")
		}
		return &Credentials{AccessToken: "token-of-" + tenant, Headers: http.Header{"X-Tenant": {tenant}, "Mcp-Session-Id": {"forged"}}}, nil
	}
	c := newClient(t, Config{Servers: map[string]ServerConfig{"srv": {URL: ts.URL,
		Headers: http.Header{"Authorization": {"Bearer shared"}}, Credentials: creds}}})
	set, err := c.ServerTools(ctxT(t), "srv")
	if err != nil {
		t.Fatal(err)
	}
	for _, tenant := range []string{"alice", "bob"} {
		ctx := context.WithValue(ctxT(t), tenantKey{}, tenant)
		if _, err := set["echo"].Execute(ctx, []byte(`{"text":"hi"}`), nil); err != nil {
			t.Fatalf("%s: %v", tenant, err)
		}
	}
	// The run's request context, as a server sets it for each user.
	inv := &tools.Invocation{RequestContext: tools.NewRequestContext(map[string]any{"tenant": "carol"})}
	if _, err := set["echo"].Execute(ctxT(t), []byte(`{"text":"hi"}`), inv); err != nil {
		t.Fatalf("carol: %v", err)
	}
	ctx := context.WithValue(ctxT(t), tenantKey{}, "mallory")
	if _, err := set["echo"].Execute(ctx, []byte(`{"text":"hi"}`), nil); err == nil || !strings.Contains(err.Error(), "unknown tenant") {
		t.Fatalf("mallory: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for tenant, want := range map[string]string{"alice": "Bearer token-of-alice", "carol": "Bearer token-of-carol", "bob": "Bearer token-of-bob", "": "Bearer shared"} {
		got := seen["POST "+tenant]
		if len(got) == 0 || got[0] != want {
			t.Errorf("POST for %q carried %v, want %q", tenant, got, want)
		}
	}
	if len(seen["POST mallory"]) > 0 {
		t.Error("a request was sent for a tenant without credentials")
	}
}
