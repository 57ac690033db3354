package mcpserver

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

func benchServer(b *testing.B) *Server {
	b.Helper()
	s, err := New(Config{Name: "bench", Version: "1", Logger: discardLogger(), RequestStateKey: stateKey,
		Tools: tools.Set{"adder": fixtureTools()["adder"]}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// benchCalls measures one tools/call round trip of the adder tool.
func benchCalls(b *testing.B, cs *mcp.ClientSession) {
	b.Helper()
	params := &mcp.CallToolParams{Name: "adder", Arguments: map[string]any{"a": 2, "b": 3}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

var benchProtocols = []struct {
	name   string
	legacy bool
}{{"2026-07-28", false}, {"2025-11-25", true}}

// BenchmarkCallToolStdio: a tool call over ServeStdio on io.Pipe streams
// (newline-delimited JSON-RPC, the line guard included).
func BenchmarkCallToolStdio(b *testing.B) {
	for _, p := range benchProtocols {
		b.Run(p.name, func(b *testing.B) {
			s := benchServer(b)
			clientIn, serverOut := io.Pipe()
			serverIn, clientOut := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- s.ServeStdio(context.Background(), serverIn, serverOut) }()
			cs, err := newClient(clientOptions{}).Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut},
				sessionOptions(clientOptions{legacy: p.legacy}))
			if err != nil {
				b.Fatal(err)
			}
			benchCalls(b, cs)
			b.StopTimer()
			_ = cs.Close()
			_ = serverOut.Close()
			<-done
		})
	}
}

// BenchmarkCallToolHTTP: a tool call over streamable HTTP on a loopback
// httptest server (self-contained requests on 2026-07-28, a session on
// 2025-11-25).
func BenchmarkCallToolHTTP(b *testing.B) {
	for _, p := range benchProtocols {
		b.Run(p.name, func(b *testing.B) {
			s := benchServer(b)
			ts := serveHTTP(b, s.HTTPHandler())
			cs := connectHTTP(b, ts.URL, clientOptions{legacy: p.legacy})
			benchCalls(b, cs)
		})
	}
}

// BenchmarkCallToolSDKBaseline: the same tool written directly on the SDK
// (mcp.AddTool, no Mastra validation or result shaping) over the same
// pipes, for the overhead of this package.
func BenchmarkCallToolSDKBaseline(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "adder", Description: "Add two integers"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: serverIn, Writer: serverOut}) }()
	cs, err := newClient(clientOptions{}).Connect(context.Background(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchCalls(b, cs)
	b.StopTimer()
	_ = cs.Close()
	cancel()
	<-done
}

// BenchmarkExecuteTool: the call path without any transport.
func BenchmarkExecuteTool(b *testing.B) {
	s := benchServer(b)
	args := []byte(`{"a":2,"b":3}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ExecuteTool(context.Background(), "adder", args, nil); err != nil {
			b.Fatal(err)
		}
	}
}
