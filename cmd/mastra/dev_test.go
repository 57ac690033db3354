package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const devApp = `package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	fmt.Println("VERSION", os.Getenv("HOST"), os.Getenv("PORT"))
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, os.Interrupt)
	<-c
	fmt.Println("STOPPED")
}
`

// TestDevRebuildsAndRestartsOnChange runs `mastra dev` on a small module:
// the app starts with HOST and PORT, a saved change rebuilds and restarts
// it (the old one stopped with SIGTERM), a build error keeps the running
// app and is reported, and fixing it restarts.
func TestDevRebuildsAndRestartsOnChange(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module devapp\n\ngo 1.22\n")
	write("main.go", strings.Replace(devApp, "VERSION", "v1", 1))
	out, outW := io.Pipe()
	var stderr strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- dev(ctx, appOptions{dir: dir, host: "127.0.0.1", port: "4999"}, outW, &lockedWriter{b: &stderr})
		outW.Close()
	}()
	lines := bufio.NewScanner(out)
	expect := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		t.Fatalf("the app never printed %q; stderr:\n%s", want, stderr.String())
	}
	expect("v1 127.0.0.1 4999")
	write("main.go", strings.Replace(devApp, "VERSION", "v2", 1))
	expect("STOPPED")
	expect("v2 127.0.0.1 4999")
	write("main.go", "package main\n\nfunc main() { broken }\n")
	time.Sleep(time.Second) // let the broken build run (the app keeps running meanwhile)
	write("main.go", strings.Replace(devApp, "VERSION", "v3", 1))
	expect("STOPPED")
	expect("v3 127.0.0.1 4999")
	// Keep reading: the app prints on its way out, and a pipe nobody reads
	// would block it (and dev, which waits for it).
	go func() { _, _ = io.Copy(io.Discard, out) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := stderr.String(); !strings.Contains(s, "build failed") || !strings.Contains(s, "keeping the previous build running") {
		t.Errorf("the build error was not reported:\n%s", s)
	}
}

func TestDevHelpers(t *testing.T) {
	for name, want := range map[string]bool{"a.go": true, "go.mod": true, "go.sum": true, "README.md": false, "x.go~": false} {
		if relevant(name) != want {
			t.Errorf("relevant(%q) = %v", name, !want)
		}
	}
	if root, err := moduleRoot("."); err != nil || !strings.HasSuffix(root, string(filepath.Separator)+"main") && filepath.Base(root) == "" {
		t.Errorf("moduleRoot: %q %v", root, err)
	}
	env := (&appOptions{}).env()
	if hp := hostPort(env); hp[0] == "" || hp[1] == "" {
		t.Errorf("default host and port: %v", hp)
	}
}

// lockedWriter serialises writes to a strings.Builder (tests read it
// while the app's output goes on).
type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// hostPort reads HOST and PORT from env.
func hostPort(env []string) []string {
	var host, port string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOST="); ok {
			host = v
		}
		if v, ok := strings.CutPrefix(kv, "PORT="); ok {
			port = v
		}
	}
	return []string{host, port}
}
