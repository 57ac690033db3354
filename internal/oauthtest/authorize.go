package oauthtest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Decision is what /authorize does with a valid request.
type Decision int

const (
	// Approve redirects with a code, the request's state and iss.
	Approve Decision = iota
	// Deny redirects with error=access_denied.
	Deny
	// WrongState approves but redirects with a state the client did not
	// send.
	WrongState
	// WrongIss approves but redirects with an iss that is not the
	// issuer.
	WrongIss
)

// SetDecision sets what following /authorize requests decide (initially
// Approve).
func (s *Server) SetDecision(d Decision) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.decision = d
}

// SetSubject sets the user following /authorize requests authenticate
// (initially Options.Subject).
func (s *Server) SetSubject(subject string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subject = subject
}

// grant is what a code, a refresh token or an access token was issued
// for.
type grant struct {
	clientID    string
	subject     string
	scopes      []string
	resource    string
	redirectURI string
	challenge   string
	expiry      time.Time
}

// serveAuthorize is the authorization endpoint. Errors the redirect URI
// cannot be trusted for are a 400 page; others go back to the client.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c := s.client(q.Get("client_id"))
	if c == nil {
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(c.RedirectURIs) == 1 {
		redirect = c.RedirectURIs[0]
	}
	if !slices.Contains(c.RedirectURIs, redirect) {
		http.Error(w, "redirect_uri is not registered for this client", http.StatusBadRequest)
		return
	}
	back := func(params url.Values) { s.redirectBack(w, r, redirect, params) }
	g, code, desc := s.checkAuthorize(q, c)
	if code != "" {
		back(url.Values{"error": {code}, "error_description": {desc}})
		return
	}
	s.mu.Lock()
	d, subject := s.decision, s.subject
	s.mu.Unlock()
	if d == Deny {
		back(url.Values{"error": {"access_denied"}, "error_description": {"the user denied the request"}})
		return
	}
	g.clientID, g.subject, g.redirectURI = c.ID, subject, redirect
	g.expiry = time.Now().Add(time.Minute)
	codeValue := randomString(16)
	s.mu.Lock()
	s.codes[codeValue] = g
	s.mu.Unlock()
	back(url.Values{"code": {codeValue}})
}

// checkAuthorize checks an authorization request's parameters; code is
// the OAuth error when they are wrong.
func (s *Server) checkAuthorize(q url.Values, c *Client) (g *grant, code, desc string) {
	if q.Get("response_type") != "code" {
		return nil, "unsupported_response_type", "response_type must be code"
	}
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		return nil, "invalid_request", "PKCE with code_challenge_method S256 is required"
	}
	resource := q.Get("resource")
	if msg := s.checkResource(resource); msg != "" {
		return nil, "invalid_target", msg
	}
	scopes, msg := s.grantScopes(q.Get("scope"))
	if msg != "" {
		return nil, "invalid_scope", msg
	}
	return &grant{scopes: scopes, resource: resource, challenge: q.Get("code_challenge")}, "", ""
}

// checkResource checks an RFC 8707 resource parameter.
func (s *Server) checkResource(resource string) string {
	if resource == "" {
		if s.opts.RequireResource {
			return "resource is required"
		}
		return ""
	}
	u, err := url.Parse(resource)
	if err != nil || !u.IsAbs() || u.Fragment != "" {
		return "resource must be an absolute URI without a fragment"
	}
	return ""
}

// grantScopes is the scopes granted for a requested scope string.
func (s *Server) grantScopes(requested string) ([]string, string) {
	scopes := strings.Fields(requested)
	if len(s.opts.Scopes) == 0 {
		return scopes, ""
	}
	if len(scopes) == 0 {
		return slices.Clone(s.opts.Scopes), ""
	}
	for _, sc := range scopes {
		if !slices.Contains(s.opts.Scopes, sc) {
			return nil, "scope " + sc + " is not supported"
		}
	}
	return scopes, ""
}

// redirectBack sends the user agent to the client's redirect URI with
// params, the request's state and iss, as the decision says.
func (s *Server) redirectBack(w http.ResponseWriter, r *http.Request, redirect string, params url.Values) {
	s.mu.Lock()
	d := s.decision
	s.mu.Unlock()
	state, iss := r.URL.Query().Get("state"), s.Issuer
	switch d {
	case WrongState:
		state = "not-" + state
	case WrongIss:
		iss = "http://127.0.0.1:1"
	}
	if state != "" {
		params.Set("state", state)
	}
	params.Set("iss", iss)
	u, _ := url.Parse(redirect)
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}
