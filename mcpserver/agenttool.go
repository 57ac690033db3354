package mcpserver

import (
	"fmt"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/tools"
)

// askTool is the tool that exposes agent a as ask_<key>: its input is
// {message}, it runs a.Generate(message) with the call's request context
// and returns the agent's full output (Mastra's FullOutput). A run that
// fails is a tool error.
func askTool(name, key string, a *agent.Agent) (*tools.Tool, error) {
	if a.Description() == "" {
		return nil, mcpError(IDConversionFailed,
			fmt.Sprintf("Agent '%s' (key: '%s') must have a non-empty description to be used in an MCPServer.", a.Name(), key), nil, nil)
	}
	return tools.NewDynamic(tools.DynamicConfig{
		ID:          name,
		Description: fmt.Sprintf("Ask agent '%s' a question. Agent description: %s", a.Name(), a.Description()),
		InputSchema: askInputSchema{},
		MCP:         &tools.MCPOptions{ToolType: "agent"},
		Execute: func(ctx tools.Context, in any) (any, error) {
			message, _ := in.(map[string]any)["message"].(string)
			out, err := a.Generate(ctx, message, agent.WithRequestContext(ctx.RequestContext()))
			if err != nil {
				return nil, err
			}
			return out, nil
		},
	})
}
