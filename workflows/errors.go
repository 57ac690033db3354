package workflows

import "github.com/gomastra/mastra/mastraerror"

// Error is a workflow error with Mastra's text and an id
// ([mastraerror.Error], the one error type of gomastra): invalid input,
// initial state or resume data (WORKFLOW_SCHEMA_VALIDATION_FAILED, with
// Details["type"] saying which: "input data", "initial data", "resume
// data", "state"), a step's input that does not match its schema
// (WORKFLOW_STEP_INPUT_VALIDATION_FAILED), a resume of a run or step that
// is not suspended (WORKFLOW_RESUME_NOT_SUSPENDED,
// WORKFLOW_RESUME_STEP_NOT_SUSPENDED), a resume that names no step when
// several are suspended (WORKFLOW_RESUME_AMBIGUOUS). Its Domain is empty:
// gomastra reports these as plain Errors ({"message","name":"Error"} in
// results and chunks), and mastraerror.HTTPStatus answers them 400, the
// run that is not suspended 500.
type Error = mastraerror.Error

// newError makes an *Error with id and message msg.
func newError(id, msg string) *Error { return &Error{ID: id, Message: msg} }

// validationError is WORKFLOW_SCHEMA_VALIDATION_FAILED with message msg
// for what a validation checked ("input data", ...), in Details["type"].
func validationError(what, msg string) *Error {
	return &Error{ID: mastraerror.IDWorkflowSchemaValidationFailed, Message: msg, Details: map[string]any{"type": what}}
}
