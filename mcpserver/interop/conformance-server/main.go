// Command conformance-server serves the conformance suite's server (see
// package conformance) over streamable HTTP at /mcp, or over stdio:
//
//	go run ./mcpserver/interop/conformance-server -addr 127.0.0.1:3001
//	npx conformance server --url http://127.0.0.1:3001/mcp
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/mcpserver/interop/conformance"
)

func main() {
	addr := flag.String("addr", "", "serve streamable HTTP at this address (path /mcp); stdio when empty")
	stateless := flag.Bool("stateless", false, "serve HTTP without sessions")
	flag.Parse()
	if err := run(*addr, *stateless); err != nil {
		fmt.Fprintln(os.Stderr, "conformance-server:", err)
		os.Exit(1)
	}
}

func run(addr string, stateless bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := conformance.New(conformance.Options{Logger: log, HTTP: mcpserver.HTTPOptions{Stateless: stateless}})
	if err != nil {
		return err
	}
	defer srv.Close()
	if addr == "" {
		return srv.Run(ctx)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler())
	hs := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	fmt.Fprintf(os.Stderr, "conformance-server: listening on http://%s/mcp\n", addr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
