package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The cost of one MCP tool call through the client: argument validation,
// the JSON-RPC round trip over the transport, and the result handling. The
// server is the Go SDK's, run in process (HTTP, in-memory) or as a child
// process (stdio). The BenchmarkSDK ones call the SDK session directly,
// the floor the client's own overhead adds to.

func benchCall(b *testing.B, sc ServerConfig) {
	c := newClient(b, Config{Servers: map[string]ServerConfig{"srv": sc}})
	set := c.ListTools(context.Background())
	add := set["srv_add"]
	args := json.RawMessage(`{"a":1,"b":2}`)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := add.Execute(ctx, args, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCallToolStdio(b *testing.B) { benchCall(b, stdioChild(b, "plain", nil)) }

func BenchmarkCallToolHTTP(b *testing.B) {
	benchCall(b, ServerConfig{URL: httpServer(b, newTestServer()).URL})
}

func BenchmarkCallToolInMemory(b *testing.B) { benchCall(b, inMemory(newTestServer())) }

func benchSDK(b *testing.B, t mcp.Transport) {
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, t, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 1, "b": 2}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSDKCallToolStdio(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childModeEnv+"=plain")
	benchSDK(b, &mcp.CommandTransport{Command: cmd})
}

func BenchmarkSDKCallToolHTTP(b *testing.B) {
	benchSDK(b, &mcp.StreamableClientTransport{Endpoint: httpServer(b, newTestServer()).URL})
}

// The cost of connecting: the session's start, on the newest protocol
// with the server's list-changed notifications followed (the client waits
// until the server acknowledged its listen stream), then closing.
func benchConnect(b *testing.B, sc ServerConfig) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := New(Config{Servers: map[string]ServerConfig{"srv": sc}, Logger: quietLogger()})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Connect(ctx); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

func BenchmarkConnectInMemory(b *testing.B) { benchConnect(b, inMemory(newTestServer())) }

func BenchmarkConnectHTTP(b *testing.B) {
	benchConnect(b, ServerConfig{URL: httpServer(b, newTestServer()).URL})
}
