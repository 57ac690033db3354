// Package serve is the entry point of a gomastra app: a main of a few
// lines opens the storage, builds the app on it and serves Mastra's API
// until it is told to stop.
//
//	func main() {
//		serve.Main(func(ctx context.Context, env serve.Env) (*mastra.Mastra, error) {
//			return myapp.New(env.Storage)
//		})
//	}
//
// Flags and environment (flags win): -host / HOST (default 127.0.0.1),
// -port / PORT (default 4111), -body-timeout / MASTRA_BODY_TIMEOUT (the
// time a client may take to send a request body, default 60s, 0 for no
// limit), -storage / MASTRA_STORAGE_URL (a SQLite
// file, default .mastra/mastra.db, or ":memory:"; other URLs with the
// driver given to WithStorage, such as postgres:// with
// serve.WithStorage(postgres.Driver)), -token / MASTRA_AUTH_TOKEN (a
// bearer token the API then requires), -studio / MASTRA_STUDIO (the dev
// studio at "/", default true), -recover / MASTRA_RECOVER_RUNS (finish at
// start the runs a dead process left running; default on for SQLite,
// which one process owns, off for shared storages such as PostgreSQL).
//
// An app links only what it names: SQLite always, other storages through
// WithStorage, and extensions such as the MCP server
// (mcpserver.ServeOption, which also answers `myapp mcp`, what `mastra
// mcp` runs) through WithExtension.
package serve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/server/studio"
	"github.com/gomastra/mastra/storage"
)

// Env is what an app is built with.
type Env struct {
	// Storage is the opened store (closed by Main on exit).
	Storage storage.Store
	// Logger logs to stderr.
	Logger *slog.Logger
	// Getenv reads the environment.
	Getenv func(string) string
}

// Build builds the app on its environment.
type Build func(ctx context.Context, env Env) (*mastra.Mastra, error)

// Config is what Run needs besides the app.
type Config struct {
	Host, Port string
	// StorageURL is a SQLite path, ":memory:", or a URL one of Drivers
	// opens.
	StorageURL string
	// Drivers open storage URLs besides SQLite's paths (WithStorage).
	Drivers []storage.Driver
	// Extensions serve more than Mastra's API (WithExtension).
	Extensions []Extension
	// Token, when set, is the bearer token the API requires.
	Token string
	// Engine is where the app's agent runs run: empty for this process,
	// else a URL whose scheme an extension runs (Extension.Engine), such
	// as temporal://127.0.0.1:7233/default with the temporal module's
	// ServeOption.
	Engine string
	// Recover finishes, at start, the runs a dead process left running
	// (agents' and workflows'). Right when this process is the only one
	// using the storage (the SQLite default); off by default for shared
	// storages, where another live process may own those runs.
	Recover bool
	// NoStudio turns off the dev studio (package server/studio) served at
	// "/" beside the API.
	NoStudio bool
	// ShutdownGrace bounds how long in-flight requests may take after a
	// stop is asked (default 10 s); their contexts are then canceled.
	ShutdownGrace time.Duration
	// BodyTimeout bounds the time a client may take to send a request
	// body (server.Options.BodyReadTimeout: default 60 s, negative for
	// none); it never cuts a response, a long stream included.
	BodyTimeout time.Duration
	// Summary, when set, receives the start-up summary once the server
	// listens: its URL and what is served where (studio, API, chat route,
	// extensions).
	Summary io.Writer
	// Ready, when set, is called with the address once listening.
	Ready func(addr string)
}

// Main parses the flags and environment, runs the app and exits: 0 after
// a clean stop (SIGINT or SIGTERM), 1 on an error, 2 on bad flags.
func Main(build Build, opts ...Option) {
	os.Exit(Command(os.Args[1:], os.Getenv, os.Stderr, build, opts...))
}

