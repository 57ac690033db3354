package oauthtest

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"
)

// TokenInfo is what an access token was issued for.
type TokenInfo struct {
	// Subject is the user the token acts for.
	Subject string
	// ClientID is the client it was issued to.
	ClientID string
	// Scopes are the granted scopes.
	Scopes []string
	// Resource is the RFC 8707 resource (audience) it was issued for;
	// empty when the client named none.
	Resource string
	// Expiry is when it stops being valid.
	Expiry time.Time
}

// Errors Verify returns.
var (
	// ErrUnknownToken: the token was never issued by this server or was
	// revoked.
	ErrUnknownToken = errors.New("oauthtest: unknown or revoked access token")
	// ErrExpiredToken: the token was issued here but has expired.
	ErrExpiredToken = errors.New("oauthtest: access token expired")
)

// Verify returns what an access token was issued for, or
// ErrUnknownToken or ErrExpiredToken. A resource server also checks
// TokenInfo.Resource is itself.
func (s *Server) Verify(token string) (TokenInfo, error) {
	s.mu.Lock()
	t := s.access[token]
	s.mu.Unlock()
	switch {
	case t == nil || t.revoked:
		return TokenInfo{}, ErrUnknownToken
	case time.Now().After(t.expiry):
		return TokenInfo{}, ErrExpiredToken
	}
	return TokenInfo{
		Subject:  t.subject,
		ClientID: t.clientID,
		Scopes:   slices.Clone(t.scopes),
		Resource: t.resource,
		Expiry:   t.expiry,
	}, nil
}

// IssueToken mints an access token for subject and resource with scopes
// without an authorization flow (client "oauthtest"), for tests of a
// resource server. ttl <= 0 is Options.AccessTokenTTL.
func (s *Server) IssueToken(subject, resource string, ttl time.Duration, scopes ...string) string {
	if ttl <= 0 {
		ttl = s.opts.AccessTokenTTL
	}
	token := "at-" + randomString(24)
	g := grant{clientID: "oauthtest", subject: subject, scopes: slices.Clone(scopes), resource: resource, expiry: time.Now().Add(ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.access[token] = &issued{grant: g}
	return token
}

// ExpireAccessTokens makes every access token issued so far expired.
func (s *Server) ExpireAccessTokens() { s.ageAll(s.access, false) }

// ExpireRefreshTokens makes every refresh token issued so far expired
// (invalid_grant "expired").
func (s *Server) ExpireRefreshTokens() { s.ageAll(s.refresh, false) }

// RevokeRefreshTokens revokes every refresh token issued so far.
func (s *Server) RevokeRefreshTokens() { s.ageAll(s.refresh, true) }

// RevokeAccessTokens revokes every access token issued so far.
func (s *Server) RevokeAccessTokens() { s.ageAll(s.access, true) }

func (s *Server) ageAll(tokens map[string]*issued, revoke bool) {
	past := time.Now().Add(-time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range tokens {
		if revoke {
			t.revoked = true
		} else {
			t.expiry = past
		}
	}
}

// serveIntrospect is RFC 7662 token introspection (no client
// authentication: this is a test server).
func (s *Server) serveIntrospect(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if err := r.ParseForm(); err != nil || r.PostForm.Get("token") == "" {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "token is required")
		return
	}
	info, err := s.Verify(r.PostForm.Get("token"))
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"active": false})
		return
	}
	resp := map[string]any{
		"active":     true,
		"sub":        info.Subject,
		"client_id":  info.ClientID,
		"scope":      strings.Join(info.Scopes, " "),
		"exp":        info.Expiry.Unix(),
		"token_type": "Bearer",
	}
	if info.Resource != "" {
		resp["aud"] = info.Resource
	}
	writeJSON(w, http.StatusOK, resp)
}
