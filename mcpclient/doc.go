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
// A Client is safe for concurrent use. [Client.Close] disconnects every
// server, stops stdio child processes (closing their stdin, then SIGTERM,
// then SIGKILL) and waits for them, so nothing outlives it.
package mcpclient