// Command is Main without exiting, for tests. A first argument that is
// an extension's Mode ("mcp") runs that mode on the process's stdin and
// stdout instead of the server.
func Command(args []string, getenv func(string) string, stderr io.Writer, build Build, opts ...Option) int {
	cfg := Config{}
	for _, o := range opts {
		o(&cfg)
	}
	mode, args, err := modeOf(args, cfg.Extensions)
	if err != nil {
		fmt.Fprintf(stderr, "mastra: %v\n", err)
		return 2
	}
	if code := parseFlags(args, getenv, stderr, &cfg); code >= 0 {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if mode != nil {
		err = RunMode(ctx, cfg, getenv, log, build, *mode, os.Stdin, os.Stdout)
	} else {
		cfg.Summary = stderr
		err = Run(ctx, cfg, getenv, log, build)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mastra: %v\n", err)
		return 1
	}
	return 0
}

// parseFlags fills cfg from args and the environment. It returns the exit
// code when the command should stop (0 after -h, 2 on a bad flag), else -1.
func parseFlags(args []string, getenv func(string) string, stderr io.Writer, cfg *Config) int {
	fs := flag.NewFlagSet("mastra-app", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Host, "host", or(getenv("HOST"), "127.0.0.1"), "address to listen on (env HOST)")
	fs.StringVar(&cfg.Port, "port", or(getenv("PORT"), "4111"), "port to listen on (env PORT)")
	fs.StringVar(&cfg.StorageURL, "storage", or(getenv("MASTRA_STORAGE_URL"), ".mastra/mastra.db"), storageUsage(cfg.Drivers))
	fs.StringVar(&cfg.Token, "token", getenv("MASTRA_AUTH_TOKEN"), "bearer token the API requires (env MASTRA_AUTH_TOKEN)")
	fs.StringVar(&cfg.Engine, "engine", getenv("MASTRA_ENGINE"), "where agent runs run: empty for this process, or an engine URL such as temporal://host:port/namespace (env MASTRA_ENGINE)")
	studioFlag := fs.String("studio", or(getenv("MASTRA_STUDIO"), "true"), `serve the dev studio at "/": "true" or "false" (env MASTRA_STUDIO)`)
	fs.DurationVar(&cfg.BodyTimeout, "body-timeout", envDuration(getenv("MASTRA_BODY_TIMEOUT"), server.DefaultBodyReadTimeout), "time a client may take to send a request body; 0 for no limit (env MASTRA_BODY_TIMEOUT)")
	recoverRuns := fs.String("recover", getenv("MASTRA_RECOVER_RUNS"), `finish runs a dead process left running: "true" or "false" (env MASTRA_RECOVER_RUNS; default true for SQLite, false for shared storages)`)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.BodyTimeout == 0 {
		cfg.BodyTimeout = -1 // server.Options: negative for none
	}
	cfg.NoStudio = *studioFlag == "false" || *studioFlag == "0"
	cfg.Recover = storage.Scheme(cfg.StorageURL) == ""
	if *recoverRuns != "" {
		cfg.Recover = *recoverRuns == "true" || *recoverRuns == "1"
	}
	return -1
}

// storageUsage is the -storage flag's help: SQLite and the linked drivers.
func storageUsage(drivers []storage.Driver) string {
	s := "SQLite file or :memory:"
	for _, d := range drivers {
		for _, scheme := range d.Schemes {
			s += ", or " + scheme + ":// URL (" + d.Name + ")"
		}
	}
	return s + " (env MASTRA_STORAGE_URL)"
}

// modeOf finds the extension whose Mode is args[0]; the rest of args are
// the mode's flags. "mcp" without an extension serving it is an error
// saying what to link.
func modeOf(args []string, exts []Extension) (*Extension, []string, error) {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		return nil, args, nil
	}
	for i := range exts {
		if exts[i].Mode == args[0] && exts[i].RunMode != nil {
			return &exts[i], args[1:], nil
		}
	}
	if args[0] == "mcp" {
		return nil, nil, errors.New("this app does not serve MCP: pass mcpserver.ServeOption() (package github.com/gomastra/mastra/mcpserver) to serve.Main")
	}
	return nil, nil, fmt.Errorf("unknown command %q (the app takes flags only; -h lists them)", args[0])
}

