package main

import "github.com/spf13/cobra"

// MCP routes (@mastra/server), as the Mastra CLI's route metadata lists them.
var (
	routeListMCPServers = apiRoute{method: "GET", path: "/mcp/v0/servers",
		queryParams: []string{"limit", "offset", "page", "perPage"}, shape: responseShape{kind: "single"}}
	routeGetMCPServer = apiRoute{method: "GET", path: "/mcp/v0/servers/:id", queryParams: []string{"version"},
		shape: responseShape{kind: "single"}}
	routeListMCPTools = apiRoute{method: "GET", path: "/mcp/:serverId/tools",
		shape: responseShape{kind: "object-property", listProperty: "tools"}}
	routeGetMCPTool     = apiRoute{method: "GET", path: "/mcp/:serverId/tools/:toolId", shape: responseShape{kind: "single"}}
	routeExecuteMCPTool = apiRoute{method: "POST", path: "/mcp/:serverId/tools/:toolId/execute",
		bodyParams: []string{"data", "resumeData", "suspendPayload"}, hasBody: true, shape: responseShape{kind: "single"}}
)

// addMCPCommands adds `mastra api mcp list|get` and
// `mastra api mcp tool list|get|execute` (execute wraps its input in data
// as `tool execute` does).
func (b *apiBuilder) addMCPCommands(api *cobra.Command) {
	mcp := b.group(api, "mcp", "List and inspect MCP servers")
	b.leaf(mcp, "list", routeListMCPServers, actionSpec{description: "List MCP servers", list: true})
	b.leaf(mcp, "get", routeGetMCPServer, actionSpec{description: "Get MCP server details"})
	tool := b.group(mcp, "tool", "List, inspect, and execute MCP tools")
	b.leaf(tool, "list", routeListMCPTools, actionSpec{description: "List tools for an MCP server",
		input: inputModeOf(inputOptional), list: true})
	b.leaf(tool, "get", routeGetMCPTool, actionSpec{description: "Get MCP tool details"})
	b.leaf(tool, "execute", routeExecuteMCPTool, actionSpec{
		description: "Execute an MCP tool with JSON input",
		input:       inputModeOf(inputRequired),
		examples: []example{
			{"Execute an MCP tool with raw tool input. The CLI sends this as the route data field.",
				`mastra api mcp tool execute my-server calculator '{"num1":2,"num2":3,"operation":"add"}'`},
			{"Execute an MCP tool with an explicit data wrapper",
				`mastra api mcp tool execute my-server calculator '{"data":{"num1":2,"num2":3,"operation":"add"}}'`},
		},
	})
}
