package mcpserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/gomastra/mastra/server"
)

// RouteOptions configure RoutesWith.
type RouteOptions struct {
	// Prefix is the API prefix the routes live under (default "/api"),
	// the server.Options.APIPrefix of the API server they join.
	Prefix string
	// MaxBodyBytes bounds the REST routes' request bodies (default
	// server.DefaultMaxBodyBytes, Mastra's 4.5 MB).
	MaxBodyBytes int64
}

// Routes are Mastra's MCP routes for servers, under "/api", for
// server.Options.Routes:
//
//	GET    /api/mcp/v0/servers                      ?page&perPage (or limit&offset) → {servers, total_count, next}
//	GET    /api/mcp/v0/servers/{id}                 ?version → server detail; 404 when unknown
//	GET    /api/mcp/{serverId}/tools                {tools: [ToolInfo]}
//	GET    /api/mcp/{serverId}/tools/{toolId}       ToolInfo; 404 when unknown
//	POST   /api/mcp/{serverId}/tools/{toolId}/execute  {data, requestContext?, resumeData?, suspendPayload?}
//	                                                → {result} | {status: "suspended", suspendPayload, resumeSchema?}
//	GET    /api/mcp/{serverId}/resources            {resources: [{uri, name, description?, mimeType?, _meta?}]} (Config.Resources)
//	POST   /api/mcp/{serverId}/resources/read       {uri} → {contents: [{uri, mimeType?, text | blob}]}; 404 when not served
//	POST, GET, DELETE /api/mcp/{serverId}/mcp       the streamable HTTP transport (HTTPHandler)
//
// Errors are Mastra's {"error": message} with its statuses (an unknown
// server is 404, invalid tool input 400, a failing tool 500). The API
// server authenticates before these handlers run; the resource its Auth
// hook returns becomes the tools' mastra__resourceId, and over the MCP
// transport (with a bearer token) binds sessions and continuations to it.
// A server with Config.OAuth checks its own bearer tokens instead: its
// transport and its protected resource metadata
// (GET /.well-known/oauth-protected-resource/api/mcp/{id}/mcp, and
// GET /.well-known/oauth-protected-resource when it is the only one) are
// served without the API server's Auth and BearerToken.
// Servers with the same ID: the first wins.
func Routes(servers ...*Server) []server.Route {
	return RoutesWith(RouteOptions{}, servers...)
}

// RoutesWith is Routes with options (another API prefix, body limit).
func RoutesWith(opts RouteOptions, servers ...*Server) []server.Route {
	prefix := strings.TrimRight(opts.Prefix, "/")
	if opts.Prefix == "" {
		prefix = "/api"
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = server.DefaultMaxBodyBytes
	}
	reg := &registry{prefix: prefix, maxBody: opts.MaxBodyBytes, byID: map[string]*Server{}}
	for _, s := range servers {
		if s == nil || reg.byID[s.id] != nil {
			continue
		}
		reg.list = append(reg.list, s)
		reg.byID[s.id] = s
	}
	base := prefix + "/mcp"
	route := func(method, path string, h http.HandlerFunc) server.Route {
		return server.Route{Method: method, Path: base + path, Handler: h, Schema: routeSchema(method, "/mcp"+path)}
	}
	routes := []server.Route{
		route(http.MethodGet, "/v0/servers", reg.listServers),
		route(http.MethodGet, "/v0/servers/{id}", reg.getServer),
		route(http.MethodGet, "/{serverId}/tools", reg.listTools),
		route(http.MethodGet, "/{serverId}/tools/{toolId}", reg.getTool),
		route(http.MethodPost, "/{serverId}/tools/{toolId}/execute", reg.executeTool),
		route(http.MethodGet, "/{serverId}/resources", reg.listResources),
		route(http.MethodPost, "/{serverId}/resources/read", reg.readResource),
		route(http.MethodPost, "/{serverId}/mcp", reg.transport),
		route(http.MethodGet, "/{serverId}/mcp", reg.transport),
		route(http.MethodDelete, "/{serverId}/mcp", reg.transport),
	}
	// Servers with Config.OAuth: their metadata and self-authenticating
	// transports (oauth_routes.go).
	return append(routes, oauthRoutes(base, reg.list, reg.transport)...)
}

// registry holds the servers the routes serve.
type registry struct {
	prefix  string
	maxBody int64
	list    []*Server
	byID    map[string]*Server
}

// transport serves the streamable HTTP transport of {serverId}. A
// resource the API server's Auth hook gave the request is handed to the
// SDK as the bearer token's user, which binds the session to it and
// reaches tools as mastra__resourceId.
func (reg *registry) transport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("serverId")
	s := reg.byID[id]
	if s == nil {
		writeError(w, http.StatusNotFound, "MCP server '"+id+"' not found")
		return
	}
	h := s.HTTPHandler()
	if res := server.AuthResource(r); res != "" && hasBearer(r) && s.cfg.OAuth == nil {
		verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{UserID: res}, nil
		}
		h = auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	}
	h.ServeHTTP(w, r)
}

func hasBearer(r *http.Request) bool {
	f := strings.Fields(r.Header.Get("Authorization"))
	return len(f) == 2 && strings.EqualFold(f[0], "bearer")
}