// Run opens the storage, builds the app and serves it (server.Serve):
// Mastra's API under /api, the AI SDK chat route at POST /chat/{agentId}
// (sub-agent runs included as data-tool-agent parts), what
// cfg.Extensions mount and, unless cfg.NoStudio, the dev studio at "/" —
// until ctx ends, then shuts down gracefully: no new connections,
// in-flight requests get ShutdownGrace, suspended runs stay in storage.
func Run(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build) error {
	if err := checkEngine(cfg); err != nil {
		return err
	}
	app, closeStore, err := openApp(ctx, cfg, getenv, log, build)
	if err != nil {
		return err
	}
	defer closeStore()
	if cfg.Recover {
		done := recoverRuns(ctx, app.Mastra, log)
		defer done()
	}
	mounts, err := mountExtensions(app)
	defer closeMounts(mounts)
	if err != nil {
		return err
	}
	opts := server.Options{BearerToken: cfg.Token, Logger: log, BodyReadTimeout: cfg.BodyTimeout,
		// The AI SDK chat route (Mastra's chatRoute), for useChat front ends.
		Routes: []server.Route{aisdk.ChatRoute(app.Mastra, aisdk.ChatRouteOptions{Chat: aisdk.ChatOptions{Stream: aisdk.StreamOptions{IncludeSubAgentMetadata: true}}})},
	}
	for _, m := range mounts {
		opts.Routes = append(opts.Routes, m.Routes...)
	}
	if !cfg.NoStudio {
		opts.Studio = studio.Handler(studio.Options{})
	}
	return server.Serve(ctx, app.Mastra, server.ServeOptions{
		Addr:          net.JoinHostPort(cfg.Host, cfg.Port),
		Options:       opts,
		ShutdownGrace: cfg.ShutdownGrace,
		Ready: func(addr net.Addr) {
			log.Debug("mastra: serving", "addr", addr.String(), "storage", cfg.StorageURL)
			if cfg.Summary != nil {
				writeSummary(cfg.Summary, app, addr, mounts)
			}
			if cfg.Ready != nil {
				cfg.Ready(addr.String())
			}
		},
	})
}

// RunMode opens the storage, builds the app and runs it as ext's mode
// (ext.RunMode) on stdin and stdout until ctx ends.
func RunMode(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build, ext Extension, stdin io.Reader, stdout io.Writer) error {
	if ext.RunMode == nil {
		return fmt.Errorf("%s has no mode to run", ext.Name)
	}
	if err := checkEngine(cfg); err != nil {
		return err
	}
	app, closeStore, err := openApp(ctx, cfg, getenv, log, build)
	if err != nil {
		return err
	}
	defer closeStore()
	return ext.RunMode(ctx, app, stdin, stdout)
}

// openApp opens the storage cfg names and builds the app on it;
// closeStore closes the storage.
func openApp(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build) (app App, closeStore func(), err error) {
	store, err := Open(ctx, cfg.StorageURL, cfg.Drivers...)
	if err != nil {
		return App{}, nil, err
	}
	env := Env{Storage: store, Logger: log, Getenv: getenv}
	m, err := build(ctx, env)
	if err != nil {
		_ = store.Close()
		return App{}, nil, fmt.Errorf("building the app: %w", err)
	}
	return App{Mastra: m, Env: env, Config: cfg}, func() { _ = store.Close() }, nil
}

// mountExtensions mounts each extension that has something to serve
// beside the API. On an error, the mounts made so far are returned too
// (for closeMounts).
func mountExtensions(app App) ([]*Mount, error) {
	var mounts []*Mount
	for _, e := range app.Config.Extensions {
		if e.Mount == nil {
			continue
		}
		m, err := e.Mount(app)
		if err != nil {
			return mounts, fmt.Errorf("%s: %w", e.Name, err)
		}
		if m != nil {
			mounts = append(mounts, m)
		}
	}
	return mounts, nil
}

func closeMounts(mounts []*Mount) {
	for _, m := range mounts {
		if m.Close != nil {
			m.Close()
		}
	}
}

// envDuration is v parsed as a time.Duration ("90s"), or def when v is
// empty or not a duration.
func envDuration(v string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(v); err == nil {
		return d
	}
	return def
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
