package agent

// RunError is why a run failed, in Mastra's error form: the error chunk's
// payload.error, Output.Error, and the error Generate returns with the
// output. Code is Mastra's error id where it has one (for example
// STRUCTURED_OUTPUT_SCHEMA_VALIDATION_FAILED); a failed model call has
// none and unwraps to the provider's error.
type RunError struct {
	Message  string         `json:"message"`
	Domain   string         `json:"domain,omitempty"`
	Category string         `json:"category,omitempty"`
	Code     string         `json:"code,omitempty"`
	Details  map[string]any `json:"details,omitempty"`
	cause    error
}

func (e *RunError) Error() string { return e.Message }

// Unwrap returns the underlying error, if any.
func (e *RunError) Unwrap() error { return e.cause }

// Tripwire is why a processor stopped the run (Output.Tripwire, finish
// reason "tripwire"): a structuring model whose answer did not match the
// schema under the strict strategy.
type Tripwire struct {
	Reason      string         `json:"reason"`
	Retry       bool           `json:"retry,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	ProcessorID string         `json:"processorId,omitempty"`
}
