package mcpserver

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// ProtectedResourceMetadataHandler serves the RFC 9728 protected
// resource metadata of an OAuth-protected server (Config.OAuth):
// resource, authorization_servers, scopes_supported,
// bearer_methods_supported ["header"], resource_name and
// resource_documentation, readable from any origin. Mount it at
// ProtectedResourceMetadataPath on the host of OAuthOptions.Resource
// (Routes does). It is nil when the server has no Config.OAuth, and
// answers 500 when Config.OAuth is invalid.
func (s *Server) ProtectedResourceMetadataHandler() http.Handler {
	o := s.cfg.OAuth
	if o == nil {
		return nil
	}
	if err := o.check(); err != nil {
		return s.misconfigured(err)
	}
	scopes := o.ScopesSupported
	if len(scopes) == 0 {
		scopes = defaultScopes
	}
	return auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               o.Resource,
		AuthorizationServers:   o.AuthorizationServers,
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           o.ResourceName,
		ResourceDocumentation:  o.ResourceDocumentation,
	})
}

// ProtectedResourceMetadataPath is where RFC 9728 (and MCP clients) look
// for the metadata of OAuthOptions.Resource: "/.well-known/
// oauth-protected-resource" followed by the resource's path, e.g.
// "/.well-known/oauth-protected-resource/api/mcp/my-server/mcp". It is
// "" when the server has no Config.OAuth. The 401 answers'
// WWW-Authenticate names this path on the resource's host.
func (s *Server) ProtectedResourceMetadataPath() string {
	if s.cfg.OAuth == nil {
		return ""
	}
	return s.cfg.OAuth.metadataPath()
}

// protect puts the transport behind the Host and Origin allow-lists and,
// with Config.OAuth, the bearer-token check.
func (s *Server) protect(h http.Handler) http.Handler {
	if o := s.cfg.OAuth; o != nil {
		if err := o.check(); err != nil {
			return s.misconfigured(err)
		}
		h = newOAuthGuard(o, s.log).wrap(h)
	}
	return s.cfg.HTTP.allowHosts(h)
}

// misconfigured is a handler refusing everything because Config.OAuth
// is invalid: an unprotected transport is never served. The error is
// logged once.
func (s *Server) misconfigured(err error) http.Handler {
	s.log.Error("mcpserver: Config.OAuth is invalid; the HTTP transport answers 500 to every request", "server", s.id, "error", err)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSONError(w, http.StatusInternalServerError, "server_error", "the MCP server's OAuth configuration is invalid")
	})
}

// writeJSONError writes an OAuth-style {"error", "error_description"}
// body.
func writeJSONError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]any{"error": code, "error_description": desc})
}
