// Command httpbench measures gomastra's HTTP server the way the Mastra
// anchor's bench/http-tool-exec.mjs measures Mastra's, and with -anchor
// measures Mastra's too, side by side.
//
//	go run ./examples/httpbench                       # the Go server
//	go run ./examples/httpbench -anchor DIR -n 5000   # and Mastra's
//
// It builds the Go server (package calcserver: package app, the
// anchor's add tool and calc-agent on a scripted model, served by
// package serve with -storage :memory:) into a temporary directory, and
// for each server:
//
//   - starts it -starts times on a free 127.0.0.1 port and times process
//     spawn → first 200 from GET /api/tools (the median is reported);
//   - reads the process's RSS (VmRSS) once idle (-settle after start);
//   - sends -n requests cycling through the four below, reading the RSS
//     after every -every of them;
//   - times the four requests of http-tool-exec.mjs one after another
//     on a keep-alive connection, after a warm-up of min(200, n): POST
//     /api/tools/add/execute and GET /api/tools n times each, agent
//     generate and agent stream (SSE drained) min(n, 300) times each;
//     each answer is checked; then GET /health the same way, the round
//     trip of the HTTP stack alone (not one of the anchor's requests);
//   - reads the RSS again and its peak (VmHWM).
//
// DIR is a copy of shared/anchor-mastra with its node_modules installed
// (its setup.sh); it is run as `node server/server.mjs` with PORT, the
// copy's Node 22 first on PATH and MASTRA_TELEMETRY_DISABLED=1. The table
// goes to stdout, progress to stderr; -json FILE writes the figures
// ("-": stdout, in place of the table). Only 127.0.0.1 is ever dialled.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the program: it returns the exit status (0 done, 1 failed, 2
// bad flags).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("httpbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts options
	fs.IntVar(&opts.n, "n", 5000, "requests in the load phase and per latency measurement (agent runs: at most 300)")
	fs.IntVar(&opts.starts, "starts", 5, "server starts timed (the median is reported)")
	fs.IntVar(&opts.every, "every", 1000, "load requests between two RSS readings")
	fs.DurationVar(&opts.settle, "settle", time.Second, "pause between start and the idle RSS reading")
	anchor := fs.String("anchor", "", "an installed copy of anchor-mastra: measure Mastra's server too")
	jsonOut := fs.String("json", "", `write the figures as JSON to this file ("-": stdout)`)
	goCmd := fs.String("go", "go", "the go command that builds the Go server")
	agentStorage := fs.Bool("agent-storage", false, "keep calc-agent's runs in the Go server's (in-memory SQLite) storage")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "httpbench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if err := opts.check(); err != nil {
		fmt.Fprintln(stderr, "httpbench:", err)
		return 2
	}
	rep, err := bench(ctx, *goCmd, *anchor, *agentStorage, opts, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "httpbench:", err)
		return 1
	}
	if *jsonOut != "-" {
		if err := printTable(stdout, rep.Servers); err != nil {
			fmt.Fprintln(stderr, "httpbench:", err)
			return 1
		}
	}
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, stdout, rep); err != nil {
			fmt.Fprintln(stderr, "httpbench:", err)
			return 1
		}
	}
	return 0
}

// bench builds and measures the Go server, then Mastra's when anchorDir
// is set.
func bench(ctx context.Context, goCmd, anchorDir string, agentStorage bool, opts options, progress io.Writer) (*Report, error) {
	var mastraLaunch launcher
	if anchorDir != "" {
		l, err := mastraLauncher(anchorDir)
		if err != nil {
			return nil, err
		}
		mastraLaunch = l
	}
	dir, err := os.MkdirTemp("", "httpbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintln(progress, "building the Go server...")
	bin, err := buildGoServer(ctx, goCmd, dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{N: opts.n}
	fig, err := measure(ctx, "gomastra", goLauncher(bin, agentStorage), opts, progress)
	if err != nil {
		return nil, err
	}
	rep.Servers = append(rep.Servers, fig)
	if mastraLaunch != nil {
		fig, err := measure(ctx, "mastra", mastraLaunch, opts, progress)
		if err != nil {
			return nil, err
		}
		rep.Servers = append(rep.Servers, fig)
	}
	return rep, nil
}
