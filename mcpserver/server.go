package mcpserver

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra"
)

// Server is one MCP server: Mastra's MCPServer. Build it with New or
// FromMastra, then serve it over stdio (ServeStdio, Run), streamable HTTP
// (HTTPHandler, or Routes in the API server), or run its tools directly
// (ExecuteTool). A Server is safe for concurrent use; its catalogue is
// fixed at construction.
type Server struct {
	cfg      Config
	id       string
	log      *slog.Logger
	tools    []*exposedTool
	skipped  []Skipped
	byName   map[string]*exposedTool
	codec    *stateCodec
	released string
	sdk      *mcp.Server

	httpOnce sync.Once
	http     http.Handler
	closed   atomic.Bool
	// done ends with Close: every tool call's context derives from it.
	done context.Context
	stop context.CancelFunc

	// Resources and prompts registered on sdk (resources.go, prompts.go).
	resources resourceSet
	prompts   promptSet
}

// New builds a server from cfg. It returns an error when cfg has no Name
// or Version, when a tool's input schema is not an object schema, and with
// Mastra's errors (*mastra.Error) when an agent or workflow has no
// description (MCP_SERVER_AGENT_OR_WORKFLOW_TOOL_CONVERSION_FAILED) or a
// tool's resume schema cannot be shown as a form
// (MCP_SERVER_RESUME_SCHEMA_NOT_REPRESENTABLE). Warnings (skipped client
// tools, name clashes, a missing RequestStateKey) go to cfg.Logger.
func New(cfg Config) (*Server, error) {
	if cfg.Name == "" {
		return nil, configError("a server needs a Name")
	}
	if cfg.Version == "" {
		return nil, configError("server %q needs a Version", cfg.Name)
	}
	if cfg.OAuth != nil {
		if err := cfg.OAuth.check(); err != nil {
			return nil, configError("server %q: %v", cfg.Name, err)
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	id := cfg.ID
	if id == "" {
		id = cfg.Name
	}
	s := &Server{cfg: cfg, id: Slugify(id), log: log, byName: map[string]*exposedTool{}}
	s.done, s.stop = context.WithCancel(context.Background())
	if s.id == "" {
		return nil, configError("server id %q has no letters or digits", id)
	}
	s.released = cfg.ReleaseDate
	if s.released == "" {
		s.released = wireTime(time.Now())
	}
	key := cfg.RequestStateKey
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
		log.Warn("mcpserver: no Config.RequestStateKey: suspended tool calls are signed with a per-process key, so only this process can resume them. Set the same RequestStateKey on every instance that may receive the answer.")
	}
	ttl := cfg.RequestStateTTL
	if ttl <= 0 {
		ttl = defaultRequestStateTTL
	}
	s.codec = &stateCodec{key: key, ttl: ttl, now: time.Now}
	catalog, skipped, err := buildCatalog(&cfg, log)
	if err != nil {
		return nil, err
	}
	s.tools, s.skipped = catalog, skipped
	for _, e := range catalog {
		s.byName[e.name] = e
	}
	if s.sdk, err = s.newSDKServer(); err != nil {
		return nil, err
	}
	// Resources and prompts (resources_features.go).
	if err := s.installFeatures(); err != nil {
		return nil, err
	}
	return s, nil
}

// FromMastra builds a server exposing registry m: cfg's Tools, Agents and
// Workflows when set, otherwise all of m's, in the registry's order. Tools
// run with m as their registry; the logger defaults to m's.
func FromMastra(m *mastra.Mastra, cfg Config) (*Server, error) {
	if m == nil {
		return nil, configError("FromMastra needs a registry")
	}
	if cfg.Tools == nil {
		cfg.Tools = m.ListTools()
		if cfg.Order.Tools == nil {
			cfg.Order.Tools = m.ToolKeys()
		}
	}
	if cfg.Agents == nil {
		cfg.Agents = m.ListAgents()
		if cfg.Order.Agents == nil {
			cfg.Order.Agents = m.AgentKeys()
		}
	}
	if cfg.Workflows == nil {
		cfg.Workflows = m.ListWorkflows()
		if cfg.Order.Workflows == nil {
			cfg.Order.Workflows = m.WorkflowKeys()
		}
	}
	if cfg.Registry == nil {
		cfg.Registry = m
	}
	if cfg.Logger == nil {
		cfg.Logger = m.Logger()
	}
	return New(cfg)
}

// ID is the server's id (slugified), used in the HTTP routes.
func (s *Server) ID() string { return s.id }

// Name is the server's name.
func (s *Server) Name() string { return s.cfg.Name }

// Version is the server's version.
func (s *Server) Version() string { return s.cfg.Version }

// ToolNames lists the exposed tools' MCP names in order.
func (s *Server) ToolNames() []string {
	names := make([]string, len(s.tools))
	for i, e := range s.tools {
		names[i] = e.name
	}
	return names
}

// Skipped lists what a server with Config.SkipUnservable left out, in
// exposure order.
func (s *Server) Skipped() []Skipped { return slices.Clone(s.skipped) }

// MCPServer is the underlying server of the official Go SDK, for serving
// it over a transport this package does not wrap (Server.Connect with any
// mcp.Transport). Do not add or remove tools on it.
func (s *Server) MCPServer() *mcp.Server { return s.sdk }

// Close ends every session (stdio and HTTP; their tool calls in flight
// are cancelled) and makes the server refuse new ones: HTTPHandler
// answers 503 and ServeStdio returns ErrClosed. It is safe to call more
// than once.
func (s *Server) Close() error {
	s.closed.Store(true)
	s.stop()
	for ss := range s.sdk.Sessions() {
		_ = ss.Close()
	}
	return nil
}

// ErrClosed is returned by ServeStdio on a closed server.
var ErrClosed = errors.New("mcpserver: server closed")
