// Package mastra is the registry of gomastra: the Go counterpart of
// Mastra's `new Mastra({...})`. It holds an application's tools, agents
// and workflows under registry keys, and its logger, and hands them to
// the HTTP server (server.New), MCP servers (mcpserver.FromMastra) and
// tools themselves: a *Mastra is a [tools.Registry], which every tool run
// through it (by its agents, its workflows, the server's routes, MCP
// servers) reaches as ctx.Mastra(), and typed as [FromContext](ctx).
// Storage is not the registry's: agents and workflows keep their runs in
// their own agent.Config.Storage and workflows.Config.Storage.
//
// # Contract
//
//   - [New] registers [Config.Tools], [Config.Workflows] and
//     [Config.Agents], each in sorted key order, skipping nil entries.
//   - [Mastra.AddTool], [Mastra.AddAgent] and [Mastra.AddWorkflow] key an
//     entry by the given key, or by its ID when the key is empty. The
//     first entry registered under a key wins: adding another under the
//     same key returns [ErrDuplicateKey] and changes nothing. A nil entry
//     is an error (AddTool's id MASTRA_ADD_TOOL_UNDEFINED matching
//     [ErrNilTool]; [ErrNilAgent], [ErrNilWorkflow]), so are an empty key
//     with an empty id ([ErrEmptyKey]) and a workflow not committed
//     ([ErrWorkflowNotCommitted]). [New] skips the Config entries they
//     refuse and logs why.
//   - AddAgent and AddWorkflow make the registry the one the agent's
//     tools and the workflow's steps reach as ctx.Mastra(); a tool gets
//     it typed with [FromContext].
//   - [Mastra.GetTool], [Mastra.GetAgent] and [Mastra.GetWorkflow] look an
//     entry up by key. [Mastra.GetToolByID] looks for the first tool whose
//     ID() is the id, then falls back to the key, then to the agents'
//     static tools by id. [Mastra.AllTools] lists the registry's tools,
//     then the agents', one per tool id. A missing entry is an
//     [*Error] with Mastra's id, text and details (status 404 and the
//     comma-separated keys), which matches [ErrToolNotFound],
//     [ErrAgentNotFound] or [ErrWorkflowNotFound] under errors.Is.
//   - [Mastra.ListTools], [Mastra.ListAgents] and [Mastra.ListWorkflows]
//     return copies. [Mastra.ToolKeys], [Mastra.AgentKeys] and
//     [Mastra.WorkflowKeys] return the keys in Mastra's order (insertion
//     order, with JavaScript's rule that array-index keys such as "2"
//     come first, ascending). [Mastra.RemoveTool] unregisters a tool.
//   - Nothing is persisted; the registry lives in memory.
//   - A *Mastra is safe for concurrent use by multiple goroutines. The
//     package keeps no state outside a *Mastra (its only package-level
//     variables are the sentinel errors).
package mastra
