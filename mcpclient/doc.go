// Package mcpclient connects to MCP servers and turns their tools into
// gomastra tools: Mastra's MCPClient (@mastra/mcp) in Go, built on the
// official MCP Go SDK.
//
// A [Client] is configured with named servers. Each server is reached over
// stdio (a child process: Command, Args, Env), over streamable HTTP (URL,
// falling back to the older HTTP+SSE transport when the server answers the
// streamable POST with a 4xx status), or over any SDK transport
// (NewTransport, e.g. an in-process server). Servers are connected lazily,
// on first use, or eagerly with [Client.Connect]; a connection that breaks is
// re-established on next use.
//
// Every remote tool becomes a *[tools.Tool] whose id is "<server>_<tool>":
// [Client.ListTools] returns them keyed by that id (ready for
// agent.Config.Tools), [Client.ListToolsets] grouped by server under their
// own names (for per-call toolsets). A call follows Mastra's MCP tool
// execute step by step; [Client.ListTools] documents the contract (isError,
// structured output validation, toModelOutput, approval, timeouts, one
// reconnect-and-retry, progress).
//
// Bad servers fail calls cleanly: a stdio server's stdout lines that are not
// JSON-RPC are skipped (and logged); an answer larger than MaxMessageBytes
// fails with ErrMessageTooLarge without being held in memory; a server that
// crashes is restarted for one retry; a server that hangs times out.
//
// Resources ([Client.ListResources], [Client.ReadResource],
// [Client.ListResourceTemplates]), prompts ([Client.ListPrompts],
// [Client.GetPrompt]) and server instructions ([Client.ServerInstructions],
// [Client.Guidance]) are available per server.
//
// A server that asks the user for input while its tool runs (elicitation)
// is answered by [ServerConfig.ElicitationHandler] or
// [Client.OnElicitationRequest]; without a handler the tool call suspends
// with an [ElicitationSuspension] payload and is resumed with an
// [ElicitationResponse]. A call whose server asks through
// multi-round-trip input requests (protocol 2026-07-28) carries its state
// in the payload and can be resumed after a restart; an in-flight
// elicitation/create waits in memory, up to ElicitationTimeout. Accepted
// answers are checked against the requested schema and get its defaults. [Client.OnToolListChanged],
// [Client.OnResourceListChanged], [Client.OnPromptListChanged],
// [Client.SubscribeResource] and [Client.OnResourceUpdated] follow the
// servers' notifications; [Client.ToolsFunc] gives an agent tool lists
// that follow them.
//
// A URL server protected by OAuth 2.1 is authorized through
// [ServerConfig].OAuth ([OAuthConfig], built on the MCP SDK's auth
// package): protected-resource and authorization-server metadata
// discovery, client registration (client id metadata document,
// pre-registered, or dynamic), the authorization-code flow with PKCE
// (the app sends the user to the authorization URL: [LocalCallback] on
// 127.0.0.1 for CLIs, its own handler for web apps), step-up scopes, token
// refresh; or the client-credentials grant (with a secret or a signed JWT),
// or enterprise-managed authorization ([EnterpriseConfig]). A [TokenStore]
// ([FileTokenStore], [StorageTokenStore], [MemoryTokenStore]) keeps tokens
// and the registered client per server and tenant; a rejected refresh
// token clears them and fails with [ErrAuthorizationRequired] when no one
// can authorize again. [ServerConfig].Credentials ([CredentialsFunc])
// gives each HTTP request the credentials of the caller in its context, for
// servers calling MCP on behalf of each of their users; [TenantClients]
// gives each user a Client (connections and tokens) of their own, bounded.
//
// With [ServerConfig].Tasks ([TasksConfig]) a server may answer long-running tool calls with
// an MCP task: the call polls it until it ends and returns its result,
// cancels it when its context ends, and fails with a [*TaskError] when it
// does not complete; with TasksConfig.Background the server's tools run as
// agent background tasks, so the agent is not blocked meanwhile.
//
// A Client is safe for concurrent use. [Client.Close] disconnects every
// server, stops stdio child processes (closing their stdin, then SIGTERM,
// then SIGKILL) and waits for them, so nothing outlives it.
package mcpclient
