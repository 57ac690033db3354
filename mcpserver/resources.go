package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// Resources are what a server offers as MCP resources: Mastra's
// MCPServer `resources` option ({listResources, getResourceContent,
// resourceTemplates}). A server with Resources declares the resources
// capability (with subscribe and listChanged) even when the list is empty.
type Resources struct {
	// List returns the resources (Mastra's listResources). Required. It
	// is called when the server is built and again by
	// NotifyResourceListChanged; resources/list answers from that list.
	List func(ctx context.Context) ([]*mcp.Resource, error)
	// Templates returns the resource templates (Mastra's
	// resourceTemplates), URI templates (RFC 6570) whose matching URIs
	// Read serves. Optional; called when List is.
	Templates func(ctx context.Context) ([]*mcp.ResourceTemplate, error)
	// Read returns the contents of uri, a listed resource's URI or one
	// matching a template (Mastra's getResourceContent). Required. A
	// content without URI gets uri, one without MIMEType the resource's
	// or template's. Text goes in Text, binary data in Blob (raw bytes:
	// base64 on the wire). An error wrapping ErrResourceNotFound answers
	// the protocol's resource-not-found error; any other error's text is
	// sent to the client, so keep secrets out of it.
	Read func(ctx context.Context, uri string) ([]*mcp.ResourceContents, error)
}

// ErrResourceNotFound is what Resources.Read returns (or wraps) for a URI
// it has nothing at. URIs neither listed nor matching a template never
// reach Read.
var ErrResourceNotFound = errors.New("mcpserver: resource not found")

// resourceSet is the resources and templates currently registered on the
// SDK server, so that a new listing can remove what disappeared.
type resourceSet struct {
	mu            sync.Mutex
	list          []*mcp.Resource // as listed, for the REST routes
	uris          []string
	templates     []string
	matchers      []*uritemplate.Template // the templates, parsed
	templateTypes []string                // the MIME type of each matcher's template
}

// checkResources reports a Resources missing a required function.
func checkResources(r *Resources) error {
	if r.List == nil || r.Read == nil {
		return configError("Resources needs List and Read")
	}
	return nil
}

// loadResources lists the resources and templates and registers them on
// the SDK server, removing those no longer listed. Registering replaces,
// so every listing notifies connected clients that the list changed.
func (s *Server) loadResources(ctx context.Context) error {
	r := s.cfg.Resources
	list, err := r.List(ctx)
	if err != nil {
		return fmt.Errorf("mcpserver: listing resources: %w", err)
	}
	var templates []*mcp.ResourceTemplate
	if r.Templates != nil {
		if templates, err = r.Templates(ctx); err != nil {
			return fmt.Errorf("mcpserver: listing resource templates: %w", err)
		}
	}
	s.resources.mu.Lock()
	defer s.resources.mu.Unlock()
	uris, patterns := make([]string, 0, len(list)), make([]string, 0, len(templates))
	matchers, templateTypes := make([]*uritemplate.Template, 0, len(templates)), make([]string, 0, len(templates))
	for _, res := range list {
		if res == nil || res.URI == "" {
			return configError("a listed resource has no URI")
		}
		uris = append(uris, res.URI)
	}
	for _, t := range templates {
		if t == nil || t.URITemplate == "" {
			return configError("a listed resource template has no URITemplate")
		}
		patterns = append(patterns, t.URITemplate)
		if m, err := uritemplate.New(t.URITemplate); err == nil {
			matchers, templateTypes = append(matchers, m), append(templateTypes, t.MIMEType)
		}
	}
	if err := s.registerResources(list, templates); err != nil {
		return err
	}
	s.sdk.RemoveResources(missing(s.resources.uris, uris)...)
	s.sdk.RemoveResourceTemplates(missing(s.resources.templates, patterns)...)
	s.resources.list, s.resources.uris, s.resources.templates = list, uris, patterns
	s.resources.matchers, s.resources.templateTypes = matchers, templateTypes
	return nil
}

// registerResources adds (or replaces) each resource and template, with
// the SDK's panic on an invalid URI or template turned into an error.
func (s *Server) registerResources(list []*mcp.Resource, templates []*mcp.ResourceTemplate) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = configError("resource: %v", p)
		}
	}()
	for _, res := range list {
		s.sdk.AddResource(res, s.readResource)
	}
	for _, t := range templates {
		s.sdk.AddResourceTemplate(t, s.readResource)
	}
	return nil
}

// readResource answers resources/read through Resources.Read; the SDK has
// checked that the URI is listed or matches a template, and fills in
// missing URIs and MIME types.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	contents, err := s.cfg.Resources.Read(ctx, uri)
	if errors.Is(err, ErrResourceNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		s.log.Error("Failed to get content for resource", "uri", uri, "error", err)
		return nil, err
	}
	out := make([]*mcp.ResourceContents, 0, len(contents))
	for _, c := range contents {
		if c != nil {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: out}, nil
}

// NotifyResourceListChanged lists the resources and templates again
// (Resources.List and Templates) and tells connected clients that the
// list changed (notifications/resources/list_changed; a subscriptions/listen
// stream on protocol 2026-07-28): Mastra's
// server.resources.notifyListChanged(). It returns the listing's error,
// keeping the previous list, and is a no-op without Resources.
func (s *Server) NotifyResourceListChanged(ctx context.Context) error {
	if s.cfg.Resources == nil {
		return nil
	}
	return s.loadResources(ctx)
}

// NotifyResourceUpdated tells the clients subscribed to uri
// (resources/subscribe, or subscriptions/listen on protocol 2026-07-28)
// that its contents changed (notifications/resources/updated): Mastra's
// server.resources.notifyUpdated({uri}). Clients not subscribed hear
// nothing.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	if uri == "" {
		return configError("NotifyResourceUpdated needs a URI")
	}
	return s.sdk.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
}

// missing lists the entries of old that are not in current.
func missing(old, current []string) []string {
	keep := make(map[string]bool, len(current))
	for _, c := range current {
		keep[c] = true
	}
	var gone []string
	for _, o := range old {
		if !keep[o] {
			gone = append(gone, o)
		}
	}
	return gone
}
