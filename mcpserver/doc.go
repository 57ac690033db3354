// Package mcpserver exposes a gomastra registry's tools, agents and
// workflows to Model Context Protocol clients: Mastra's MCPServer
// (@mastra/mcp 2.x) in Go, on the official MCP Go SDK.
//
//	srv, err := mcpserver.New(mcpserver.Config{
//		ID: "my-server", Name: "My Server", Version: "1.0.0",
//		Tools:     tools.Set{"weather": weatherTool},
//		Agents:    map[string]*agent.Agent{"weather": weatherAgent},
//		Workflows: map[string]*workflows.Workflow{"plan": planWorkflow},
//	})
//	err = srv.Run(ctx)                          // stdio (`mastra mcp`)
//	http.Handle("/mcp", srv.HTTPHandler())      // streamable HTTP
//	server.New(m, server.Options{Routes: mcpserver.Routes(srv)}) // /api/mcp/my-server/mcp and the REST routes
//
// # What is exposed
//
//   - Each tool with an Execute function under its key (not its ID);
//     client tools are skipped with a warning. Its input schema is
//     advertised as JSON Schema 2020-12 (an open empty object when it has
//     none; it must be an object schema), its output schema when it is an
//     object schema, its MCP annotations, and its MCP _meta (plus
//     {"mastra": {"strict": ...}} when Strict is set).
//   - Each agent as "ask_<key>": description "Ask agent '<name>' a
//     question. Agent description: <description>", input {message: string}
//     (required, nothing else), the answer is agent.Generate's output.
//   - Each workflow as "run_<key>": description "Run workflow '<key>'.
//     Workflow description: <description>", input the workflow's input
//     schema, the answer is the result of a fresh run.
//   - Tools first, then agents, then workflows; a later name that clashes
//     with an earlier one is not exposed (warning). Agents and workflows
//     need descriptions.
//
// # Tool calls
//
// An unknown tool is
// {isError, "Unknown tool: <name>"}; invalid input is {isError, the
// validation message}; a returned error or panic is {isError, the
// serialized MastraError TOOL_EXECUTION_FAILED}; a result is text (the
// string, or JSON), plus structuredContent for tools with an object output
// schema. A tool that suspends (ctx.Suspend) asks the client for input:
// protocol 2026-07-28 clients get an input_required result with an
// elicitation form built from the tool's resume schema and a signed
// requestState (Mastra's format; Config.RequestStateKey), older clients an
// elicitation/create request; the answer resumes the tool with
// ResumeData. A client without the elicitation capability gets an isError
// result, never a hang. Tools reach the MCP request (logging, progress,
// metadata) with RequestFrom.
//
// # Tasks
//
// Tools named in Config.Tasks run as MCP tasks (the
// io.modelcontextprotocol/tasks extension) for clients that declare it: the
// call is answered at once with a task id while the tool runs in the
// background, and tasks/get, tasks/update and tasks/cancel follow it; see
// TasksOptions. Tasks are kept in memory, per caller, bounded by TTL and
// MaxTasks.
//
// # Resources, prompts and completions
//
// Config.Resources (List, Templates, Read), Config.Prompts (List,
// Messages, ResumeSchema) and Config.Complete are Mastra's resources and
// prompts options and the completion utility, on the SDK's resources,
// templates, subscriptions, prompts and completion handler. Lists are
// read when the server is built and again by NotifyResourceListChanged and
// NotifyPromptListChanged, which tell clients; NotifyResourceUpdated tells
// the clients subscribed to a URI. A prompt may ask the client for input
// (PromptRequest.Suspend), as a tool does. A suspended tool asks under the
// key "input" unless its payload names another (Question.InputKey), and a
// 2026-07-28 client may send the answer with the call. ServeOption takes
// them with WithResources, WithPrompts and WithCompletions.
//
// # Transports
//
// ServeStdio/Run (newline-delimited JSON-RPC; a bad line costs one
// JSON-RPC error, not the session), HTTPHandler (streamable HTTP:
// self-contained requests for protocol 2026-07-28, sessions for older
// clients), and Routes, which mounts the transport and Mastra's REST routes
// (/api/mcp/v0/servers, tools, execute) in package server's API.
//
// # OAuth and allowed hosts
//
// Config.OAuth makes the HTTP transport an OAuth 2.1 protected resource
// (Mastra's createOAuthMiddleware): bearer tokens are checked by its
// ValidateToken (IntrospectionValidator asks an RFC 7662 endpoint), a
// request without a good one is answered 401 with a WWW-Authenticate
// challenge naming the RFC 9728 protected resource metadata (403
// insufficient_scope without OAuthOptions.RequiredScopes), and Routes
// serves that metadata at /.well-known/oauth-protected-resource/api/mcp/
// <id>/mcp (ProtectedResourceMetadataHandler outside the API server).
// The token's subject is the tools' mastra__resourceId. HTTPOptions.
// AllowedHosts and AllowedOrigins refuse (403) requests naming another
// Host or Origin.
//
// # Differences from Mastra
//
//   - Every protocol revision the SDK speaks is served (2024-11-05 to
//     2026-07-28, over stdio and HTTP); Mastra 2.x refuses revisions before
//     2026-07-28. Older clients are asked for a suspended tool's input with
//     elicitation/create (the SDK checks the answer against the form before
//     the tool sees it).
//   - A client that declared no elicitation capability is not sent an
//     input request (an isError result says what the tool needed); Mastra
//     sends one regardless.
//   - Resources and prompts are listed when the server is built and when
//     the app says the list changed (Mastra 2.x lists them per request);
//     prompts have no versions; resources do not suspend. No FGA and no
//     tools added or removed at run time.
//   - Authentication is the API server's, or Config.OAuth's (whose
//     ValidateToken is required: Mastra accepts any token without one);
//     the authenticated resource is the tools' mastra__resourceId and
//     binds sessions and continuations.
//   - Output schemas that are not object schemas are not advertised (their
//     results are text), so that 2025-era clients, which require object
//     output schemas, can list the tools.
//   - Annotations always carry readOnlyHint and idempotentHint (false when
//     unset: the protocol's defaults), and isError is left out when false.
//   - ID defaults to the slug of Name rather than a random UUID.
//
// Everything here is safe for concurrent use. Close ends every session.
package mcpserver
