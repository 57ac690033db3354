package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// `mastra mcp --dir <app>` builds the app and speaks MCP on stdio.
func TestMCPServesTheAppOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an app")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := filepath.Join(repoRoot(t), "examples", "httpbench", "calcserver")
	clientOut, serverIn := io.Pipe()
	serverOut, clientIn := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveMCP(ctx, appOptions{dir: dir}, ":memory:", clientOut, clientIn, io.Discard)
		clientIn.Close()
	}()
	lines := bufio.NewScanner(serverOut)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(serverIn, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func() string {
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if got := read(); !strings.Contains(got, `"serverInfo"`) {
		t.Fatalf("initialize: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}`)
	if got := read(); !strings.Contains(got, `\"sum\":5`) && !strings.Contains(got, `"sum":5`) {
		t.Errorf("tools/call: %s", got)
	}
	serverIn.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcp: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("mastra mcp did not end when stdin closed")
	}
}
