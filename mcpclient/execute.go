package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// callTool runs one call of the server's tool name with the validated
// input in (Mastra's MCP tool execute); ListTools documents the contract.
func (s *server) callTool(ctx tools.Context, name string, sch *toolSchemas, in any) (any, error) {
	ctx = callContext{ctx} // RequestContextFrom, for Credentials
	params := &mcp.CallToolParams{Name: name, Arguments: in}
	if s.cfg.EnableProgressTracking {
		token, stop := s.trackProgress(name, ctx.Writer())
		defer stop()
		params.SetProgressToken(token)
	}
	what := fmt.Sprintf("calling tool %q on server %q", name, s.name)
	res, err := s.runCall(ctx, name, params, what) // elicitresume.go: may suspend on an elicitation
	res, err = s.followTask(ctx, name, res, err)   // a call that became an MCP task: tasks_poll.go
	if err != nil {
		s.logger.Debug("error calling MCP tool", "server", s.name, "tool", name, "error", err)
		return nil, err
	}
	if res.IsError && s.cfg.OnToolError == ToolErrorThrow {
		return nil, newMastraError(IDToolExecutionFailed, toolErrorText(res.Content),
			map[string]any{"toolName": name, "serverName": s.name}, nil)
	}
	if res.StructuredContent == nil {
		return res, nil
	}
	if !res.IsError && (sch.structured != nil || sch.structuredErr != nil) {
		if sch.structuredErr != nil {
			return nil, sch.structuredErr
		}
		if _, issues := sch.structured.Validate(res.StructuredContent); len(issues) > 0 {
			return outputValidationError(name, issues, res.StructuredContent), nil
		}
	}
	sr := &StructuredResult{Value: res.StructuredContent, Content: res.Content}
	if res.Meta != nil {
		sr.Meta = stampServerID(res.Meta, s.name)
	}
	return sr, nil
}

// toolErrorText is the text of a failed result, or Mastra's fallback.
func toolErrorText(content []mcp.Content) string {
	if t := contentText(content); t != "" {
		return t
	}
	return "MCP tool execution failed"
}

// requestError words a failed request: the caller's cancellation, the size
// limit, the request timeout, a JSON-RPC error answer, or the transport's
// error.
func (s *server) requestError(parent, rctx context.Context, conn *connection, what string, err error) error {
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("mcpclient: %s: %w", what, context.Cause(parent))
	case isTooLarge(err, conn.state):
		if errors.Is(err, ErrMessageTooLarge) {
			return fmt.Errorf("mcpclient: %s: %w", what, err)
		}
		return fmt.Errorf("mcpclient: %s: %w (%d bytes): %v", what, ErrMessageTooLarge, s.cfg.maxMessageBytes, err)
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		return &timeoutError{what: fmt.Sprintf("%s (after %v)", what, s.cfg.timeout)}
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && !isLocalCode(wire.Code) {
		return &protocolError{wire: wire}
	}
	return fmt.Errorf("mcpclient: %s: %w", what, err)
}

// JSON-RPC codes the SDK gives errors of its own (never sent by a server):
// the connection is closing on our side or the peer's, or the transport
// could not deliver the request.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
	codeRejected      = -32005
)

func isLocalCode(code int64) bool {
	return code == codeClientClosing || code == codeServerClosing || code == codeRejected
}

// retryable reports whether a failed request is worth one reconnect and
// retry (Mastra's isReconnectableMCPError): the connection broke, the
// server is unreachable, or an HTTP server answered 400, 401, 403 or 404.
// In-band tool errors, JSON-RPC error answers, timeouts, cancellations and
// oversized messages never are.
func (s *server) retryable(ctx context.Context, conn *connection, err error) bool {
	if ctx.Err() != nil || errors.Is(err, ErrTimeout) || errors.Is(err, ErrMessageTooLarge) || isTooLarge(err, conn.state) {
		return false
	}
	var pe *protocolError
	if errors.As(err, &pe) {
		return false
	}
	var wire *jsonrpc.Error
	if errors.As(err, &wire) {
		switch wire.Code {
		case codeClientClosing, codeServerClosing:
			return true
		case codeRejected:
			// An HTTP answer Mastra retries: a gateway or auth layer
			// answering for an unhealthy backend, or stale credentials.
			switch conn.state.lastPostStatus.Load() {
			case 400, 401, 403, 404:
				return true
			}
		}
	}
	var netErr net.Error
	return conn.dead() ||
		errors.Is(err, mcp.ErrConnectionClosed) ||
		errors.Is(err, mcp.ErrSessionMissing) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, os.ErrClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) ||
		errors.As(err, &netErr)
}
