package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/tools"
)

// ExecuteOptions are the optional inputs of ExecuteTool.
type ExecuteOptions struct {
	// RequestContext is passed to the tool (default: an empty one).
	RequestContext *tools.RequestContext
	// ResumeData and SuspendPayload continue a call that suspended: send
	// the same arguments, the answer, and the payload it suspended with.
	ResumeData, SuspendPayload json.RawMessage
}

// Execution is what ExecuteTool returns: the tool's result, or the
// suspension it asks a person to answer.
type Execution struct {
	// Output is the result as JSON (nil when the tool returned nothing).
	Output json.RawMessage
	// Suspended reports that the tool asked for input; SuspendPayload is
	// what it suspended with and ResumeSchema the form of the answer (nil
	// when it gave none).
	Suspended      bool
	SuspendPayload json.RawMessage
	ResumeSchema   json.RawMessage
}

// ExecuteTool runs the exposed tool name once without an MCP client
// (Mastra's executeTool, behind POST /api/mcp/:id/tools/:toolId/execute).
// args nil means no arguments. The run ends with ctx, or with Close. The errors are *mastra.Error values with
// Mastra's ids: IDUnknownTool ("Unknown tool: <name>"), IDInvalidInput
// (the validation message: the input or resume data was invalid) and
// IDExecuteFailed (the tool returned an error; its message is the tool's).
func (s *Server) ExecuteTool(ctx context.Context, name string, args json.RawMessage, opts *ExecuteOptions) (*Execution, error) {
	e, ok := s.byName[name]
	if !ok {
		s.log.Warn("Unknown tool requested", "tool", name, "server", s.cfg.Name)
		return nil, mcpError(IDUnknownTool, "Unknown tool: "+name, map[string]any{"toolId": name}, nil)
	}
	if opts == nil {
		opts = &ExecuteOptions{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.done, cancel)()
	res, err := e.tool.Execute(ctx, args, &tools.Invocation{
		ToolName: name, RequestContext: opts.RequestContext,
		ResumeData: opts.ResumeData, SuspendPayload: opts.SuspendPayload,
		Mastra: s.cfg.Registry, Logger: s.log,
	})
	if err != nil {
		argsText := "undefined"
		if args != nil {
			argsText = wire.StringifyText(args)
		}
		return nil, mcpError(IDExecuteFailed, errorText(err), map[string]any{"toolId": name, "args": argsText}, err)
	}
	if ve := res.ValidationError(); ve != nil {
		return nil, mcpError(IDInvalidInput, ve.Message, map[string]any{"toolId": name}, nil)
	}
	if res.Suspended() {
		x := &Execution{Suspended: true, SuspendPayload: res.Suspension.Payload, ResumeSchema: e.resumeForm}
		if x.ResumeSchema == nil && res.Suspension.Options.ResumeSchema != "" {
			if form, err := formSchema([]byte(res.Suspension.Options.ResumeSchema)); err == nil {
				x.ResumeSchema = form.AppendJS(nil)
			}
		}
		return x, nil
	}
	s.log.Debug("Tool executed successfully", "tool", name)
	if res.Output == nil {
		return &Execution{}, nil
	}
	out, err := res.JSON()
	if err != nil {
		return nil, mcpError(IDExecuteFailed, fmt.Sprintf("tool %s: encode result: %v", name, err), map[string]any{"toolId": name}, err)
	}
	return &Execution{Output: out}, nil
}
