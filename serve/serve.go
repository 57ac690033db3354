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
// -port / PORT (default 4111), -storage / MASTRA_STORAGE_URL (a SQLite
// file, default .mastra/mastra.db; ":memory:"; or a postgres:// URL),
// -token / MASTRA_AUTH_TOKEN (a bearer token the API then requires),
// -studio / MASTRA_STUDIO (the dev studio at "/", default true),
// -recover / MASTRA_RECOVER_RUNS (finish at start the runs a dead process
// left running; default on for SQLite, off for PostgreSQL).
//
// The registry is also an MCP server (package mcpserver): over streamable
// HTTP at /api/mcp/<id>/mcp, and over stdin/stdout when the first
// argument is "mcp" (`myapp mcp -storage …`, what `mastra mcp` runs). Its
// id is MASTRA_MCP_ID (default "mastra"); MASTRA_MCP_REQUEST_STATE_KEY
// signs suspended calls' state across instances.
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
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/server"
	"github.com/gomastra/mastra/server/aisdk"
	"github.com/gomastra/mastra/server/studio"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/postgres"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/workflows"
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
	// StorageURL is a SQLite path, ":memory:", or a postgres:// URL.
	StorageURL string
	// Token, when set, is the bearer token the API requires.
	Token string
	// Recover finishes, at start, the runs a dead process left running
	// (agents' and workflows'). Right when this process is the only one
	// using the storage (the SQLite default); off by default for
	// PostgreSQL, where another live process may own those runs.
	Recover bool
	// NoStudio turns off the dev studio (package server/studio) served at
	// "/" beside the API.
	NoStudio bool
	// ShutdownGrace bounds how long in-flight requests may take after a
	// stop is asked (default 10 s); their contexts are then canceled.
	ShutdownGrace time.Duration
	// Stdin and Stdout carry the MCP protocol in ServeMCP (default the
	// process's own).
	Stdin  io.Reader
	Stdout io.Writer
	// Ready, when set, is called with the address once listening.
	Ready func(addr string)
}

// Main parses the flags and environment, runs the app and exits: 0 after
// a clean stop (SIGINT or SIGTERM), 1 on an error, 2 on bad flags.
func Main(build Build) {
	os.Exit(Command(os.Args[1:], os.Getenv, os.Stderr, build))
}

