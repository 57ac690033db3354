package main

import "github.com/gomastra/mastra/mastraerror"

// Error codes of `mastra api`, as the Mastra CLI prints them in
// {"error":{"code","message","details"}} on stderr (exit code 1).
const (
	codeInvalidJSON       = mastraerror.IDCLIInvalidJSON
	codeMissingInput      = mastraerror.IDCLIMissingInput
	codeMissingArgument   = mastraerror.IDCLIMissingArgument
	codeMalformedHeader   = mastraerror.IDCLIMalformedHeader
	codeServerUnreachable = mastraerror.IDCLIServerUnreachable
	codeRequestTimeout    = mastraerror.IDCLIRequestTimeout
	codeHTTPError         = mastraerror.IDCLIHTTPError
	codeSchemaUnavailable = mastraerror.IDCLISchemaUnavailable
)

// apiError is an `mastra api` failure: a code, a message and details, the
// fields of the JSON error envelope. It is the CLI's envelope, not a
// MastraError: its details keep the order they were given in (an ordered
// object), which the CLI prints byte for byte as the Mastra CLI does.
type apiError struct {
	code    string
	message string
	details *jsObject // never nil; {} when there is nothing to add
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

// newAPIError builds an error; kv are alternating detail keys and values.
func newAPIError(code, message string, kv ...any) *apiError {
	return &apiError{code: code, message: message, details: objectOf(kv...)}
}

// envelope is the value printed on stderr.
func (e *apiError) envelope() *jsObject {
	return objectOf("error", objectOf("code", e.code, "message", e.message, "details", e.details))
}

// unreachable is SERVER_UNREACHABLE for a request that failed below HTTP;
// reason is what Node's fetch would report ("fetch failed", "Invalid URL",
// ...), which the Mastra CLI puts in details.message.
func unreachable(reason string) *apiError {
	return newAPIError(codeServerUnreachable, "Could not connect to target server", "message", reason)
}

func missingArgument(name string) *apiError {
	return newAPIError(codeMissingArgument, "Missing required argument <"+name+">", "argument", name)
}
