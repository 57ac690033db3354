package serve_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

// An app opens only the storages it links: a postgres:// URL without the
// PostgreSQL driver says what to link, and never echoes the password.
func TestOpenNeedsTheDriverOfTheURL(t *testing.T) {
	_, err := serve.Open(context.Background(), "postgres://app:hunter2@127.0.0.1:1/db")
	if err == nil || !strings.Contains(err.Error(), "serve.WithStorage(postgres.Driver)") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("postgres without its driver: %v", err)
	}
	if _, err := serve.Open(context.Background(), "redis://127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "no driver for redis://") {
		t.Errorf("an unknown scheme: %v", err)
	}
	opened := ""
	fake := storage.Driver{Name: "Fake", Schemes: []string{"fake"}, Open: func(ctx context.Context, url string) (storage.Store, error) {
		opened = url
		return sqlite.Open(ctx, ":memory:")
	}}
	s, err := serve.Open(context.Background(), "fake://x", fake)
	if err != nil || opened != "fake://x" {
		t.Fatalf("a linked driver: %v (opened %q)", err, opened)
	}
	s.Close()
	s, err = serve.Open(context.Background(), ":memory:", fake)
	if err != nil || opened != "fake://x" {
		t.Fatalf("a path with another driver linked goes to SQLite: %v", err)
	}
	s.Close()
}

// `myapp mcp` in an app without the MCP server says what to link.
func TestCommandMCPWithoutTheExtension(t *testing.T) {
	var stderr strings.Builder
	code := serve.Command([]string{"mcp"}, func(string) string { return "" }, &stderr, nil)
	if code != 2 || !strings.Contains(stderr.String(), "mcpserver.ServeOption()") {
		t.Errorf("mcp without the extension: %d %q", code, stderr.String())
	}
}

// An extension's mode runs instead of the server, on the built app.
func TestCommandRunsAnExtensionsMode(t *testing.T) {
	var ran []string
	ext := serve.Extension{Name: "echo", Mode: "echo", RunMode: func(_ context.Context, app serve.App, _ io.Reader, _ io.Writer) error {
		for key := range app.Mastra.ListTools() {
			ran = append(ran, key)
		}
		return errors.New("done")
	}}
	var stderr strings.Builder
	code := serve.Command([]string{"echo", "-storage", ":memory:"}, func(string) string { return "" }, &stderr, addApp, serve.WithExtension(ext))
	if code != 1 || !strings.Contains(stderr.String(), "mastra: done") || len(ran) != 1 || ran[0] != "add" {
		t.Errorf("mode: %d %q %v", code, stderr.String(), ran)
	}
}

// The start-up summary says what is served where, once, and prints
// nothing else on a clean start.
func TestRunWritesTheSummary(t *testing.T) {
	var summary, logs strings.Builder
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: ":memory:", Summary: &summary, Ready: func(a string) { ready <- a }},
			func(string) string { return "" }, slog.New(slog.NewTextHandler(&logs, nil)), addApp)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := "mastra: serving on http://" + addr + " (storage :memory:)\n" +
		"  studio  http://" + addr + "/\n" +
		"  API     http://" + addr + "/api  (1 tool, 0 agents, 0 workflows)\n" +
		"  chat    http://" + addr + "/chat/{agentId}  (AI SDK useChat)\n"
	if summary.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", summary.String(), want)
	}
	if logs.String() != "" {
		t.Errorf("logs on a clean start: %s", logs.String())
	}
}

func addApp(_ context.Context, _ serve.Env) (*mastra.Mastra, error) {
	add := tools.New(tools.Config[in, out]{ID: "add", Description: "Adds two numbers", Execute: func(_ tools.Context, v in) (out, error) { return out{Sum: v.A + v.B}, nil }})
	return mastra.New(mastra.Config{Tools: tools.Set{"add": add}}), nil
}
