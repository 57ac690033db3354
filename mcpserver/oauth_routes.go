package mcpserver

import (
	"net/http"

	"github.com/gomastra/mastra/server"
)

// oauthRoutes are the routes of the OAuth-protected servers among list
// (Config.OAuth): each one's protected resource metadata at its
// ProtectedResourceMetadataPath (and at the bare
// /.well-known/oauth-protected-resource when only one server is
// protected), and its transport at base/<id>/mcp. They are Public: the
// API server's Auth and BearerToken do not apply, the transport checks
// its own bearer tokens and the metadata is public.
func oauthRoutes(base string, list []*Server, transport http.HandlerFunc) []server.Route {
	var routes []server.Route
	seen := map[string]bool{}
	add := func(method, path string, h http.Handler) {
		if seen[method+" "+path] {
			return
		}
		seen[method+" "+path] = true
		routes = append(routes, server.Route{Method: method, Path: path, Handler: h, Public: true})
	}
	var protected []*Server
	for _, s := range list {
		if s.cfg.OAuth == nil {
			continue
		}
		protected = append(protected, s)
		add(http.MethodGet, s.ProtectedResourceMetadataPath(), s.ProtectedResourceMetadataHandler())
		id := s.id
		own := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.SetPathValue("serverId", id) // the pattern names the id itself
			transport(w, r)
		})
		for _, m := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
			add(m, base+"/"+id+"/mcp", own)
		}
	}
	if len(protected) == 1 {
		add(http.MethodGet, wellKnownPRM, protected[0].ProtectedResourceMetadataHandler())
	}
	return routes
}
