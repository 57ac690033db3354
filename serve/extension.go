package serve

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/storage"
)

// An Extension serves more of an app than Mastra's API: routes mounted
// beside the API once the app is built, and a mode the app runs in
// instead of the server when its first argument names it. The MCP server
// is one (mcpserver.ServeOption); an app links only the extensions it
// passes to Main.
type Extension struct {
	// Name says what the extension serves ("MCP server"), in messages.
	Name string
	// Mount, when set, builds what the extension serves beside the API
	// for app. It runs once, after the app is built and before the
	// server listens; an error stops the start.
	Mount func(app App) (*Mount, error)
	// Mode, with RunMode, is the first argument that runs the app as
	// RunMode instead of as a server ("mcp" for `myapp mcp`).
	Mode string
	// RunMode runs the app in Mode until ctx ends; stdin and stdout are
	// the process's (logs go to app.Env.Logger, never to stdout).
	RunMode func(ctx context.Context, app App, stdin io.Reader, stdout io.Writer) error
	// Engine, when set, is the scheme of the engine URLs
	// (Config.Engine) the extension runs agent runs on ("temporal"):
	// its Mount and RunMode read app.Config.Engine.
	Engine string
}

// checkEngine checks that an extension runs the engine cfg names.
func checkEngine(cfg Config) error {
	if cfg.Engine == "" {
		return nil
	}
	scheme, _, ok := strings.Cut(cfg.Engine, "://")
	if !ok {
		return fmt.Errorf("engine %q: want a URL such as temporal://127.0.0.1:7233/default", cfg.Engine)
	}
	for _, e := range cfg.Extensions {
		if e.Engine == scheme {
			return nil
		}
	}
	return fmt.Errorf("engine %q: this app links no %s engine (for Temporal, pass temporal.ServeOption() of package github.com/gomastra/mastra/temporal to serve.Main)", cfg.Engine, scheme)
}

// App is a built app as an extension sees it.
type App struct {
	Mastra *mastra.Mastra
	Env    Env
	// Config is what the app is served with (host, port, storage).
	Config Config
}

// A Mount is what an extension serves beside the API.
type Mount struct {
	// Routes are mounted beside Mastra's API routes.
	Routes []server.Route
	// Summary, when set, describes what is served for the start-up
	// summary, given the server's base URL ("http://127.0.0.1:4111"):
	// one line, such as "MCP  http://…/api/mcp/mastra/mcp  (6 tools)".
	Summary func(baseURL string) string
	// Close, when set, releases what the routes hold; it runs after the
	// server has stopped.
	Close func()
}

// Option configures Main, Command and Run: the storage drivers and
// extensions the app links.
type Option func(*Config)

// WithStorage lets the app open the storage URLs d opens, besides SQLite
// (which every app can): serve.WithStorage(postgres.Driver) for
// postgres:// URLs.
func WithStorage(d storage.Driver) Option {
	return func(c *Config) { c.Drivers = append(c.Drivers, d) }
}

// WithExtension adds e to what the app serves.
func WithExtension(e Extension) Option {
	return func(c *Config) { c.Extensions = append(c.Extensions, e) }
}
