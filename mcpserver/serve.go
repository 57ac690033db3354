package mcpserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gomastra/mastra/serve"
)

// DefaultServeID is the id under which ServeOption serves an app's
// registry (/api/mcp/mastra/mcp, and what `mastra mcp` serves).
const DefaultServeID = "mastra"

// ServeOption makes an app's server (serve.Main) serve its registry as an
// MCP server — its tools under their keys, agents as ask_<key>, workflows
// as run_<key>; what MCP cannot serve is left out and named in the
// start-up summary (Config.SkipUnservable):
//
//   - over streamable HTTP at /api/mcp/<id>/mcp beside Mastra's API,
//     with Mastra's MCP routes (Routes);
//   - over stdin and stdout when the app's first argument is "mcp"
//     (`myapp mcp -storage …`, what `mastra mcp` runs).
//
// Its id is MASTRA_MCP_ID (default "mastra"). MASTRA_MCP_REQUEST_STATE_KEY
// signs suspended calls' continuation state: give every instance the same
// secret so that any of them can take the answer. Without it a
// per-process key is used, which is all a server on a loopback address or
// over stdio needs; a server bound elsewhere warns once.
//
// MASTRA_MCP_OAUTH_RESOURCE (the public URL of /api/mcp/<id>/mcp) makes
// the HTTP transport OAuth-protected (Config.OAuth), with
// MASTRA_MCP_OAUTH_AUTHORIZATION_SERVERS (issuer URLs), tokens checked at
// MASTRA_MCP_OAUTH_INTROSPECTION_URL (authenticated with
// MASTRA_MCP_OAUTH_CLIENT_ID and _SECRET when set), and
// MASTRA_MCP_OAUTH_SCOPES required; the app's -token does not apply to
// that transport. MASTRA_MCP_ALLOWED_HOSTS and MASTRA_MCP_ALLOWED_ORIGINS
// are HTTPOptions' allow-lists. Lists are comma-separated; an incomplete
// OAuth setting stops the app from starting.
//
// Resources, prompts and completions are not in the registry: give them
// with WithResources, WithPrompts and WithCompletions (resources_serve.go).
func ServeOption(opts ...ServeConfig) serve.Option {
	return serve.WithExtension(serve.Extension{
		Name:  "MCP server",
		Mount: func(app serve.App) (*serve.Mount, error) { return mountHTTP(app, opts) },
		Mode:  "mcp",
		RunMode: func(ctx context.Context, app serve.App, stdin io.Reader, stdout io.Writer) error {
			return runStdio(ctx, app, stdin, stdout, opts)
		},
	})
}

// serveConfig is the registry's MCP server config read from app's
// environment.
func serveConfig(app serve.App, opts []ServeConfig) Config {
	id := cmp.Or(app.Env.Getenv("MASTRA_MCP_ID"), DefaultServeID)
	cfg := Config{ID: id, Name: id, Version: "1.0.0", Logger: app.Env.Logger, SkipUnservable: true}
	if key := app.Env.Getenv("MASTRA_MCP_REQUEST_STATE_KEY"); key != "" {
		cfg.RequestStateKey = []byte(key)
	} else {
		cfg.RequestStateKey = processKey()
	}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// processKey is a random key for one process's continuations.
func processKey() []byte {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return key
}

// mountHTTP builds the server and mounts it with Mastra's MCP routes.
func mountHTTP(app serve.App, opts []ServeConfig) (*serve.Mount, error) {
	cfg := serveConfig(app, opts)
	if err := securityFromEnv(&cfg, app.Env.Getenv); err != nil { // oauth_env.go
		return nil, err
	}
	if app.Env.Getenv("MASTRA_MCP_REQUEST_STATE_KEY") == "" && !serve.IsLoopback(app.Config.Host) {
		app.Env.Logger.Warn("MCP: suspended tool calls can be answered only through this process; set MASTRA_MCP_REQUEST_STATE_KEY to the same secret on every instance so that any of them can resume them")
	}
	srv, err := FromMastra(app.Mastra, cfg)
	if err != nil {
		return nil, err
	}
	return &serve.Mount{
		Routes:  Routes(srv),
		Summary: func(base string) string { return summary(srv, base) },
		Close:   func() { _ = srv.Close() },
	}, nil
}

// summary is the start-up summary's MCP line: where, what is offered, and
// what is not, with why.
func summary(srv *Server, base string) string {
	var n [3]int // tools, agents, workflows
	for _, t := range srv.Tools() {
		switch t.ToolType {
		case "agent":
			n[1]++
		case "workflow":
			n[2]++
		default:
			n[0]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP     %s/api/mcp/%s/mcp  (%s: %s, %s as ask_<key>, %s as run_<key>)",
		base, srv.ID(), count(n[0]+n[1]+n[2], "MCP tool"), count(n[0], "tool"), count(n[1], "agent"), count(n[2], "workflow"))
	for _, s := range srv.Skipped() {
		fmt.Fprintf(&b, "\n          not served over MCP: %s (%v)", s.Name, s.Reason)
	}
	return b.String()
}

// count is "1 tool", "3 tools".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// runStdio serves the registry over stdin and stdout until ctx ends or
// the client closes stdin.
func runStdio(ctx context.Context, app serve.App, stdin io.Reader, stdout io.Writer, opts []ServeConfig) error {
	srv, err := FromMastra(app.Mastra, serveConfig(app, opts))
	if err != nil {
		return fmt.Errorf("serving the app over MCP: %w", err)
	}
	defer srv.Close()
	if err := srv.ServeStdio(ctx, stdin, stdout); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
