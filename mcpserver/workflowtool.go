package mcpserver

import (
	"fmt"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

// runIDKey is the request-context key whose value, when it is a string,
// names the workflow run a run_<key> call starts (Mastra reads it too).
const runIDKey = "runId"

// runTool is the tool that exposes workflow w as run_<key>: its input is
// the workflow's input, it starts a fresh run with the call's request
// context and returns the run's result (Mastra's run result: status,
// steps, result or error, suspended steps, runId). A suspended or failed
// run is a result, not an error; a run that cannot start is a tool error.
func runTool(name, key string, w *workflows.Workflow) (*tools.Tool, error) {
	if w.Description() == "" {
		return nil, mcpError(IDConversionFailed,
			fmt.Sprintf("Workflow '%s' (key: '%s') must have a non-empty description to be used in an MCPServer.", w.ID(), key), nil, nil)
	}
	return tools.NewDynamic(tools.DynamicConfig{
		ID:          name,
		Description: fmt.Sprintf("Run workflow '%s'. Workflow description: %s", key, w.Description()),
		InputSchema: w.InputSchema(),
		MCP:         &tools.MCPOptions{ToolType: "workflow"},
		Execute: func(ctx tools.Context, in any) (any, error) {
			rc := ctx.RequestContext()
			opts := []workflows.RunOption{workflows.WithRequestContext(rc)}
			if id, ok := rc.Get(runIDKey); ok {
				if s, ok := id.(string); ok && s != "" {
					opts = append(opts, workflows.WithRunID(s))
				}
			}
			res, err := w.CreateRun(opts...).Start(ctx, in, nil)
			if err != nil {
				return nil, err
			}
			return res, nil
		},
	})
}
