// Package mastra is the registry of gomastra: the Go counterpart of
// Mastra's `new Mastra({...})`. It holds tools under registry keys and
// hands them to the HTTP server, MCP servers and tools themselves (a
// *Mastra is a [tools.Registry], reachable from a tool's Context).
// Agents, workflows and storage will join the registry in later releases.
//
// # Contract
//
//   - [New] registers [Config.Tools] with [Mastra.AddTool] in sorted key
//     order, skipping nil entries.
//   - AddTool keys a tool by the given key, or by its ID when the key is
//     empty. The first tool registered under a key wins: adding another
//     under the same key is a silent no-op that returns nil. A nil tool is
//     an error (id MASTRA_ADD_TOOL_UNDEFINED, matching [ErrNilTool]).
//   - [Mastra.GetTool] looks a tool up by key. [Mastra.GetToolByID] looks
//     for the first tool whose ID() is the id, then falls back to the key.
//     Both report a missing tool as an [*Error] with Mastra's id, text and
//     details (status 404 and the comma-separated keys), which matches
//     [ErrToolNotFound] under errors.Is.
//   - [Mastra.ListTools] returns a copy; [Mastra.ToolKeys] returns the keys
//     in Mastra's order (insertion order, with JavaScript's rule that
//     array-index keys such as "2" come first, ascending).
//   - Nothing is persisted; the registry lives in memory.
//   - A *Mastra is safe for concurrent use by multiple goroutines. The
//     package keeps no state outside a *Mastra (its only package-level
//     variables are the sentinel errors).
package mastra
