package mcpserver

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves the MCP streamable HTTP transport at any path it is
// mounted on (Routes mounts it at /api/mcp/<id>/mcp). Clients of protocol
// 2026-07-28 and later (Mcp-Protocol-Version) send self-contained POSTs,
// each served on its own. Older clients get sessions (Mcp-Session-Id:
// POST carries JSON-RPC messages, GET opens the session's event stream,
// DELETE ends it), closed after Config.HTTP.SessionTimeout idle, unless
// Config.HTTP.Stateless. The handler is made once per
// Server and shares its sessions with every caller; after Close it
// answers 503. With Config.OAuth it requires a bearer token its
// ValidateToken accepts (401 with WWW-Authenticate naming the protected
// resource metadata otherwise), and the token's Subject is the user
// tools see as mastra__resourceId and sessions and continuations are
// bound to; without it, authentication is the caller's: wrap it (the
// SDK's auth.RequireBearerToken sets the TokenInfo whose UserID plays
// that part). HTTPOptions.AllowedHosts and AllowedOrigins are checked
// first.
func (s *Server) HTTPHandler() http.Handler {
	s.httpOnce.Do(func() {
		o := s.cfg.HTTP
		timeout := o.SessionTimeout
		switch {
		case timeout == 0:
			timeout = defaultSessionTimeout
		case timeout < 0:
			timeout = 0
		}
		opts := mcp.StreamableHTTPOptions{
			Stateless:                  o.Stateless,
			JSONResponse:               o.JSONResponse,
			SessionTimeout:             timeout,
			MaxRequestBodyBytes:        o.MaxRequestBodyBytes,
			DisableLocalhostProtection: o.DisableLocalhostProtection,
			// A 2026-07-28 POST is the whole request: when its client
			// goes away, the tool call is cancelled.
			PropagateRequestCancellation: true,
		}
		getServer := func(*http.Request) *mcp.Server { return s.sdk }
		sessions := mcp.NewStreamableHTTPHandler(getServer, &opts)
		// The SDK serves protocol 2026-07-28 (self-contained requests,
		// no initialize) only without sessions: such requests, which
		// name their version in Mcp-Protocol-Version, go to a stateless
		// handler of the same server.
		opts.Stateless = true
		selfContained := mcp.NewStreamableHTTPHandler(getServer, &opts)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Mcp-Protocol-Version") >= modernProtocol {
				selfContained.ServeHTTP(w, r)
				return
			}
			sessions.ServeHTTP(w, r)
		})
		guarded := s.protect(h) // Config.OAuth, AllowedHosts/Origins (oauth_http.go)
		s.http = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if s.closed.Load() {
				http.Error(w, "MCP server is closed", http.StatusServiceUnavailable)
				return
			}
			guarded.ServeHTTP(w, r)
		})
	})
	return s.http
}
