package mcpserver

import (
	"errors"
	"fmt"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
)

// Mastra's error ids for what an MCP server refuses or reports.
const (
	// IDConversionFailed: an agent or workflow has no description.
	IDConversionFailed = "MCP_SERVER_AGENT_OR_WORKFLOW_TOOL_CONVERSION_FAILED"
	// IDResumeSchemaNotRepresentable: a tool's resume schema cannot be
	// shown as an input-request form (a flat object of primitives).
	IDResumeSchemaNotRepresentable = "MCP_SERVER_RESUME_SCHEMA_NOT_REPRESENTABLE"
	// IDUnknownTool: ExecuteTool was asked for a tool the server does not
	// expose.
	IDUnknownTool = "MCP_SERVER_TOOL_EXECUTE_PREPARATION_FAILED"
	// IDInvalidInput: ExecuteTool's input (or resume data) failed
	// validation.
	IDInvalidInput = "MCP_SERVER_TOOL_INVALID_INPUT"
	// IDExecuteFailed: the tool ExecuteTool ran returned an error.
	IDExecuteFailed = "MCP_SERVER_TOOL_EXECUTE_FAILED"
	// IDToolExecutionFailed is the error a failed tools/call reports to
	// the client (serialized in the result's text).
	IDToolExecutionFailed = "TOOL_EXECUTION_FAILED"
)

// ErrInvalidConfig is matched (errors.Is) by New's errors about a Config
// Mastra has no error id for: a missing name or version, a nil tool, a
// tool whose input schema is not an object.
var ErrInvalidConfig = errors.New("mcpserver: invalid config")

func configError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}

// mcpError is a MastraError of the MCP domain caused by the user.
func mcpError(id, text string, details map[string]any, cause error) *mastra.Error {
	return &mastra.Error{ID: id, Domain: mastra.DomainMCP, Category: mastra.CategoryUser, Text: text, Details: details, Cause: cause}
}

// toolExecutionError is the MastraError Mastra's tool builder wraps a
// thrown error in (TOOL_EXECUTION_FAILED, details errorMessage and model),
// which its MCP server serializes for the client.
func toolExecutionError(err error) *mastra.Error {
	return &mastra.Error{
		ID: IDToolExecutionFailed, Domain: mastra.DomainTool, Category: mastra.CategoryUser,
		Text:    errorText(err),
		Details: map[string]any{"errorMessage": jsErrorString(err), "model": ""},
		Cause:   err,
	}
}

// errorText is a MastraError's message when it has no text of its own:
// its cause's, or "Unknown error".
func errorText(err error) string {
	if err == nil || err.Error() == "" {
		return "Unknown error"
	}
	return err.Error()
}

// jsErrorString is String(err) in JavaScript: "<name>: <message>".
func jsErrorString(err error) string {
	var me *mastra.Error
	if errors.As(err, &me) && me == err {
		return "MastraError: " + me.Text
	}
	return "Error: " + err.Error()
}

// mastraErrorJSON is err.toJSON() as JSON.stringify writes it.
func mastraErrorJSON(err *mastra.Error) string {
	raw, mErr := err.MarshalJSON()
	if mErr != nil {
		return `{"message":` + string(jsjson.AppendString(nil, err.Text, jsjson.Replace)) + `}`
	}
	return wire.StringifyText(raw)
}
