package agent

import "github.com/gomastra/mastra/mastraerror"

// RunError is why a run failed, in Mastra's error form
// ([mastraerror.Error], the one error type of gomastra): the error
// chunk's payload.error, Output.Error, and the error Generate returns
// with the output. ID is Mastra's error id where it has one (for example
// STRUCTURED_OUTPUT_SCHEMA_VALIDATION_FAILED, with domain AGENT); a
// failed model call has none and wraps the provider's error (Cause). An
// *Error that fails a run is reported as it is. encoding/json writes it
// as the error chunk carries it: {"message"} followed by "domain",
// "category", "code" and "details" when set.
type RunError = mastraerror.Error

// Tripwire is why a processor stopped the run (Output.Tripwire): a step
// processor's TripwireError (finish reason "other"), or a structuring
// model whose answer did not match the schema under the strict strategy
// (finish reason "tripwire").
type Tripwire struct {
	Reason      string         `json:"reason"`
	Retry       bool           `json:"retry,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	ProcessorID string         `json:"processorId,omitempty"`
}

// TripwireError is an error with which a StepProcessor stops a run as a
// Mastra processor's abort() does: the run ends before its model call
// with a tripwire chunk (the Tripwire as payload) and no finish chunk;
// its Output has the Tripwire, finish reason "other", and Generate
// returns no error. Any other error from a processor fails the run.
type TripwireError interface {
	error
	Tripwire() Tripwire
}
