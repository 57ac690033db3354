package main

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/mcpserver"
)

// guideURI is the example's one MCP resource: how to use its tools.
const guideURI = "weather://guide"

const guide = `# Weather tools

- weather-tool {"location": "<city>"}: current weather.
- ask_weatherAgent {"message": "..."}: the weather agent answers.
- run_activityWorkflow {"city": "<city>"}: activities for the forecast.
`

// cities are what the weather-report prompt's city completes to.
var cities = []string{"Berlin", "London", "Paris", "San Francisco", "Tokyo"}

// mcpFeatures are the example's MCP resource, prompt and completions,
// served beside the registry's tools (/api/mcp/mastra/mcp, `dev mcp`).
func mcpFeatures() []mcpserver.ServeConfig {
	return []mcpserver.ServeConfig{
		mcpserver.WithResources(&mcpserver.Resources{
			List: func(context.Context) ([]*mcp.Resource, error) {
				return []*mcp.Resource{{URI: guideURI, Name: "guide", Description: "How to use the weather tools", MIMEType: "text/markdown"}}, nil
			},
			Read: func(_ context.Context, uri string) ([]*mcp.ResourceContents, error) {
				if uri != guideURI {
					return nil, mcpserver.ErrResourceNotFound
				}
				return []*mcp.ResourceContents{{Text: guide}}, nil
			},
		}),
		mcpserver.WithPrompts(&mcpserver.Prompts{
			List: func(context.Context) ([]*mcp.Prompt, error) {
				return []*mcp.Prompt{{Name: "weather-report", Description: "Ask for a city's weather report",
					Arguments: []*mcp.PromptArgument{{Name: "city", Description: "The city", Required: true}}}}, nil
			},
			Messages: func(_ context.Context, req *mcpserver.PromptRequest) ([]*mcp.PromptMessage, error) {
				return []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{
					Text: "What is the weather in " + req.Args["city"] + "? Suggest what to wear."}}}, nil
			},
		}),
		mcpserver.WithCompletions(func(_ context.Context, req mcpserver.CompletionRequest) ([]string, error) {
			var out []string
			if req.Prompt == "weather-report" && req.Argument == "city" {
				for _, c := range cities {
					if strings.HasPrefix(strings.ToLower(c), strings.ToLower(req.Value)) {
						out = append(out, c)
					}
				}
			}
			return out, nil
		}),
	}
}
