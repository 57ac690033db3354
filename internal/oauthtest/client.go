package oauthtest

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Token endpoint authentication methods (RFC 7591
// token_endpoint_auth_method).
const (
	AuthNone              = "none"
	AuthClientSecretPost  = "client_secret_post"
	AuthClientSecretBasic = "client_secret_basic"
)

// Client is a registered client.
type Client struct {
	// ID is the client_id (RegisterClient makes one when empty).
	ID string `json:"client_id"`
	// Secret is the client_secret, empty for AuthNone (RegisterClient
	// makes one for the other methods when empty).
	Secret string `json:"client_secret,omitempty"`
	// AuthMethod is how the client authenticates at /token: AuthNone,
	// AuthClientSecretPost or AuthClientSecretBasic (the default, as in
	// RFC 7591). Another method fails with invalid_client.
	AuthMethod string `json:"token_endpoint_auth_method"`
	// RedirectURIs are the exact redirect_uri values /authorize accepts.
	RedirectURIs []string `json:"redirect_uris"`
	// Name is the client_name.
	Name string `json:"client_name,omitempty"`
}

// RegisterClient registers c as if it had used dynamic registration
// (which need not be enabled) and returns it with its ID and Secret.
func (s *Server) RegisterClient(c Client) (Client, error) {
	if c.AuthMethod == "" {
		c.AuthMethod = AuthClientSecretBasic
	}
	if err := checkClient(c); err != nil {
		return Client{}, err
	}
	if c.ID == "" {
		c.ID = "client-" + randomString(8)
	}
	if c.AuthMethod != AuthNone && c.Secret == "" {
		c.Secret = randomString(24)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients[c.ID] != nil {
		return Client{}, errors.New("oauthtest: client_id " + c.ID + " is already registered")
	}
	stored := c
	stored.RedirectURIs = slices.Clone(c.RedirectURIs)
	s.clients[c.ID] = &stored
	return c, nil
}

// errRedirectURI marks a registration refused for its redirect_uris.
var errRedirectURI = errors.New("invalid redirect_uris")

// checkClient is the RFC 7591 validation of a registration.
func checkClient(c Client) error {
	switch c.AuthMethod {
	case AuthNone, AuthClientSecretPost, AuthClientSecretBasic:
	default:
		return errors.New("unsupported token_endpoint_auth_method " + c.AuthMethod)
	}
	if len(c.RedirectURIs) == 0 {
		return fmt.Errorf("%w: at least one is required", errRedirectURI)
	}
	for _, u := range c.RedirectURIs {
		p, err := url.Parse(u)
		if err != nil || !p.IsAbs() || p.Fragment != "" {
			return fmt.Errorf("%w: %q is not an absolute URI without a fragment", errRedirectURI, u)
		}
	}
	return nil
}

// serveRegister is RFC 7591 dynamic client registration.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f, disabled := s.regErr, s.opts.DisableRegistration
	s.mu.Unlock()
	if disabled {
		http.NotFound(w, r)
		return
	}
	if failing(w, r, f) {
		return
	}
	var c Client
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&c); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not a JSON client metadata object")
		return
	}
	c.ID, c.Secret = "", ""
	reg, err := s.RegisterClient(c)
	if err != nil {
		code := "invalid_client_metadata"
		if errors.Is(err, errRedirectURI) {
			code = "invalid_redirect_uri"
		}
		writeOAuthError(w, http.StatusBadRequest, code, err.Error())
		return
	}
	writeJSON(w, http.StatusCreated, registration{Client: reg, IssuedAt: time.Now().Unix()})
}

// registration is the RFC 7591 registration response.
type registration struct {
	Client
	IssuedAt      int64    `json:"client_id_issued_at"`
	SecretExpires int64    `json:"client_secret_expires_at"`
	GrantTypes    []string `json:"grant_types,omitempty"`
}

// client returns the registered client with id, or nil.
func (s *Server) client(id string) *Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clients[id]
}

// authenticate identifies the client of a /token request by its
// registered method; it returns nil after answering invalid_client.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *Client {
	id, secret, basic := r.BasicAuth()
	method := AuthClientSecretBasic
	if basic {
		// RFC 6749 §2.3.1: both are form-urlencoded inside Basic.
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
		method = AuthNone
		if r.PostForm.Has("client_secret") {
			method = AuthClientSecretPost
		}
	}
	c := s.client(id)
	switch {
	case id == "" || c == nil:
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client", "unknown client")
	case c.AuthMethod != method:
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client", "the client must authenticate with "+c.AuthMethod)
	case c.AuthMethod != AuthNone && subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) != 1:
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
	default:
		return c
	}
	return nil
}

// randomString is n random bytes in hex.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
