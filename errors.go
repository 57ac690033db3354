package mastra

import (
	"encoding/json"
	"errors"
)

// ErrorDomain is the area a Mastra error comes from (Mastra's ErrorDomain).
type ErrorDomain string

// Mastra's error domains.
const (
	DomainTool                ErrorDomain = "TOOL"
	DomainAgent               ErrorDomain = "AGENT"
	DomainMCP                 ErrorDomain = "MCP"
	DomainAgentNetwork        ErrorDomain = "AGENT_NETWORK"
	DomainMastraServer        ErrorDomain = "MASTRA_SERVER"
	DomainMastraObservability ErrorDomain = "MASTRA_OBSERVABILITY"
	DomainMastraWorkflow      ErrorDomain = "MASTRA_WORKFLOW"
	DomainMastraVoice         ErrorDomain = "MASTRA_VOICE"
	DomainMastraVector        ErrorDomain = "MASTRA_VECTOR"
	DomainMastraMemory        ErrorDomain = "MASTRA_MEMORY"
	DomainLLM                 ErrorDomain = "LLM"
	DomainEval                ErrorDomain = "EVAL"
	DomainScorer              ErrorDomain = "SCORER"
	DomainA2A                 ErrorDomain = "A2A"
	DomainMastraInstance      ErrorDomain = "MASTRA_INSTANCE"
	DomainMastra              ErrorDomain = "MASTRA"
	DomainDeployer            ErrorDomain = "DEPLOYER"
	DomainStorage             ErrorDomain = "STORAGE"
	DomainModelRouter         ErrorDomain = "MODEL_ROUTER"
)

// ErrorCategory says who is at fault (Mastra's ErrorCategory).
type ErrorCategory string

// Mastra's error categories.
const (
	CategoryUnknown    ErrorCategory = "UNKNOWN"
	CategoryUser       ErrorCategory = "USER"
	CategorySystem     ErrorCategory = "SYSTEM"
	CategoryThirdParty ErrorCategory = "THIRD_PARTY"
)

// Error ids of the registry's errors, as in Mastra.
const (
	// IDGetToolByNameNotFound: [Mastra.GetTool] found no tool under the key.
	IDGetToolByNameNotFound = "MASTRA_GET_TOOL_BY_NAME_NOT_FOUND"
	// IDGetToolByIDNotFound: [Mastra.GetToolByID] found no tool with the id
	// and no tool under that key.
	IDGetToolByIDNotFound = "MASTRA_GET_TOOL_BY_ID_NOT_FOUND"
	// IDAddToolUndefined: [Mastra.AddTool] was given a nil tool.
	IDAddToolUndefined = "MASTRA_ADD_TOOL_UNDEFINED"
	// IDGetWorkflowNotFound: [Mastra.GetWorkflow] found no workflow under
	// the key.
	IDGetWorkflowNotFound = "MASTRA_GET_WORKFLOW_BY_ID_NOT_FOUND"
	// IDGetAgentNotFound: [Mastra.GetAgent] found no agent under the key.
	IDGetAgentNotFound = "MASTRA_GET_AGENT_BY_NAME_NOT_FOUND"
)

// Sentinel errors for errors.Is. A registry *Error matches them by ID.
var (
	// ErrToolNotFound matches the errors of GetTool and GetToolByID when no
	// tool is found (ids IDGetToolByNameNotFound and IDGetToolByIDNotFound).
	ErrToolNotFound = errors.New("mastra: tool not found")
	// ErrNilTool matches the error of AddTool for a nil tool
	// (id IDAddToolUndefined).
	ErrNilTool = errors.New("mastra: nil tool")
	// ErrWorkflowNotFound matches GetWorkflow's error (id
	// IDGetWorkflowNotFound).
	ErrWorkflowNotFound = errors.New("mastra: workflow not found")
	// ErrAgentNotFound matches GetAgent's error (id IDGetAgentNotFound).
	ErrAgentNotFound = errors.New("mastra: agent not found")
)

// Error is Mastra's MastraError: an error with a stable ID, a domain, a
// category and structured details. Error() returns Text, which is Mastra's
// message byte for byte.
//
// errors.Is(err, target) holds when target is one of this package's
// sentinels and ID is one of its ids (see [ErrToolNotFound], [ErrNilTool]),
// or when target is an *Error with the same non-empty ID.
type Error struct {
	// ID is Mastra's error id (JSON "code"), e.g.
	// "MASTRA_GET_TOOL_BY_NAME_NOT_FOUND".
	ID       string
	Domain   ErrorDomain
	Category ErrorCategory
	// Text is the message.
	Text string
	// Details are Mastra's error details, e.g. {"status": 404, ...}. A
	// "status" entry is the HTTP status the server answers with.
	Details map[string]any
	// Cause is the underlying error, if any.
	Cause error
}

// Error returns e.Text.
func (e *Error) Error() string { return e.Text }

// Unwrap returns e.Cause.
func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether e matches target: a sentinel of this package that
// stands for e.ID, or an *Error with the same non-empty ID.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrToolNotFound:
		return e.ID == IDGetToolByNameNotFound || e.ID == IDGetToolByIDNotFound
	case ErrWorkflowNotFound:
		return e.ID == IDGetWorkflowNotFound
	case ErrAgentNotFound:
		return e.ID == IDGetAgentNotFound
	case ErrNilTool:
		return e.ID == IDAddToolUndefined
	}
	if t, ok := target.(*Error); ok {
		return t.ID != "" && t.ID == e.ID
	}
	return false
}

// MarshalJSON encodes e as Mastra's MastraError.toJSON() does:
// {"message","domain","category","code","details"} plus "cause" when
// there is one. Details is never null ({} when empty), as in Mastra. Keys
// of Details are encoded in sorted order (Mastra keeps insertion order; the
// registry's 404 details happen to read the same either way).
func (e *Error) MarshalJSON() ([]byte, error) {
	type causeJSON struct {
		Message string `json:"message"`
		Name    string `json:"name"`
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	v := struct {
		Message  string         `json:"message"`
		Domain   ErrorDomain    `json:"domain"`
		Category ErrorCategory  `json:"category"`
		Code     string         `json:"code"`
		Details  map[string]any `json:"details"`
		Cause    any            `json:"cause,omitempty"`
	}{Message: e.Text, Domain: e.Domain, Category: e.Category, Code: e.ID, Details: details}
	if e.Cause != nil {
		if ce, ok := e.Cause.(*Error); ok {
			v.Cause = ce
		} else {
			v.Cause = causeJSON{Message: e.Cause.Error(), Name: "Error"}
		}
	}
	return json.Marshal(v)
}
