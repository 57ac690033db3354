package mcpclient

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/tools"
)

// ToolID is the id the client gives a server's tool: "<server>_<tool>".
func ToolID(server, tool string) string { return server + "_" + tool }

// buildTool turns one tools/list entry into a gomastra tool (Mastra's
// buildToolFromListEntry); instructions are those the server gave when
// the session started, forwarded to agents when the server's
// ForwardInstructions is set.
func (s *server) buildTool(t *mcp.Tool, instructions string) (*tools.Tool, error) {
	sch, err := buildSchemas(s.name, t.Name, t.InputSchema, t.OutputSchema)
	if err != nil {
		return nil, err
	}
	cfg := tools.DynamicConfig{
		ID:           ToolID(s.name, t.Name),
		Description:  t.Description,
		InputSchema:  sch.input,
		OutputSchema: sch.output,
		Strict:       strictMeta(t.Meta),
		MCP:          mcpOptions(t, s.name),
		MCPMetadata: &tools.MCPMetadata{ServerName: s.name, ServerInstructions: instructions,
			ForwardInstructions: s.cfg.ForwardInstructions, InstructionsMaxLength: s.cfg.InstructionsMaxLength},
		Execute: func(ctx tools.Context, in any) (any, error) {
			return s.callTool(ctx, t.Name, sch, in)
		},
	}
	if sch.output != nil {
		cfg.ToModelOutput = toModelOutput
	}
	if s.cfg.Tasks != nil && s.cfg.Tasks.Background { // MCP tasks: tasks.go
		cfg.Background = &tools.BackgroundConfig{Enabled: true}
	}
	switch {
	case s.cfg.ToolApproval != nil:
		fn, name, annotations := s.cfg.ToolApproval, t.Name, t.Annotations
		cfg.RequireApproval = true
		cfg.NeedsApproval = func(ctx context.Context, in any, rc *tools.RequestContext) (bool, error) {
			args, _ := in.(map[string]any)
			return fn(ctx, ApprovalRequest{ToolName: name, Args: args, RequestContext: rc, Annotations: annotations})
		}
	case s.cfg.RequireToolApproval:
		cfg.RequireApproval = true
	}
	return tools.NewDynamic(cfg)
}

// mcpOptions keeps the server's annotations and _meta on the tool (its
// `mcp` options), nil when the server sent neither.
func mcpOptions(t *mcp.Tool, server string) *tools.MCPOptions {
	if t.Annotations == nil && t.Meta == nil {
		return nil
	}
	o := &tools.MCPOptions{}
	if t.Meta != nil {
		o.Meta = stampServerID(t.Meta, server)
	}
	if a := t.Annotations; a != nil {
		o.Annotations = &tools.MCPAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    trueOrUnset(a.ReadOnlyHint),
			DestructiveHint: a.DestructiveHint,
			IdempotentHint:  trueOrUnset(a.IdempotentHint),
			OpenWorldHint:   a.OpenWorldHint,
		}
	}
	return o
}

// trueOrUnset maps the SDK's plain bools (false when the server sent false
// or nothing) to a hint: false is the MCP default of these two hints, so
// leaving it unset means the same.
func trueOrUnset(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

// strictMeta reads Mastra's _meta.mastra.strict.
func strictMeta(meta mcp.Meta) *bool {
	m, ok := meta["mastra"].(map[string]any)
	if !ok {
		return nil
	}
	b, ok := m["strict"].(bool)
	if !ok {
		return nil
	}
	return &b
}
