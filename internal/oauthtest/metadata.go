package oauthtest

import (
	"encoding/json"
	"net/http"
)

// metadata is the RFC 8414 authorization server metadata document.
func (s *Server) metadata() map[string]any {
	m := map[string]any{
		"issuer":                                         s.Issuer,
		"authorization_endpoint":                         s.Issuer + "/authorize",
		"token_endpoint":                                 s.Issuer + "/token",
		"introspection_endpoint":                         s.Issuer + "/introspect",
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{AuthNone, AuthClientSecretPost, AuthClientSecretBasic},
		"authorization_response_iss_parameter_supported": true,
	}
	if !s.opts.DisableRegistration {
		m["registration_endpoint"] = s.Issuer + "/register"
	}
	if len(s.opts.Scopes) > 0 {
		m["scopes_supported"] = s.opts.Scopes
	}
	if s.opts.EditMetadata != nil {
		s.opts.EditMetadata(m)
	}
	return m
}

// FailMetadata makes every following metadata request fail as f says
// (Malformed: a body that is not JSON); nil serves it again.
func (s *Server) FailMetadata(f *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.metaErr = f
}

func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.metaErr
	s.mu.Unlock()
	if failing(w, r, f) {
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, s.metadata())
}

// writeJSON writes v as the JSON response body with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeOAuthError writes an RFC 6749 §5.2 error response.
func writeOAuthError(w http.ResponseWriter, status int, code, description string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauthtest"`)
	}
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}
