package mcpserver

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Request is what a tool learns about the MCP request that called it:
// Mastra's context.mcp. A tool reaches it with RequestFrom(ctx) (its
// tools.Context is a context.Context); calls that did not come over MCP
// (the REST execute route, direct calls) have none.
type Request struct {
	// ServerID and ServerName name the MCP server.
	ServerID, ServerName string
	// ProtocolVersion is the MCP revision the client speaks.
	ProtocolVersion string
	// Client is the client's name and version, when it sent them.
	Client *mcp.Implementation
	// Meta is the request's _meta (progress token, trace context, ...).
	Meta map[string]any
	// Header holds the HTTP request's headers (nil over stdio).
	Header http.Header

	session       *mcp.ServerSession
	progressToken any
}

type requestKey struct{}

// RequestFrom returns the MCP request a tool call came from.
func RequestFrom(ctx context.Context) (*Request, bool) {
	r, ok := ctx.Value(requestKey{}).(*Request)
	return r, ok && r != nil
}

func withRequest(ctx context.Context, r *Request) context.Context {
	return context.WithValue(ctx, requestKey{}, r)
}

// Log sends a log message to the client ("notifications/message", with
// data {message, ...data} and the server's name as the logger), as
// Mastra's context.mcp.log does. The client receives it only at or above
// the level it asked for (logging/setLevel, or its request's log level);
// otherwise Log does nothing. level is an MCP level: debug, info, notice,
// warning, error, critical, alert or emergency.
func (r *Request) Log(ctx context.Context, level, message string, data map[string]any) error {
	if r.session == nil {
		return nil
	}
	payload := make(map[string]any, len(data)+1)
	for k, v := range data {
		payload[k] = v
	}
	payload["message"] = message
	//lint:ignore SA1019 Mastra's context.mcp.log is MCP logging (2026-07-28 delivers it per request, when the client asks).
	return r.session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Data: payload, Logger: r.ServerName})
}

// Progress reports progress to the client ("notifications/progress") when
// the request asked for it with a progress token, and does nothing
// otherwise, as Mastra's context.mcp.progress. total 0 means unknown.
func (r *Request) Progress(ctx context.Context, progress, total float64, message string) error {
	if r.session == nil || r.progressToken == nil {
		return nil
	}
	return r.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: r.progressToken, Progress: progress, Total: total, Message: message,
	})
}
