package oauthtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// Authorize plays the user's browser: it requests authorizeURL (which
// must be this server's /authorize) and returns the redirect it answers
// with, the client's redirect URI with code, state and iss (or error),
// without requesting it. An authorization request the server refuses
// outright (unknown client, unregistered redirect URI) is an error.
func (s *Server) Authorize(ctx context.Context, authorizeURL string) (*url.URL, error) {
	u, err := url.Parse(authorizeURL)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: authorize URL: %w", err)
	}
	if u.Scheme+"://"+u.Host != s.Issuer || u.Path != "/authorize" {
		return nil, errors.New("oauthtest: " + u.Redacted() + " is not this server's authorization endpoint")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	client := &http.Client{
		Transport:     s.http.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("oauthtest: authorization request refused: %s", resp.Status)
	}
	return resp.Location()
}
