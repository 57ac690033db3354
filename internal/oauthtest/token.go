package oauthtest

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

// issued is an access or refresh token's grant.
type issued struct {
	grant
	revoked bool
}

// tokenResponse is the RFC 6749 §5.1 token response.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// serveToken is the token endpoint.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.tokenErr
	s.mu.Unlock()
	if failing(w, r, f) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
		return
	}
	c := s.authenticate(w, r)
	if c == nil {
		return
	}
	var g *grant
	var code, desc string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		g, code, desc = s.redeemCode(r, c)
	case "refresh_token":
		g, code, desc = s.redeemRefresh(r, c)
	default:
		code, desc = "unsupported_grant_type", "grant_type must be authorization_code or refresh_token"
	}
	if code != "" {
		writeOAuthError(w, http.StatusBadRequest, code, desc)
		return
	}
	writeJSON(w, http.StatusOK, s.issue(*g))
}

// verifierSyntax is RFC 7636 §4.1's code_verifier.
var verifierSyntax = regexp.MustCompile(`^[A-Za-z0-9\-._~]{43,128}$`)

// redeemCode checks an authorization_code grant and uses up its code.
func (s *Server) redeemCode(r *http.Request, c *Client) (*grant, string, string) {
	f := r.PostForm
	s.mu.Lock()
	g := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code")) // a code is good once, even when the request fails
	s.mu.Unlock()
	switch {
	case g == nil:
		return nil, "invalid_grant", "the code is unknown or was already used"
	case g.clientID != c.ID:
		return nil, "invalid_grant", "the code was issued to another client"
	case time.Now().After(g.expiry):
		return nil, "invalid_grant", "the code expired"
	case f.Get("redirect_uri") != g.redirectURI:
		return nil, "invalid_grant", "redirect_uri does not match the authorization request"
	case !verifierSyntax.MatchString(f.Get("code_verifier")):
		return nil, "invalid_grant", "code_verifier is missing or malformed"
	case !s256Matches(f.Get("code_verifier"), g.challenge):
		return nil, "invalid_grant", "code_verifier does not match the code_challenge"
	}
	if msg := s.tokenResource(f.Get("resource"), g.resource); msg != "" {
		return nil, "invalid_target", msg
	}
	return g, "", ""
}

// tokenResource checks a token request's resource against the one the
// grant was made for.
func (s *Server) tokenResource(requested, granted string) string {
	switch {
	case requested == "" && granted == "" && s.opts.RequireResource:
		return "resource is required"
	case requested != "" && granted != "" && requested != granted:
		return "resource does not match the one authorized"
	case requested != "" && granted == "":
		return "resource was not part of the authorization"
	}
	return ""
}

// s256Matches is RFC 7636's S256 check.
func s256Matches(verifier, challenge string) bool {
	sum := sha256.Sum256([]byte(verifier))
	want := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(want), []byte(challenge)) == 1
}

// redeemRefresh checks a refresh_token grant and rotates the token: it
// is used up only when the grant succeeds.
func (s *Server) redeemRefresh(r *http.Request, c *Client) (*grant, string, string) {
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.refresh[f.Get("refresh_token")]
	switch {
	case t == nil || t.revoked:
		return nil, "invalid_grant", "the refresh token is unknown, revoked or already used"
	case t.clientID != c.ID:
		return nil, "invalid_grant", "the refresh token was issued to another client"
	case time.Now().After(t.expiry):
		return nil, "invalid_grant", "the refresh token expired"
	}
	if res := f.Get("resource"); res != "" && res != t.resource {
		return nil, "invalid_target", "resource does not match the one authorized"
	}
	g := t.grant
	if req := strings.Fields(f.Get("scope")); len(req) > 0 {
		for _, sc := range req {
			if !slices.Contains(g.scopes, sc) {
				return nil, "invalid_scope", "scope " + sc + " was not granted"
			}
		}
		g.scopes = req
	}
	delete(s.refresh, f.Get("refresh_token"))
	return &g, "", ""
}

// issue mints an access token (and a refresh token) for g.
func (s *Server) issue(g grant) tokenResponse {
	now := time.Now()
	resp := tokenResponse{
		AccessToken: "at-" + randomString(24),
		TokenType:   "Bearer",
		ExpiresIn:   int64(s.opts.AccessTokenTTL / time.Second),
		Scope:       strings.Join(g.scopes, " "),
	}
	at := g
	at.expiry = now.Add(s.opts.AccessTokenTTL)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.access[resp.AccessToken] = &issued{grant: at}
	if !s.opts.NoRefreshTokens {
		resp.RefreshToken = "rt-" + randomString(24)
		rt := g
		rt.expiry = now.Add(s.opts.RefreshTokenTTL)
		s.refresh[resp.RefreshToken] = &issued{grant: rt}
	}
	return resp
}
