package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	mastra "github.com/gomastra/mastra"
)

// Mastra's error ids for what the client reports as a *mastra.Error.
const (
	// IDToolExecutionFailed: the server answered a tool call with isError
	// (and OnToolError is ToolErrorThrow). The text is the result's text.
	IDToolExecutionFailed = "MCP_CLIENT_TOOL_EXECUTION_FAILED"
	// IDOutputSchemaTooComplex: the tool's output schema is deeper than 128
	// levels or has more than 10 000 schema nodes, so structured results
	// are not validated against it but refused.
	IDOutputSchemaTooComplex = "MCP_CLIENT_OUTPUT_SCHEMA_TOO_COMPLEX"
	// IDConnectFailed: connecting to a server failed.
	IDConnectFailed = "MCP_CLIENT_CONNECT_FAILED"
	// IDReadResourceFailed: ReadResource failed.
	IDReadResourceFailed = "MCP_CLIENT_READ_RESOURCE_FAILED"
	// IDGetPromptFailed: GetPrompt failed.
	IDGetPromptFailed = "MCP_CLIENT_GET_PROMPT_FAILED"
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

// newMastraError builds a *mastra.Error of the MCP domain.
func newMastraError(id, text string, details map[string]any, cause error) *mastra.Error {
	return &mastra.Error{
		ID:       id,
		Domain:   mastra.DomainMCP,
		Category: mastra.CategoryThirdParty,
		Text:     text,
		Details:  details,
		Cause:    cause,
	}
}
