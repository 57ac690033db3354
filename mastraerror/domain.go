package mastraerror

// Domain is the area an error comes from (Mastra's ErrorDomain).
type Domain string

// Mastra's error domains.
const (
	DomainTool                Domain = "TOOL"
	DomainAgent               Domain = "AGENT"
	DomainMCP                 Domain = "MCP"
	DomainAgentNetwork        Domain = "AGENT_NETWORK"
	DomainMastraServer        Domain = "MASTRA_SERVER"
	DomainMastraObservability Domain = "MASTRA_OBSERVABILITY"
	DomainMastraWorkflow      Domain = "MASTRA_WORKFLOW"
	DomainMastraVoice         Domain = "MASTRA_VOICE"
	DomainMastraVector        Domain = "MASTRA_VECTOR"
	DomainMastraMemory        Domain = "MASTRA_MEMORY"
	DomainLLM                 Domain = "LLM"
	DomainEval                Domain = "EVAL"
	DomainScorer              Domain = "SCORER"
	DomainA2A                 Domain = "A2A"
	DomainMastraInstance      Domain = "MASTRA_INSTANCE"
	DomainMastra              Domain = "MASTRA"
	DomainDeployer            Domain = "DEPLOYER"
	DomainStorage             Domain = "STORAGE"
	DomainModelRouter         Domain = "MODEL_ROUTER"
)

// Category says who is at fault (Mastra's ErrorCategory).
type Category string

// Mastra's error categories.
const (
	CategoryUnknown    Category = "UNKNOWN"
	CategoryUser       Category = "USER"
	CategorySystem     Category = "SYSTEM"
	CategoryThirdParty Category = "THIRD_PARTY"
)
