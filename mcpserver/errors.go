package mcpserver

import (
	"errors"
	"fmt"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/mastraerror"
)

// Mastra's error ids for what an MCP server refuses or reports (see
// package mastraerror).
const (
	// IDConversionFailed: an agent or workflow has no description.
	IDConversionFailed = mastraerror.IDMCPServerAgentOrWorkflowToolConversionFailed
	// IDResumeSchemaNotRepresentable: a tool's resume schema cannot be
	// shown as an input-request form (a flat object of primitives).
	IDResumeSchemaNotRepresentable = mastraerror.IDMCPServerResumeSchemaNotRepresentable
	// IDUnknownTool: ExecuteTool was asked for a tool the server does not
	// expose.
	IDUnknownTool = mastraerror.IDMCPServerToolExecutePreparationFailed
	// IDInvalidInput: ExecuteTool's input (or resume data) failed
	// validation.
	IDInvalidInput = mastraerror.IDMCPServerToolInvalidInput
	// IDExecuteFailed: the tool ExecuteTool ran returned an error.
	IDExecuteFailed = mastraerror.IDMCPServerToolExecuteFailed
	// IDToolExecutionFailed is the error a failed tools/call reports to
	// the client (serialized in the result's text).
	IDToolExecutionFailed = mastraerror.IDToolExecutionFailed
)

// ErrInvalidConfig is matched (errors.Is) by New's errors about a Config
// Mastra has no error id for: a missing name or version, a nil tool, a
// tool whose input schema is not an object.
var ErrInvalidConfig = errors.New("mcpserver: invalid config")

func configError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
}

// mcpError is a MastraError of the MCP domain caused by the user.
func mcpError(id, text string, details map[string]any, cause error) *mastraerror.Error {
	return &mastraerror.Error{ID: id, Domain: mastraerror.DomainMCP, Category: mastraerror.CategoryUser, Message: text, Details: details, Cause: cause}
}

// toolExecutionError is the MastraError Mastra's tool builder wraps a
// thrown error in (TOOL_EXECUTION_FAILED, details errorMessage and model),
// which its MCP server serializes for the client.
func toolExecutionError(err error) *mastraerror.Error {
	return &mastraerror.Error{
		ID: IDToolExecutionFailed, Domain: mastraerror.DomainTool, Category: mastraerror.CategoryUser,
		Message: errorText(err),
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

// jsErrorString is String(err) in JavaScript: "<name>: <message>", the
// name an *Error's Name ("MastraError" for one with a domain), "Error"
// for anything else, wrapped errors included.
func jsErrorString(err error) string {
	if me, ok := err.(*mastraerror.Error); ok {
		return me.Name() + ": " + me.Message
	}
	return "Error: " + err.Error()
}

// mastraErrorJSON is err.toJSON() as JSON.stringify writes it.
func mastraErrorJSON(err *mastraerror.Error) string {
	raw, mErr := err.MarshalMastra()
	if mErr != nil {
		return `{"message":` + string(jsjson.AppendString(nil, err.Message, jsjson.Replace)) + `}`
	}
	return wire.StringifyText(raw)
}
