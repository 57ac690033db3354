package mcpserver_test

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
	"github.com/gomastra/mastra/mcpserver"
	"github.com/gomastra/mastra/serve"
	"github.com/gomastra/mastra/tools"
)

type in struct {
	A int `json:"a"`
	B int `json:"b"`
}
type out struct {
	Sum int `json:"sum"`
}

func addApp(_ context.Context, _ serve.Env) (*mastra.Mastra, error) {
	add := tools.New(tools.Config[in, out]{ID: "add", Description: "Adds two numbers", Execute: func(_ tools.Context, v in) (out, error) { return out{Sum: v.A + v.B}, nil }})
	return mastra.New(mastra.Config{Tools: tools.Set{"add": add}}), nil
}

// withMCP is a serve.Config with ServeOption applied.
func withMCP(cfg serve.Config) serve.Config {
	mcpserver.ServeOption()(&cfg)
	return cfg
}

// `myapp mcp` serves the registry over stdin/stdout: a client initializes,
// lists the tools and calls one.
func TestServeOptionServesStdio(t *testing.T) {
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		cfg := withMCP(serve.Config{StorageURL: ":memory:"})
		done <- serve.RunMode(ctx, cfg, func(string) string { return "" }, slog.New(slog.DiscardHandler), addApp, cfg.Extensions[0], clientOut, clientIn)
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

// The dev server lists the registry as an MCP server at Mastra's routes,
// and says so in its start-up summary.
func TestServeOptionMountsTheRegistry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var summary, logs strings.Builder
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, withMCP(serve.Config{Host: "127.0.0.1", Port: "0", StorageURL: ":memory:", NoStudio: true, Summary: &summary, Ready: func(a string) { ready <- a }}),
			func(string) string { return "" }, slog.New(slog.NewTextHandler(&logs, nil)), addApp)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-done
		}
	}
	defer stop()
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
	if want := "/api/mcp/mastra/mcp  (1 MCP tool: 1 tool, 0 agents as ask_<key>, 0 workflows as run_<key>)"; !strings.Contains(summary.String(), want) {
		t.Errorf("summary %q lacks %q", summary.String(), want)
	}
	// On 127.0.0.1 nothing is worth a warning.
	stop()
	if logs.String() != "" {
		t.Errorf("logs: %s", logs.String())
	}
}
