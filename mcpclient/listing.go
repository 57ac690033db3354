package mcpclient

import (
	"context"
	"fmt"
	"sync"

	"github.com/gomastra/mastra/tools"
)

// ListTools returns the tools of every server that could be listed, keyed
// by id ("<server>_<tool>"): the set to give an agent (agent.Config.Tools).
// Servers are listed in parallel; one that fails is logged and skipped
// (ListToolsWithErrors says why). Ids are not shortened: an agent's name
// sanitising (63 characters) applies to long ones.
//
// Each tool is a *tools.Tool (Mastra's MCP tool) with:
//
//   - the server's description and input schema, against which arguments
//     are validated before the call (a schema deeper than 128 levels or
//     with more than 10 000 nodes rejects every input, as in Mastra);
//   - the server's output schema, published but not applied to the result
//     as a whole (see structuredContent below);
//   - the server's annotations and _meta as its MCP options (_meta.ui gets
//     "serverId" when it has a "resourceUri"), Mastra's strict flag from
//     _meta.mastra.strict;
//   - approval: RequireToolApproval makes every call wait for approval in
//     an agent run; ToolApproval decides per call, seeing the annotations;
//   - with an output schema, a mapping of results for the model: the
//     result's text content when there is some, else the structured value
//     as JSON.
//
// A call (Tool.Execute) is bounded by the server's Timeout and by the
// context (cancelling it cancels the request on the server). With
// EnableProgressTracking it carries a progress token and the server's
// progress notifications are written to the call's writer as Progress
// values. When the connection broke (the server process died, the HTTP
// session is gone, the server is unreachable or answered 400, 401, 403 or
// 404) the client reconnects once and retries the call once; timeouts,
// cancellations, JSON-RPC error answers and answers over MaxMessageBytes
// (ErrMessageTooLarge) are not retried. Then:
//
//   - an isError result is a Go error, a *mastra.Error with ID
//     IDToolExecutionFailed whose text is the result's text content, unless
//     OnToolError is ToolErrorReturn;
//   - structuredContent is validated against the output schema: a mismatch
//     is returned as a *tools.ValidationError result (which the model reads
//     and can correct), a match as a *StructuredResult;
//   - any other result is returned as the *mcp.CallToolResult envelope.
func (c *Client) ListTools(ctx context.Context) tools.Set {
	set, _ := c.ListToolsWithErrors(ctx)
	return set
}

// ListToolsWithErrors is ListTools that also returns the error of each
// server that failed (absent: the server was listed).
func (c *Client) ListToolsWithErrors(ctx context.Context) (tools.Set, map[string]error) {
	sets, errs := c.ListToolsetsWithErrors(ctx)
	all := tools.Set{}
	for _, name := range c.names {
		for toolName, t := range sets[name] {
			all[ToolID(name, toolName)] = t
		}
	}
	return all, errs
}

// ListToolsets returns each listed server's tools under the server's own
// tool names (the ids stay "<server>_<tool>"): toolsets to pass per call.
// Failed servers are logged and skipped.
func (c *Client) ListToolsets(ctx context.Context) map[string]tools.Set {
	sets, _ := c.ListToolsetsWithErrors(ctx)
	return sets
}

// ListToolsetsWithErrors is ListToolsets that also returns the error of
// each server that failed.
func (c *Client) ListToolsetsWithErrors(ctx context.Context) (map[string]tools.Set, map[string]error) {
	sets := map[string]tools.Set{}
	var mu sync.Mutex
	results := make(map[string]tools.Set, len(c.servers))
	errs := c.eachServer(ctx, func(ctx context.Context, s *server) error {
		set, err := s.listTools(ctx)
		if err != nil {
			return err
		}
		mu.Lock()
		results[s.name] = set
		mu.Unlock()
		return nil
	})
	failed := map[string]error{}
	for _, name := range c.names {
		if err := errs[name]; err != nil {
			c.logger.Error("Failed to list tools from server:", "server", name, "error", err)
			failed[name] = err
			continue
		}
		sets[name] = results[name]
	}
	return sets, failed
}

// ServerTools returns one server's tools under their own names.
func (c *Client) ServerTools(ctx context.Context, server string) (tools.Set, error) {
	s, err := c.server(server)
	if err != nil {
		return nil, err
	}
	return s.listTools(ctx)
}

// listTools lists the server's tools, every page, and builds them. A tool
// whose input schema cannot be compiled is logged and left out.
func (s *server) listTools(ctx context.Context) (tools.Set, error) {
	what := fmt.Sprintf("listing the tools of server %q", s.name)
	return withConn(ctx, s, what, func(rctx context.Context, conn *connection) (tools.Set, error) {
		set := tools.Set{}
		names := map[string]bool{}
		for t, err := range conn.session.Tools(rctx, nil) {
			if err != nil {
				return nil, err
			}
			if t == nil || t.Name == "" {
				continue
			}
			built, err := s.buildTool(t, conn.initResult().Instructions)
			if err != nil {
				s.logger.Error("Failed to create Mastra tool wrapper for MCP tool", "server", s.name, "tool", t.Name, "error", err)
				continue
			}
			set[t.Name] = built
			names[t.Name] = true
		}
		s.namesMu.Lock()
		s.toolNames = names
		s.namesMu.Unlock()
		return set, nil
	})
}
