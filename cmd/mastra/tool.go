package main

import "github.com/spf13/cobra"

// Tool routes (@mastra/server), as the Mastra CLI's route metadata lists them.
var (
	routeListTools   = apiRoute{method: "GET", path: "/tools", shape: responseShape{kind: "record"}}
	routeGetTool     = apiRoute{method: "GET", path: "/tools/:toolId", shape: responseShape{kind: "single"}}
	routeExecuteTool = apiRoute{method: "POST", path: "/tools/:toolId/execute", queryParams: []string{"runId"},
		bodyParams: []string{"data", "requestContext"}, hasBody: true, shape: responseShape{kind: "single"}}
)

// addToolCommands adds `mastra api tool list|get|execute`.
//
// execute sends the input as the route's data field unless the input object
// already has a data key; with an explicit {"data": ...} wrapper, runId goes
// to the query string and requestContext stays in the body.
func (b *apiBuilder) addToolCommands(api *cobra.Command) {
	tool := b.group(api, "tool", "List, inspect, and execute tools")
	b.leaf(tool, "list", routeListTools, actionSpec{description: "List available tools", list: true})
	b.leaf(tool, "get", routeGetTool, actionSpec{description: "Get tool details and input schema"})
	b.leaf(tool, "execute", routeExecuteTool, actionSpec{
		description: "Execute a tool with JSON input",
		input:       inputModeOf(inputRequired),
		examples: []example{
			{"Execute a tool with raw tool input. The CLI sends this as the route data field.",
				`mastra api tool execute get-weather '{"location":"San Francisco"}'`},
			{"Execute a tool with an explicit data wrapper",
				`mastra api tool execute get-weather '{"data":{"location":"San Francisco"}}'`},
		},
	})
}
