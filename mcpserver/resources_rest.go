package mcpserver

import (
	"context"
	"errors"
	"net/http"
)

// restResource is one resource as GET /api/mcp/:serverId/resources lists
// it (Mastra's shape: no title, size or annotations).
type restResource struct {
	URI         string         `json:"uri"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	MIMEType    string         `json:"mimeType,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

// restContent is one content of POST /api/mcp/:serverId/resources/read.
type restContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

// listedResources is the resource list as last read (Resources.List),
// in Mastra's REST shape; empty without Resources.
func (s *Server) listedResources() []restResource {
	s.resources.mu.Lock()
	defer s.resources.mu.Unlock()
	out := make([]restResource, 0, len(s.resources.list))
	for _, r := range s.resources.list {
		out = append(out, restResource{URI: r.URI, Name: r.Name, Description: r.Description, MIMEType: r.MIMEType, Meta: r.Meta})
	}
	return out
}

// served reports whether uri is a listed resource's or matches a
// template (the URIs Resources.Read is asked for), with the MIME type
// the listing gives it.
func (s *Server) served(uri string) (mimeType string, ok bool) {
	s.resources.mu.Lock()
	defer s.resources.mu.Unlock()
	for _, r := range s.resources.list {
		if r.URI == uri {
			return r.MIMEType, true
		}
	}
	for i, m := range s.resources.matchers {
		if m.Match(uri) != nil {
			return s.resources.templateTypes[i], true
		}
	}
	return "", false
}

// readForREST reads uri for POST …/resources/read through Resources.Read.
// It returns ErrResourceNotFound for a URI the server does not serve or
// has nothing at, and Read's other errors as they are. A content without
// URI gets uri, one without MIME type the listing's.
func (s *Server) readForREST(ctx context.Context, uri string) ([]restContent, error) {
	if s.cfg.Resources == nil {
		return nil, ErrResourceNotFound
	}
	mimeType, ok := s.served(uri)
	if !ok {
		return nil, ErrResourceNotFound
	}
	contents, err := s.cfg.Resources.Read(ctx, uri)
	if err != nil {
		return nil, err
	}
	out := make([]restContent, 0, len(contents))
	for _, c := range contents {
		if c == nil {
			continue
		}
		rc := restContent{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}
		if rc.URI == "" {
			rc.URI = uri
		}
		if rc.MIMEType == "" {
			rc.MIMEType = mimeType
		}
		out = append(out, rc)
	}
	if len(out) == 0 {
		return nil, ErrResourceNotFound
	}
	return out, nil
}

// writeRESTError answers a failed REST read: Mastra's 404 for a resource
// not found, else a 500 whose text is the error's.
func writeRESTError(w http.ResponseWriter, s *Server, uri string, err error) {
	if errors.Is(err, ErrResourceNotFound) {
		writeError(w, http.StatusNotFound, "Resource '"+uri+"' not found on server '"+s.id+"'")
		return
	}
	writeError(w, http.StatusInternalServerError, err.Error())
}
