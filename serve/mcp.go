package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/server"
)

// DefaultMCPServerID is the id under which an app's registry is served
// as an MCP server (/api/mcp/mastra/mcp, and what `mastra mcp` serves).
const DefaultMCPServerID = "mastra"

// mcpServerConfig is the registry's MCP server: its id (MASTRA_MCP_ID,
// default "mastra"), name and version, and the key that signs suspended
// calls' continuation state (MASTRA_MCP_REQUEST_STATE_KEY; without it a
// per-process key, so an answer must reach the process that asked).
func mcpServerConfig(getenv func(string) string, log *slog.Logger) mcpserver.Config {
	id := cmp.Or(getenv("MASTRA_MCP_ID"), DefaultMCPServerID)
	cfg := mcpserver.Config{ID: id, Name: id, Version: "1.0.0", Logger: log, SkipUnservable: true}
	if key := getenv("MASTRA_MCP_REQUEST_STATE_KEY"); key != "" {
		cfg.RequestStateKey = []byte(key)
	}
	return cfg
}

// mcpRoutes are the MCP routes of the API server: the registry as an MCP
// server (streamable HTTP at /api/mcp/<id>/mcp, Mastra's registry and
// tool routes; entries MCP cannot serve are skipped with a warning), and
// Mastra's MCP registry routes listing no server when it cannot be one.
func mcpRoutes(m *mastra.Mastra, getenv func(string) string, log *slog.Logger) ([]server.Route, func()) {
	srv, err := mcpserver.FromMastra(m, mcpServerConfig(getenv, log))
	if err != nil {
		log.Warn("mastra: the app is not served over MCP", "err", err)
		return mcpserver.Routes(), func() {}
	}
	return mcpserver.Routes(srv), func() { _ = srv.Close() }
}

// ServeMCP opens the storage, builds the app and serves its registry as
// an MCP server over stdin and stdout until ctx ends or the client
// closes stdin: what `mastra mcp` runs. Logs go to log (stderr), never to
// stdout, which belongs to the protocol.
func ServeMCP(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build) error {
	m, closeStore, err := openApp(ctx, cfg, getenv, log, build)
	if err != nil {
		return err
	}
	defer closeStore()
	srv, err := mcpserver.FromMastra(m, mcpServerConfig(getenv, log))
	if err != nil {
		return fmt.Errorf("serving the app over MCP: %w", err)
	}
	defer srv.Close()
	in, out := io.Reader(os.Stdin), io.Writer(os.Stdout)
	if cfg.Stdin != nil {
		in = cfg.Stdin
	}
	if cfg.Stdout != nil {
		out = cfg.Stdout
	}
	if err := srv.ServeStdio(ctx, in, out); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
