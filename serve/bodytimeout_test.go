package serve_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
)

// serveEmpty runs an empty app with cfg on 127.0.0.1 and returns its
// address; the server stops at the test's end.
func serveEmpty(t *testing.T, cfg serve.Config) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	cfg.Host, cfg.Port, cfg.StorageURL, cfg.NoStudio = "127.0.0.1", "0", ":memory:", true
	cfg.Ready = func(a string) { ready <- a }
	go func() {
		done <- serve.Run(ctx, cfg, func(string) string { return "" }, slog.New(slog.DiscardHandler),
			func(context.Context, serve.Env) (*mastra.Mastra, error) { return mastra.New(mastra.Config{}), nil })
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-ready:
		return a
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// TestRunCutsSlowBodies: a client that sends its headers, then a body
// byte every 50 ms, is answered 408 once Config.BodyTimeout is over.
func TestRunCutsSlowBodies(t *testing.T) {
	addr := serveEmpty(t, serve.Config{BodyTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	dl, _ := ctx.Deadline()
	_ = conn.SetDeadline(dl)
	if _, err := io.WriteString(conn, "POST /api/tools/x/execute HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	go func() {
		for ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
			if _, err := io.WriteString(conn, " "); err != nil {
				return
			}
		}
	}()
	line, err := bufio.NewReader(conn).ReadString('\n')
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("neither answered nor closed within 20 s: %v", err)
	}
	if err == nil && !strings.Contains(line, " 408 ") {
		t.Errorf("answered %q", line)
	}
}
