package mcpserver

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioChildEnv makes the test binary serve the fixture server on its
// stdin/stdout (the child process of TestStdioChildProcess).
const stdioChildEnv = "GOMASTRA_MCPSERVER_STDIO_CHILD"

func serveStdioChild() int {
	s, err := New(fixtureConfig(childTB{}))
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	if err := s.Run(context.Background()); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// childTB lets the fixture builders run outside a test.
type childTB struct{ testing.TB }

func (childTB) Helper()               {}
func (childTB) Fatal(args ...any)     { panic(args) }
func (childTB) Cleanup(f func())      {}
func (childTB) Fatalf(string, ...any) { panic("fixture failed") }

// The server over a real stdio pipe to a child process, driven by the SDK
// client's CommandTransport (as an MCP host launches `mastra mcp`), on the
// newest and the 2025-11-25 protocol.
func TestStdioChildProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, legacy := range []bool{false, true} {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), stdioChildEnv+"=1")
		cs, err := newClient(clientOptions{legacy: legacy, elicit: accept(map[string]any{"approved": true})}).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, sessionOptions(clientOptions{legacy: legacy}))
		if err != nil {
			t.Fatal(err)
		}
		tl, err := cs.ListTools(context.Background(), nil)
		if err != nil || len(tl.Tools) != 11 {
			t.Fatalf("legacy=%v list: %v %d", legacy, err, len(tl.Tools))
		}
		for name, args := range map[string]any{
			"adder": map[string]any{"a": 1, "b": 2}, "ask_helper": map[string]any{"message": "hi"},
			"run_double": map[string]any{"n": 2}, "confirm": map[string]any{"action": "go"},
		} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil || res.IsError {
				t.Errorf("legacy=%v %s: %v %+v", legacy, name, err, res)
			}
		}
		if err := cs.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
}

// ServeStdio over pipes: it serves until the client closes its end
// (EOF: nil) or ctx ends (ctx's error, the reader closed).
func TestServeStdioPipes(t *testing.T) {
	s := fixtureServer(t)
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(context.Background(), serverIn, serverOut) }()
	cs, err := newClient(clientOptions{}).Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "adder", Arguments: map[string]any{"a": 20, "b": 22}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != `{"sum":42}` {
		t.Fatalf("%v %+v", err, res)
	}
	_ = cs.Close()
	_ = serverOut.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio after EOF: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after EOF")
	}

	ctx, cancel := context.WithCancel(context.Background())
	in, inW := io.Pipe()
	defer inW.Close()
	go func() { served <- s.ServeStdio(ctx, in, io.Discard) }()
	cancel()
	select {
	case err := <-served:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after cancel")
	}
	_ = s.Close()
	if err := s.ServeStdio(context.Background(), in, io.Discard); !errors.Is(err, ErrClosed) {
		t.Errorf("ServeStdio on a closed server: %v", err)
	}
}
