package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineGuard sits between a stdio client and the SDK's connection, which
// ends the whole session on the first line it cannot decode. It passes on
// every line that is one well-formed JSON-RPC message (or a batch of
// them) and answers the others itself, as JSON-RPC asks, so that one bad
// line costs one error and the session goes on:
//
//   - a line that is not JSON (or nests deeper than encoding/json allows):
//     -32700 Parse error, id null;
//   - JSON that is not a JSON-RPC 2.0 message (wrong version tag, an empty
//     batch, a bad id): -32600 Invalid Request, with the id when it has one;
//   - a line longer than mcp.DefaultMaxLineLength: -32700, the line
//     skipped.
//
// Answers go through out, which the SDK writes with too (one line per
// Write, under out's lock).
type lineGuard struct {
	in      io.Reader
	r       *bufio.Reader
	out     *lockedWriter
	pending []byte
	max     int
}

func newLineGuard(in io.Reader, out *lockedWriter) *lineGuard {
	return &lineGuard{in: in, r: bufio.NewReaderSize(in, 64<<10), out: out, max: mcp.DefaultMaxLineLength}
}

// Read implements io.Reader.
func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.readLine()
		if len(line) > 0 {
			if g.admit(line) {
				g.pending = append(line, '\n')
			}
		}
		if err != nil {
			if len(g.pending) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close closes the client's stream when it can be closed.
func (g *lineGuard) Close() error {
	if c, ok := g.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// readLine reads one line (without its end), skipping and answering lines
// over the limit.
func (g *lineGuard) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if len(line)+len(chunk) > g.max {
			g.reply(jsonrpc.CodeParseError, "Parse error: message longer than the line limit", nil)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = g.r.ReadSlice('\n')
			}
			line = line[:0]
			if err != nil {
				return nil, err
			}
			continue
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

// admit tells whether line goes to the SDK, answering it otherwise.
func (g *lineGuard) admit(line []byte) bool {
	if !json.Valid(line) {
		g.reply(jsonrpc.CodeParseError, "Parse error", nil)
		return false
	}
	if line[0] != '[' {
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			g.reply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error(), idOf(line))
			return false
		}
		return true
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
		g.reply(jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch", nil)
		return false
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			g.reply(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error(), idOf(m))
			return false
		}
	}
	return true
}

// idOf is a message's id when it is a string or a number.
func idOf(msg []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &probe) != nil || len(probe.ID) == 0 || (probe.ID[0] != '"' && probe.ID[0] != '-' && (probe.ID[0] < '0' || probe.ID[0] > '9')) {
		return nil
	}
	return probe.ID
}

// reply writes a JSON-RPC error response.
func (g *lineGuard) reply(code int64, message string, id json.RawMessage) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return
	}
	_, _ = g.out.Write(append(b, '\n'))
}

// lockedWriter serializes writes: each Write is one whole line.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close does nothing: the caller owns the stream.
func (l *lockedWriter) Close() error { return nil }
