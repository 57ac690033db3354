package mastraerror

// The registry's error ids (package mastra), as in Mastra. Their errors
// carry the HTTP status in Details["status"].
const (
	// IDMastraGetToolByNameNotFound: no tool under the key (404).
	IDMastraGetToolByNameNotFound = "MASTRA_GET_TOOL_BY_NAME_NOT_FOUND"
	// IDMastraGetToolByIDNotFound: no tool with the id, nor under that
	// key (404).
	IDMastraGetToolByIDNotFound = "MASTRA_GET_TOOL_BY_ID_NOT_FOUND"
	// IDMastraAddToolUndefined: a nil tool was added (400).
	IDMastraAddToolUndefined = "MASTRA_ADD_TOOL_UNDEFINED"
	// IDMastraGetWorkflowByIDNotFound: no workflow under the key (404).
	IDMastraGetWorkflowByIDNotFound = "MASTRA_GET_WORKFLOW_BY_ID_NOT_FOUND"
	// IDMastraGetAgentByNameNotFound: no agent under the key (404).
	IDMastraGetAgentByNameNotFound = "MASTRA_GET_AGENT_BY_NAME_NOT_FOUND"
)

// The agent's error ids (package agent and its built-in tools), as in
// Mastra. Their errors have domain AGENT.
const (
	// IDAgentResumeConflict: another resume of the run got ahead (409);
	// the error wraps the storage conflict.
	IDAgentResumeConflict = "AGENT_RESUME_CONFLICT"
	// IDAgentResumeNoSnapshotFound: no suspended run under the run id
	// (404).
	IDAgentResumeNoSnapshotFound = "AGENT_RESUME_NO_SNAPSHOT_FOUND"
	// IDAgentResumeToolCallNotSuspended: the call to resume is not
	// waiting (400).
	IDAgentResumeToolCallNotSuspended = "AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED"
	// IDAgentSendToolApprovalNoActiveThreadRun: no suspended run on the
	// thread (404).
	IDAgentSendToolApprovalNoActiveThreadRun = "AGENT_SEND_TOOL_APPROVAL_NO_ACTIVE_THREAD_RUN"
	// IDAgentSendToolApprovalAmbiguousSuspendedRuns: several suspended
	// runs on the thread and no call named (400).
	IDAgentSendToolApprovalAmbiguousSuspendedRuns = "AGENT_SEND_TOOL_APPROVAL_AMBIGUOUS_SUSPENDED_RUNS"
	// IDStructuredOutputSchemaValidationFailed: the structured answer
	// does not match the schema.
	IDStructuredOutputSchemaValidationFailed = "STRUCTURED_OUTPUT_SCHEMA_VALIDATION_FAILED"
	// IDStructuredOutputTruncated: the structured answer was cut off
	// (finish reason length or content-filter).
	IDStructuredOutputTruncated = "STRUCTURED_OUTPUT_TRUNCATED"
	// IDWebSearchUnsupportedProvider: the built-in web search tool was
	// given a model whose provider has no web search.
	IDWebSearchUnsupportedProvider = "WEB_SEARCH_UNSUPPORTED_PROVIDER"
)

// The workflows' error ids (package workflows). Their errors have no
// domain: Mastra throws WORKFLOW_SCHEMA_VALIDATION_FAILED as a
// MastraError, the others as plain Errors (the ids are gomastra's), and
// gomastra reports all of them as plain Errors.
const (
	// IDWorkflowSchemaValidationFailed: the input, initial state or
	// resume data does not match its schema (400).
	IDWorkflowSchemaValidationFailed = "WORKFLOW_SCHEMA_VALIDATION_FAILED"
	// IDWorkflowStepInputValidationFailed: a step's input does not match
	// its schema (400).
	IDWorkflowStepInputValidationFailed = "WORKFLOW_STEP_INPUT_VALIDATION_FAILED"
	// IDWorkflowResumeNotSuspended: the run is not suspended (500, as
	// Mastra answers the plain Error it throws).
	IDWorkflowResumeNotSuspended = "WORKFLOW_RESUME_NOT_SUSPENDED"
	// IDWorkflowResumeStepNotSuspended: the step named is not suspended
	// (400).
	IDWorkflowResumeStepNotSuspended = "WORKFLOW_RESUME_STEP_NOT_SUSPENDED"
	// IDWorkflowResumeAmbiguous: several steps are suspended and none was
	// named (400).
	IDWorkflowResumeAmbiguous = "WORKFLOW_RESUME_AMBIGUOUS"
	// IDWorkflowStartAlreadyClaimed: the run has started already, here,
	// before a restart or in another process (409).
	IDWorkflowStartAlreadyClaimed = "WORKFLOW_START_ALREADY_CLAIMED"
)

