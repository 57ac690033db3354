package main

// Error codes of `mastra api`, as the Mastra CLI prints them in
// {"error":{"code","message","details"}} on stderr (exit code 1).
const (
	codeInvalidJSON       = "INVALID_JSON"
	codeMissingInput      = "MISSING_INPUT"
	codeMissingArgument   = "MISSING_ARGUMENT"
	codeMalformedHeader   = "MALFORMED_HEADER"
	codeServerUnreachable = "SERVER_UNREACHABLE"
	codeRequestTimeout    = "REQUEST_TIMEOUT"
	codeHTTPError         = "HTTP_ERROR"
	codeSchemaUnavailable = "SCHEMA_UNAVAILABLE"
)

// apiError is an `mastra api` failure: a code, a message and details, the
// fields of the JSON error envelope.
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
