package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newSDKServer builds the Go SDK server holding the catalogue: one raw
// tool handler per exposed tool (this package validates and runs the call
// itself, as Mastra's tool wrapper does) and a middleware answering calls
// to unknown tools as Mastra does, with an isError result instead of the
// SDK's protocol error. A tool the SDK refuses (it panics on, for
// example, an invalid x-mcp-header annotation) is an error.
func (s *Server) newSDKServer() (*mcp.Server, error) {
	opts := &mcp.ServerOptions{
		Instructions: s.cfg.Instructions,
		Capabilities: &mcp.ServerCapabilities{
			Tools: &mcp.ToolCapabilities{ListChanged: true},
			//lint:ignore SA1019 Mastra's server declares logging (tools log with RequestFrom(ctx).Log).
			Logging: &mcp.LoggingCapabilities{},
		},
	}
	s.featureOptions(opts) // resources, prompts, completions (resources_features.go)
	srv := mcp.NewServer(&mcp.Implementation{Name: s.cfg.Name, Version: s.cfg.Version}, opts)
	for _, e := range s.tools {
		t := &mcp.Tool{
			Name:        e.name,
			Description: e.tool.Description(),
			InputSchema: e.input,
			Annotations: e.annotations,
		}
		if e.output != nil {
			t.OutputSchema = e.output
		}
		if e.meta != nil {
			t.Meta = e.meta
		}
		if err := addTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.callTool(ctx, req, e)
		}); err != nil {
			return nil, err
		}
	}
	srv.AddReceivingMiddleware(s.unknownToolMiddleware, s.toolOrderMiddleware)
	// MCP tasks (tasks*.go).
	if err := s.installTasks(srv); err != nil {
		return nil, err
	}
	return srv, nil
}

// addTool is srv.AddTool, with the SDK's panic on a tool it refuses
// turned into an error.
func addTool(srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = configError("tool %q: %v", t.Name, p)
		}
	}()
	srv.AddTool(t, h)
	return nil
}

// toolOrderMiddleware lists tools in exposure order (Mastra's), where the
// SDK sorts them by name. Only a complete list (one page) is reordered.
func (s *Server) toolOrderMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "tools/list" || err != nil {
			return res, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok || list.NextCursor != "" || len(list.Tools) != len(s.tools) {
			return res, err
		}
		if p, ok := req.GetParams().(*mcp.ListToolsParams); ok && p != nil && p.Cursor != "" {
			return res, err
		}
		byName := make(map[string]*mcp.Tool, len(list.Tools))
		for _, t := range list.Tools {
			byName[t.Name] = t
		}
		sorted := make([]*mcp.Tool, 0, len(s.tools))
		for _, e := range s.tools {
			if t := byName[e.name]; t != nil {
				sorted = append(sorted, t)
			}
		}
		if len(sorted) == len(list.Tools) {
			list.Tools = sorted
		}
		return list, nil
	}
}

// unknownToolMiddleware answers tools/call for a name the server does not
// expose with Mastra's {content: "Unknown tool: <name>", isError: true}.
func (s *Server) unknownToolMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		call, ok := req.(*mcp.CallToolRequest)
		if !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		if _, known := s.byName[call.Params.Name]; known {
			return next(ctx, method, req)
		}
		s.log.Warn("Unknown tool requested", "tool", call.Params.Name)
		return completeResult(call, textContent("Unknown tool: "+call.Params.Name), true)
	}
}

// textContent is one text content item.
func textContent(text string) []mcp.Content {
	return []mcp.Content{&mcp.TextContent{Text: text}}
}

// completeResult builds a final CallToolResult outside the SDK's tools/call
// path, marked complete for clients of protocol 2026-07-28 and later
// (whose results carry resultType), through the result's own JSON
// decoding, the SDK's public way to set it.
func completeResult(req *mcp.CallToolRequest, content []mcp.Content, isError bool) (*mcp.CallToolResult, error) {
	res := &mcp.CallToolResult{Content: content, IsError: isError}
	if !speaksMRTR(req) {
		return res, nil
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	obj["resultType"] = json.RawMessage(`"complete"`)
	raw, err = json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	out := &mcp.CallToolResult{}
	if err := json.Unmarshal(raw, out); err != nil {
		return nil, err
	}
	return out, nil
}

// speaksMRTR tells whether the client speaks protocol 2026-07-28 or later,
// where a request carries everything (input_required results and
// requestState instead of server-to-client requests).
func speaksMRTR(req *mcp.CallToolRequest) bool {
	v := req.ProtocolVersion()
	return v == "" || v >= modernProtocol
}

// modernProtocol is the first protocol revision of self-contained
// requests (SEP-2575) and input_required results (SEP-2322).
const modernProtocol = "2026-07-28"
