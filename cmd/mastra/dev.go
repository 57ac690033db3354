package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cobra"
)

// appOptions say which Go main package the dev server is and where it
// listens.
type appOptions struct {
	dir  string
	host string
	port string
}

func (o *appOptions) flags(c *cobra.Command) {
	c.Flags().StringVar(&o.dir, "dir", ".", "the Go main package of the Mastra app")
	c.Flags().StringVar(&o.host, "host", "", "the address to listen on (env HOST, default 127.0.0.1)")
	c.Flags().StringVar(&o.port, "port", "", "the port to listen on (env PORT, default 4111)")
}

// env is the app's environment: PORT and HOST as the flags or the
// environment say, defaulting to 127.0.0.1:4111 as Mastra's dev server.
func (o *appOptions) env() []string {
	host, port := o.host, o.port
	if host == "" {
		host = os.Getenv("HOST")
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = os.Getenv("PORT")
	}
	if port == "" {
		port = "4111"
	}
	return append(os.Environ(), "HOST="+host, "PORT="+port)
}

func init() {
	var o appOptions
	dev := &cobra.Command{
		Use:   "dev",
		Short: "Build and run the Mastra app, rebuilding and restarting it when its Go sources change",
		Long: "dev builds the Go main package given by --dir (default: the current directory), runs it with\n" +
			"HOST and PORT set (default 127.0.0.1:4111), and watches its module's .go files, go.mod and go.sum:\n" +
			"a change rebuilds and restarts the app. A build error is shown and the previous app keeps running.",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return dev(ctx, o, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	o.flags(dev)
	var so appOptions
	start := &cobra.Command{
		Use:   "start",
		Short: "Build and run the Mastra app once, without watching its sources",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return startOnce(ctx, so, c.OutOrStdout(), c.ErrOrStderr())
		},
	}
	so.flags(start)
	rootCmd.AddCommand(dev, start)
}

// app is a running app process.
type app struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func launch(o appOptions, bin string, stdout, stderr io.Writer) (*app, error) {
	cmd := exec.Command(bin)
	cmd.Dir = o.dir
	cmd.Env = o.env()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	a := &app{cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(a.done)
	}()
	return a, nil
}

// stop asks the app to shut down (SIGTERM: it lets in-flight requests
// finish) and kills it if it has not after 10 s.
func (a *app) stop() {
	if a == nil {
		return
	}
	_ = a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		_ = a.cmd.Process.Kill()
		<-a.done
	}
}

func startOnce(ctx context.Context, o appOptions, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "mastra-start-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "app")
	if err := build(ctx, o, bin, stderr); err != nil {
		return err
	}
	a, err := launch(o, bin, stdout, stderr)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		a.stop()
	case <-a.done:
	}
	return nil
}

// dev builds, runs, watches and restarts until ctx ends.
func dev(ctx context.Context, o appOptions, stdout, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "mastra-dev-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root, err := moduleRoot(o.dir)
	if err != nil {
		return err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := watchTree(w, root); err != nil {
		return err
	}
	var running *app
	generation := 0
	rebuild := func() {
		generation++
		bin := filepath.Join(tmp, fmt.Sprintf("app-%d", generation))
		if err := build(ctx, o, bin, stderr); err != nil {
			if running != nil {
				fmt.Fprintln(stderr, "mastra: keeping the previous build running; fix the error and save")
			}
			return
		}
		running.stop()
		a, err := launch(o, bin, stdout, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "mastra: starting the app: %v\n", err)
			return
		}
		running = a
	}
	rebuild()
	defer func() { running.stop() }()
	var debounce <-chan time.Time
	for {
		var exited <-chan struct{}
		if running != nil {
			exited = running.done
		}
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&fsnotify.Create != 0 {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					_ = watchTree(w, ev.Name)
				}
			}
			if relevant(ev.Name) {
				debounce = time.After(200 * time.Millisecond)
			}
		case err, ok := <-w.Errors:
			if ok {
				fmt.Fprintf(stderr, "mastra: watching: %v\n", err)
			}
		case <-debounce:
			debounce = nil
			fmt.Fprintln(stderr, "mastra: sources changed, rebuilding")
			rebuild()
		case <-exited:
			fmt.Fprintln(stderr, "mastra: the app exited; waiting for a change")
			running = nil
		}
	}
}

// relevant reports whether a changed file should rebuild the app.
func relevant(name string) bool {
	base := filepath.Base(name)
	return strings.HasSuffix(base, ".go") || base == "go.mod" || base == "go.sum"
}

// watchTree watches dir and its subdirectories, skipping hidden ones,
// testdata and vendor.
func watchTree(w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != dir && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules") {
			return filepath.SkipDir
		}
		return w.Add(path)
	})
}

// moduleRoot is the directory of the go.mod above dir.
func moduleRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("mastra: no go.mod above " + abs)
		}
	}
}
