package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/tools"
)

func addApp(_ context.Context, _ serve.Env) (*mastra.Mastra, error) {
	add := tools.New(tools.Config[in, out]{ID: "add", Description: "Adds two numbers", Execute: func(_ tools.Context, v in) (out, error) { return out{Sum: v.A + v.B}, nil }})
	return mastra.New(mastra.Config{Tools: map[string]*tools.Tool{"add": add}}), nil
}

// `myapp mcp` serves the registry over stdin/stdout: a client initializes,
// lists the tools and calls one.
func TestServeMCPOverStdio(t *testing.T) {
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- serve.ServeMCP(ctx, serve.Config{StorageURL: ":memory:", Stdin: clientOut, Stdout: clientIn},
			func(string) string { return "" }, slog.New(slog.DiscardHandler), addApp)
		clientIn.Close()
	}()
	lines := bufio.NewScanner(serverOut)
	call := func(req string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(serverIn, req+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s: %v", req, lines.Err())
		}
		var resp map[string]any
		if err := json.Unmarshal(lines.Bytes(), &resp); err != nil {
			t.Fatalf("%s: %v", lines.Bytes(), err)
		}
		return resp
	}
	init := call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if info, _ := init["result"].(map[string]any)["serverInfo"].(map[string]any); info["name"] != "mastra" {
		t.Fatalf("initialize: %v", init)
	}
	if _, err := io.WriteString(serverIn, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	list := call(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if b, _ := json.Marshal(list); !strings.Contains(string(b), `"name":"add"`) {
		t.Errorf("tools/list: %s", b)
	}
	res := call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`)
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"sum":5`) {
		t.Errorf("tools/call: %s", b)
	}
	serverIn.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeMCP: %v", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("ServeMCP did not end when stdin closed")
	}
}

// The dev server lists the registry as an MCP server at Mastra's routes.
func TestRunServesTheRegistryOverMCP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: ":memory:", NoStudio: true, Ready: func(a string) { ready <- a }},
			func(string) string { return "" }, slog.New(slog.DiscardHandler), addApp)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() {
		cancel()
		<-done
	}()
	for path, want := range map[string]string{
		"/api/mcp/v0/servers":   `"mastra"`,
		"/api/mcp/mastra/tools": `"add"`,
	} {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s: %d %s", path, res.StatusCode, b)
		}
	}
}
