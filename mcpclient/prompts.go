package mcpclient

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListPrompts returns each server's prompts (every page), as ListResources
// does for resources.
func (c *Client) ListPrompts(ctx context.Context) (map[string][]*mcp.Prompt, map[string]error) {
	return collect(ctx, c, "prompts", func(ctx context.Context, conn *connection) ([]*mcp.Prompt, error) {
		var out []*mcp.Prompt
		for p, err := range conn.session.Prompts(ctx, nil) {
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	})
}

// GetPrompt gets one prompt of a server with its arguments. A failure is a
// *mastra.Error with ID IDGetPromptFailed wrapping the cause.
func (c *Client) GetPrompt(ctx context.Context, server, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	s, err := c.server(server)
	if err != nil {
		return nil, err
	}
	res, err := withConn(ctx, s, fmt.Sprintf("getting prompt %q of server %q", name, server),
		func(rctx context.Context, conn *connection) (*mcp.GetPromptResult, error) {
			return s.getPrompt(rctx, conn, &mcp.GetPromptParams{Name: name, Arguments: args}) // elicitrounds.go
		})
	if err != nil {
		return nil, newMastraError(IDGetPromptFailed, err.Error(), map[string]any{"serverName": server, "name": name}, err)
	}
	return res, nil
}