// Command is Main without exiting, for tests.
func Command(args []string, getenv func(string) string, stderr io.Writer, build Build) int {
	serveMCP := len(args) > 0 && args[0] == "mcp"
	if serveMCP {
		args = args[1:]
	}
	fs := flag.NewFlagSet("mastra-app", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := Config{}
	fs.StringVar(&cfg.Host, "host", or(getenv("HOST"), "127.0.0.1"), "address to listen on (env HOST)")
	fs.StringVar(&cfg.Port, "port", or(getenv("PORT"), "4111"), "port to listen on (env PORT)")
	fs.StringVar(&cfg.StorageURL, "storage", or(getenv("MASTRA_STORAGE_URL"), ".mastra/mastra.db"), "SQLite file, :memory:, or postgres:// URL (env MASTRA_STORAGE_URL)")
	fs.StringVar(&cfg.Token, "token", getenv("MASTRA_AUTH_TOKEN"), "bearer token the API requires (env MASTRA_AUTH_TOKEN)")
	studioFlag := fs.String("studio", or(getenv("MASTRA_STUDIO"), "true"), `serve the dev studio at "/": "true" or "false" (env MASTRA_STUDIO)`)
	recoverRuns := fs.String("recover", getenv("MASTRA_RECOVER_RUNS"), `finish runs a dead process left running: "true" or "false" (env MASTRA_RECOVER_RUNS; default true for SQLite, false for PostgreSQL)`)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.NoStudio = *studioFlag == "false" || *studioFlag == "0"
	cfg.Recover = !isPostgres(cfg.StorageURL)
	if *recoverRuns != "" {
		cfg.Recover = *recoverRuns == "true" || *recoverRuns == "1"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	run := Run
	if serveMCP {
		run = ServeMCP
	}
	if err := run(ctx, cfg, getenv, log, build); err != nil {
		fmt.Fprintf(stderr, "mastra: %v\n", err)
		return 1
	}
	return 0
}

// Run opens the storage, builds the app and serves it (server.Serve):
// Mastra's API under /api, the AI SDK chat route at POST /chat/{agentId}
// (sub-agent runs included as data-tool-agent parts) and, unless
// cfg.NoStudio, the dev studio at "/" — until ctx ends, then shuts down gracefully: no new connections,
// in-flight requests get ShutdownGrace, suspended runs stay in storage.
func Run(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build) error {
	m, closeStore, err := openApp(ctx, cfg, getenv, log, build)
	if err != nil {
		return err
	}
	defer closeStore()
	if cfg.Recover {
		done := recoverRuns(ctx, m, log)
		defer done()
	}
	mcp, closeMCP := mcpRoutes(m, getenv, log)
	defer closeMCP()
	opts := server.Options{BearerToken: cfg.Token, Logger: log,
		// The AI SDK chat route (Mastra's chatRoute), for useChat front
		// ends, and the registry as an MCP server.
		Routes: append([]server.Route{aisdk.ChatRoute(m, aisdk.ChatRouteOptions{Chat: aisdk.ChatOptions{Stream: aisdk.StreamOptions{IncludeSubAgentMetadata: true}}})}, mcp...),
	}
	if !cfg.NoStudio {
		opts.Studio = studio.Handler(studio.Options{})
	}
	return server.Serve(ctx, m, server.ServeOptions{
		Addr:          net.JoinHostPort(cfg.Host, cfg.Port),
		Options:       opts,
		ShutdownGrace: cfg.ShutdownGrace,
		Ready: func(addr net.Addr) {
			log.Info("mastra: serving", "url", "http://"+addr.String(), "storage", cfg.StorageURL)
			if cfg.Ready != nil {
				cfg.Ready(addr.String())
			}
		},
	})
}

// openApp opens the storage cfg names and builds the app on it;
// closeStore closes the storage.
func openApp(ctx context.Context, cfg Config, getenv func(string) string, log *slog.Logger, build Build) (m *mastra.Mastra, closeStore func(), err error) {
	store, err := Open(ctx, cfg.StorageURL)
	if err != nil {
		return nil, nil, err
	}
	m, err = build(ctx, Env{Storage: store, Logger: log, Getenv: getenv})
	if err != nil {
		_ = store.Close()
		return nil, nil, fmt.Errorf("building the app: %w", err)
	}
	return m, func() { _ = store.Close() }, nil
}

// recoverRuns finishes in the background the runs a dead process left
// running, and returns a function that waits for them.
func recoverRuns(ctx context.Context, m *mastra.Mastra, log *slog.Logger) func() {
	var wg sync.WaitGroup
	for key, a := range m.ListAgents() {
		runs, _, err := a.ListRunningRuns(ctx, agent.SuspendedRunsFilter{})
		if err != nil {
			log.Warn("mastra: listing interrupted runs", "agent", key, "err", err)
			continue
		}
		for _, r := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := a.ResumeGenerate(ctx, r.RunID, nil)
				if err != nil {
					log.Warn("mastra: recovering a run", "agent", key, "runId", r.RunID, "err", err)
					return
				}
				log.Info("mastra: recovered a run", "agent", key, "runId", r.RunID, "finishReason", out.FinishReason)
			}()
		}
	}
	for key, w := range m.ListWorkflows() {
		runs, err := w.ListRuns(ctx, workflows.StatusRunning)
		if err != nil {
			log.Warn("mastra: listing interrupted runs", "workflow", key, "err", err)
			continue
		}
		for _, stored := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run, err := w.LoadRun(ctx, stored.RunID)
				if err == nil {
					var res *workflows.Result
					if res, err = run.Resume(ctx, workflows.ResumeOptions{}); err == nil {
						log.Info("mastra: recovered a run", "workflow", key, "runId", stored.RunID, "status", res.Status)
						return
					}
				}
				log.Warn("mastra: recovering a run", "workflow", key, "runId", stored.RunID, "err", err)
			}()
		}
	}
	return wg.Wait
}

func isPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// Open opens a store from a URL: postgres:// or postgresql:// for
// PostgreSQL, anything else a SQLite file path (or ":memory:").
func Open(ctx context.Context, url string) (storage.Store, error) {
	if isPostgres(url) {
		return postgres.Open(ctx, url)
	}
	return sqlite.Open(ctx, url)
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
