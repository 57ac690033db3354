package mcpserver

import (
	"encoding/json"
)

// ToolInfo describes one exposed tool as Mastra's REST routes show it
// (GET /api/mcp/:id/tools[/:toolId]).
type ToolInfo struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// ToolType is "agent" or "workflow" for ask_/run_ tools.
	ToolType string         `json:"toolType,omitempty"`
	Meta     map[string]any `json:"_meta,omitempty"`
}

// Tools describes the exposed tools, in order.
func (s *Server) Tools() []ToolInfo {
	out := make([]ToolInfo, len(s.tools))
	for i, e := range s.tools {
		out[i] = e.info()
	}
	return out
}

// Tool describes the exposed tool name.
func (s *Server) Tool(name string) (ToolInfo, bool) {
	e, ok := s.byName[name]
	if !ok {
		return ToolInfo{}, false
	}
	return e.info(), true
}

func (e *exposedTool) info() ToolInfo {
	return ToolInfo{
		ID: e.name, Name: e.name, Description: e.tool.Description(),
		InputSchema: e.input, OutputSchema: e.output, ToolType: e.toolType, Meta: e.meta,
	}
}

// VersionDetail is a server's version as the MCP registry shows it.
type VersionDetail struct {
	Version     string `json:"version"`
	ReleaseDate string `json:"release_date"`
	IsLatest    bool   `json:"is_latest"`
}

// Info is a server as the registry routes list it (Mastra's ServerInfo,
// plus the transports it serves under /api/mcp/:id).
type Info struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	Description   string        `json:"description,omitempty"`
	Repository    *Repository   `json:"repository,omitempty"`
	VersionDetail VersionDetail `json:"version_detail"`
	Transports    []string      `json:"transports"`
}

// Detail is a server as GET /api/mcp/v0/servers/:id shows it (Mastra's
// ServerDetailInfo).
type Detail struct {
	ID               string        `json:"id"`
	Name             string        `json:"name"`
	Description      string        `json:"description,omitempty"`
	Repository       *Repository   `json:"repository,omitempty"`
	VersionDetail    VersionDetail `json:"version_detail"`
	PackageCanonical string        `json:"package_canonical,omitempty"`
	Packages         []any         `json:"packages,omitempty"`
	Remotes          []any         `json:"remotes,omitempty"`
	Transports       []string      `json:"transports"`
}

// transports are what a server speaks under /api/mcp/:id: streamable
// HTTP only (the standalone SSE transport went with MCP 2026-07-28, as in
// Mastra's 2.x servers).
var transports = []string{"streamable-http"}

// Info describes the server for the registry routes.
func (s *Server) Info() Info {
	return Info{ID: s.id, Name: s.cfg.Name, Description: s.cfg.Description, Repository: s.cfg.Repository,
		VersionDetail: s.versionDetail(), Transports: transports}
}

// Detail describes the server in full for the registry routes.
func (s *Server) Detail() Detail {
	return Detail{ID: s.id, Name: s.cfg.Name, Description: s.cfg.Description, Repository: s.cfg.Repository,
		VersionDetail: s.versionDetail(), PackageCanonical: s.cfg.PackageCanonical,
		Packages: s.cfg.Packages, Remotes: s.cfg.Remotes, Transports: transports}
}

func (s *Server) versionDetail() VersionDetail {
	latest := true
	if s.cfg.IsLatest != nil {
		latest = *s.cfg.IsLatest
	}
	return VersionDetail{Version: s.cfg.Version, ReleaseDate: s.released, IsLatest: latest}
}
