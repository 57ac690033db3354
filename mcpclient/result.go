package mcpclient

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/model"
)

// StructuredResult is what a tool call returns when the server sent
// structuredContent: the structured value, which is what the result
// encodes to as JSON (the tool result an agent records), with the rest of
// the CallToolResult kept alongside, as Mastra keeps them on hidden
// properties. Calls without structuredContent return the whole
// *mcp.CallToolResult instead.
type StructuredResult struct {
	// Value is the structuredContent.
	Value any
	// Content is the result's content blocks (the model-facing text).
	Content []mcp.Content
	// Meta is the result's _meta, with "ui.serverId" set to the server's
	// name when "ui.resourceUri" is present (MCP Apps).
	Meta map[string]any
}

// MarshalJSON encodes the structured value only.
func (r *StructuredResult) MarshalJSON() ([]byte, error) { return json.Marshal(r.Value) }

// toModelOutput is the mapping installed on tools that have an output
// schema: the result's text content when there is some, else the
// structured value (or whatever the result is) as JSON.
func toModelOutput(_ context.Context, out any) (*model.ToolResultOutput, error) {
	if sr, ok := out.(*StructuredResult); ok {
		if text := contentText(sr.Content); text != "" {
			o := model.TextOutput(text)
			return &o, nil
		}
		o := model.JSONOutput(sr.Value)
		return &o, nil
	}
	o := model.JSONOutput(out)
	return &o, nil
}

// contentText joins the text blocks of content with newlines, trimmed.
func contentText(content []mcp.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// stampServerID sets meta.ui.serverId to server when meta.ui.resourceUri is
// set, without modifying meta.
func stampServerID(meta map[string]any, server string) map[string]any {
	ui, ok := meta["ui"].(map[string]any)
	if !ok {
		return meta
	}
	if uri, _ := ui["resourceUri"].(string); uri == "" {
		return meta
	}
	out := make(map[string]any, len(meta))
	for k, v := range meta {
		out[k] = v
	}
	stamped := make(map[string]any, len(ui)+1)
	for k, v := range ui {
		stamped[k] = v
	}
	stamped["serverId"] = server
	out["ui"] = stamped
	return out
}
