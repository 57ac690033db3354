package mcpserver

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP client over a stdio-style pair of streams:
// newline-delimited JSON-RPC read from in and written to out (any
// protocol revision the SDK speaks, 2024-11-05 to 2026-07-28). A line
// that is not JSON, or not a JSON-RPC message, or longer than
// mcp.DefaultMaxLineLength is answered with a JSON-RPC error (-32700 or
// -32600) and the session goes on. It returns
// nil when the client ends the session (in reaches EOF), ctx's error when
// ctx is done, and ErrClosed for a closed server. When ctx ends, in is
// closed if it is an io.Closer, which stops the read; a reader that cannot
// be closed keeps one goroutine blocked in Read until it returns. out is
// never closed.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if s.closed.Load() {
		return ErrClosed
	}
	w := &lockedWriter{w: out}
	err := s.sdk.Run(ctx, &mcp.IOTransport{Reader: newLineGuard(in, w), Writer: w})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// Run serves one MCP client on the process's standard input and output
// (what `mastra mcp` runs): ServeStdio(ctx, os.Stdin, os.Stdout). Log to
// stderr, never to stdout, while it runs.
func (s *Server) Run(ctx context.Context) error {
	return s.ServeStdio(ctx, os.Stdin, os.Stdout)
}
