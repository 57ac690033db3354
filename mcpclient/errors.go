package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/gomastra/mastra/mastraerror"
)

// Mastra's error ids for what the client reports as a *mastraerror.Error
// (the type of mastra.Error).
const (
	// IDToolExecutionFailed: the server answered a tool call with isError
	// (and OnToolError is ToolErrorThrow). The text is the result's text.
	IDToolExecutionFailed = mastraerror.IDMCPClientToolExecutionFailed
	// IDOutputSchemaTooComplex: the tool's output schema is deeper than 128
	// levels or has more than 10 000 schema nodes, so structured results
	// are not validated against it but refused.
	IDOutputSchemaTooComplex = mastraerror.IDMCPClientOutputSchemaTooComplex
	// IDConnectFailed: connecting to a server failed.
	IDConnectFailed = mastraerror.IDMCPClientConnectFailed
	// IDReadResourceFailed: ReadResource failed.
	IDReadResourceFailed = mastraerror.IDMCPClientReadResourceFailed
	// IDGetPromptFailed: GetPrompt failed.
	IDGetPromptFailed = mastraerror.IDMCPClientGetPromptFailed
)

var (
	// ErrClosed is returned by every method after Close.
	ErrClosed = errors.New("mcpclient: client is closed")
	// ErrUnknownServer is returned for a server name not in Config.Servers.
	ErrUnknownServer = errors.New("mcpclient: unknown server")
	// ErrTimeout is matched (errors.Is) by requests that ran out of time
	// (Timeout, ConnectTimeout). It also matches context.DeadlineExceeded.
	ErrTimeout = errors.New("mcpclient: request timed out")
	// ErrMessageTooLarge is matched by calls whose answer exceeded
	// MaxMessageBytes. The connection is dropped (the next call reconnects)
	// and the call is not retried.
	ErrMessageTooLarge = errors.New("mcpclient: message from server exceeds the size limit")
)

// timeoutError is a request that ran out of time.
type timeoutError struct{ what string }

func (e *timeoutError) Error() string { return "mcpclient: " + e.what + ": request timed out" }

func (e *timeoutError) Is(target error) bool {
	return target == ErrTimeout || target == context.DeadlineExceeded
}

// protocolError is a JSON-RPC error answer from the server, worded as the
// TypeScript SDK words it ("MCP error <code>: <message>").
type protocolError struct {
	wire *jsonrpc.Error
}

func (e *protocolError) Error() string {
	return fmt.Sprintf("MCP error %d: %s", e.wire.Code, e.wire.Message)
}

func (e *protocolError) Unwrap() error { return e.wire }

// newMastraError builds an *mastraerror.Error of the MCP domain, caused
// by a third party.
func newMastraError(id, text string, details map[string]any, cause error) *mastraerror.Error {
	return &mastraerror.Error{
		ID:       id,
		Domain:   mastraerror.DomainMCP,
		Category: mastraerror.CategoryThirdParty,
		Message:  text,
		Details:  details,
		Cause:    cause,
	}
}
