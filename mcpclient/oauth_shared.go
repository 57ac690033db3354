package mcpclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// heldTokens is the token source an OAuth handler of this package made
// once authorized (none before): the TokenSource half of
// auth.OAuthHandler, safe for concurrent use.
type heldTokens struct {
	mu sync.Mutex
	ts oauth2.TokenSource
}

// TokenSource returns the source, or an untyped nil before authorization.
func (h *heldTokens) TokenSource(context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ts == nil {
		return nil, nil // an untyped nil: no token yet
	}
	return h.ts, nil
}

// hold makes ts the source TokenSource returns.
func (h *heldTokens) hold(ts oauth2.TokenSource) {
	h.mu.Lock()
	h.ts = ts
	h.mu.Unlock()
}

// challengedResource reads the 401/403 answer resp to req (closing its
// body): its WWW-Authenticate challenges, and the protected-resource
// metadata of the server that sent it (discoverPRM).
func challengedResource(ctx context.Context, req *http.Request, resp *http.Response, hc *http.Client) (*oauthex.ProtectedResourceMetadata, []oauthex.Challenge, error) {
	defer resp.Body.Close()
	defer io.Copy(io.Discard, resp.Body)
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil, nil, fmt.Errorf("parsing WWW-Authenticate: %w", err)
	}
	prm, err := discoverPRM(ctx, challenges, req.URL.String(), hc)
	return prm, challenges, err
}

// discoverPRM finds the protected-resource metadata the way the MCP SDK's
// handlers do: the challenge's resource_metadata, the well-known URL at
// the endpoint's path, then at the root; without any, the server's root
// is its own authorization server (2025-03-26).
func discoverPRM(ctx context.Context, challenges []oauthex.Challenge, endpoint string, hc *http.Client) (*oauthex.ProtectedResourceMetadata, error) {
	ru, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	root := *ru
	root.Path, root.RawQuery = "", ""
	type try struct{ meta, resource string }
	var tries []try
	for _, c := range challenges {
		if u := c.Params["resource_metadata"]; u != "" {
			tries = append(tries, try{u, endpoint})
		}
	}
	tries = append(tries,
		try{root.String() + "/.well-known/oauth-protected-resource/" + strings.TrimLeft(ru.Path, "/"), endpoint},
		try{root.String() + "/.well-known/oauth-protected-resource", root.String()})
	for _, t := range tries {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, t.meta, t.resource, hc)
		if err != nil || prm == nil {
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("the protected resource metadata names no authorization server")
		}
		return prm, nil
	}
	return &oauthex.ProtectedResourceMetadata{AuthorizationServers: []string{root.String()}, Resource: endpoint}, nil
}
