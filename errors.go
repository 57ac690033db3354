package mastra

import (
	"errors"

	"github.com/gomastra/mastra/mastraerror"
)

// ErrorDomain is the area a Mastra error comes from (Mastra's
// ErrorDomain): [mastraerror.Domain].
type ErrorDomain = mastraerror.Domain

// Mastra's error domains (see package mastraerror).
const (
	DomainTool                = mastraerror.DomainTool
	DomainAgent               = mastraerror.DomainAgent
	DomainMCP                 = mastraerror.DomainMCP
	DomainAgentNetwork        = mastraerror.DomainAgentNetwork
	DomainMastraServer        = mastraerror.DomainMastraServer
	DomainMastraObservability = mastraerror.DomainMastraObservability
	DomainMastraWorkflow      = mastraerror.DomainMastraWorkflow
	DomainMastraVoice         = mastraerror.DomainMastraVoice
	DomainMastraVector        = mastraerror.DomainMastraVector
	DomainMastraMemory        = mastraerror.DomainMastraMemory
	DomainLLM                 = mastraerror.DomainLLM
	DomainEval                = mastraerror.DomainEval
	DomainScorer              = mastraerror.DomainScorer
	DomainA2A                 = mastraerror.DomainA2A
	DomainMastraInstance      = mastraerror.DomainMastraInstance
	DomainMastra              = mastraerror.DomainMastra
	DomainDeployer            = mastraerror.DomainDeployer
	DomainStorage             = mastraerror.DomainStorage
	DomainModelRouter         = mastraerror.DomainModelRouter
)

// ErrorCategory says who is at fault (Mastra's ErrorCategory):
// [mastraerror.Category].
type ErrorCategory = mastraerror.Category

// Mastra's error categories.
const (
	CategoryUnknown    = mastraerror.CategoryUnknown
	CategoryUser       = mastraerror.CategoryUser
	CategorySystem     = mastraerror.CategorySystem
	CategoryThirdParty = mastraerror.CategoryThirdParty
)

// Error ids of the registry's errors, as in Mastra.
const (
	// IDGetToolByNameNotFound: [Mastra.GetTool] found no tool under the key.
	IDGetToolByNameNotFound = mastraerror.IDMastraGetToolByNameNotFound
	// IDGetToolByIDNotFound: [Mastra.GetToolByID] found no tool with the id
	// and no tool under that key.
	IDGetToolByIDNotFound = mastraerror.IDMastraGetToolByIDNotFound
	// IDAddToolUndefined: [Mastra.AddTool] was given a nil tool.
	IDAddToolUndefined = mastraerror.IDMastraAddToolUndefined
	// IDGetWorkflowNotFound: [Mastra.GetWorkflow] found no workflow under
	// the key.
	IDGetWorkflowNotFound = mastraerror.IDMastraGetWorkflowByIDNotFound
	// IDGetAgentNotFound: [Mastra.GetAgent] found no agent under the key.
	IDGetAgentNotFound = mastraerror.IDMastraGetAgentByNameNotFound
)

// Sentinel errors for errors.Is. A registry *Error matches them by ID
// ([mastraerror.Sentinel]).
var (
	// ErrToolNotFound matches the errors of GetTool and GetToolByID when no
	// tool is found (ids IDGetToolByNameNotFound and IDGetToolByIDNotFound).
	ErrToolNotFound = mastraerror.Sentinel("mastra: tool not found", IDGetToolByNameNotFound, IDGetToolByIDNotFound)
	// ErrNilTool matches the error of AddTool for a nil tool
	// (id IDAddToolUndefined).
	ErrNilTool = mastraerror.Sentinel("mastra: nil tool", IDAddToolUndefined)
	// ErrWorkflowNotFound matches GetWorkflow's error (id
	// IDGetWorkflowNotFound).
	ErrWorkflowNotFound = mastraerror.Sentinel("mastra: workflow not found", IDGetWorkflowNotFound)
	// ErrAgentNotFound matches GetAgent's error (id IDGetAgentNotFound).
	ErrAgentNotFound = mastraerror.Sentinel("mastra: agent not found", IDGetAgentNotFound)
)

// Registration errors of [Mastra.AddTool], [Mastra.AddAgent] and
// [Mastra.AddWorkflow] (gomastra's: Mastra skips such entries without
// telling). The returned errors wrap them, for errors.Is.
var (
	// ErrNilAgent: AddAgent was given a nil agent.
	ErrNilAgent = errors.New("mastra: nil agent")
	// ErrNilWorkflow: AddWorkflow was given a nil workflow.
	ErrNilWorkflow = errors.New("mastra: nil workflow")
	// ErrEmptyKey: the key was empty and so was the entry's id.
	ErrEmptyKey = errors.New("mastra: empty registry key")
	// ErrDuplicateKey: an entry is already registered under the key; the
	// first one stays, as in Mastra.
	ErrDuplicateKey = errors.New("mastra: duplicate registry key")
	// ErrWorkflowNotCommitted: AddWorkflow was given a workflow whose
	// Commit has not succeeded.
	ErrWorkflowNotCommitted = errors.New("mastra: workflow not committed")
)

// Error is Mastra's MastraError, gomastra's one error type
// ([mastraerror.Error]): an error with a stable ID, a domain, a category,
// a message and structured details. Error() returns Message, which is
// Mastra's message byte for byte.
//
// errors.Is(err, target) holds when target is one of this package's
// sentinels and ID is one of its ids (see [ErrToolNotFound], [ErrNilTool]),
// or when target is an *Error with the same non-empty ID.
// [mastraerror.Error.MarshalMastra] encodes it as Mastra's toJSON() does;
// encoding/json writes the agent's error-chunk form, which for the
// registry's errors (details set, no cause) is the same bytes.
type Error = mastraerror.Error