// The MCP client's error ids (package mcpclient), as in Mastra. Their
// errors have domain MCP, category THIRD_PARTY.
const (
	// IDMCPClientToolExecutionFailed: the server answered a tool call
	// with isError.
	IDMCPClientToolExecutionFailed = "MCP_CLIENT_TOOL_EXECUTION_FAILED"
	// IDMCPClientOutputSchemaTooComplex: a tool's output schema is too
	// deep or too large to validate against.
	IDMCPClientOutputSchemaTooComplex = "MCP_CLIENT_OUTPUT_SCHEMA_TOO_COMPLEX"
	// IDMCPClientConnectFailed: connecting to a server failed.
	IDMCPClientConnectFailed = "MCP_CLIENT_CONNECT_FAILED"
	// IDMCPClientReadResourceFailed: reading a resource failed.
	IDMCPClientReadResourceFailed = "MCP_CLIENT_READ_RESOURCE_FAILED"
	// IDMCPClientGetPromptFailed: getting a prompt failed.
	IDMCPClientGetPromptFailed = "MCP_CLIENT_GET_PROMPT_FAILED"
)

// The MCP server's error ids (package mcpserver), as in Mastra. Their
// errors have domain MCP, category USER, except TOOL_EXECUTION_FAILED
// (domain TOOL).
const (
	// IDMCPServerAgentOrWorkflowToolConversionFailed: an agent or
	// workflow to expose has no description.
	IDMCPServerAgentOrWorkflowToolConversionFailed = "MCP_SERVER_AGENT_OR_WORKFLOW_TOOL_CONVERSION_FAILED"
	// IDMCPServerResumeSchemaNotRepresentable: a tool's resume schema
	// cannot be shown as an input-request form.
	IDMCPServerResumeSchemaNotRepresentable = "MCP_SERVER_RESUME_SCHEMA_NOT_REPRESENTABLE"
	// IDMCPServerToolExecutePreparationFailed: the tool to execute is not
	// exposed.
	IDMCPServerToolExecutePreparationFailed = "MCP_SERVER_TOOL_EXECUTE_PREPARATION_FAILED"
	// IDMCPServerToolInvalidInput: the tool's input or resume data failed
	// validation (400).
	IDMCPServerToolInvalidInput = "MCP_SERVER_TOOL_INVALID_INPUT"
	// IDMCPServerToolExecuteFailed: the executed tool returned an error.
	IDMCPServerToolExecuteFailed = "MCP_SERVER_TOOL_EXECUTE_FAILED"
	// IDToolExecutionFailed: Mastra's tool builder's wrapping of a
	// failed tool, which an MCP server reports to its client.
	IDToolExecutionFailed = "TOOL_EXECUTION_FAILED"
)

// The error codes of the `mastra api` command (cmd/mastra), as the Mastra
// CLI prints them in {"error":{"code","message","details"}}.
const (
	IDCLIInvalidJSON       = "INVALID_JSON"
	IDCLIMissingInput      = "MISSING_INPUT"
	IDCLIMissingArgument   = "MISSING_ARGUMENT"
	IDCLIMalformedHeader   = "MALFORMED_HEADER"
	IDCLIServerUnreachable = "SERVER_UNREACHABLE"
	IDCLIRequestTimeout    = "REQUEST_TIMEOUT"
	IDCLIHTTPError         = "HTTP_ERROR"
	IDCLISchemaUnavailable = "SCHEMA_UNAVAILABLE"
)
