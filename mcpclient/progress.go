package mcpclient

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/tools"
)

// progressSink is where one tool call's progress notifications go.
type progressSink struct {
	tool string
	w    tools.Writer
}

// trackProgress gives a call a fresh progress token routed to w and
// returns it with the function that stops the routing. Mastra uses the run
// id as the token; a token per call keeps parallel calls of one run apart.
func (s *server) trackProgress(tool string, w tools.Writer) (token string, stop func()) {
	token = uuid.New()
	s.progressMu.Lock()
	s.progress[token] = &progressSink{tool: tool, w: w}
	s.progressMu.Unlock()
	return token, func() {
		s.progressMu.Lock()
		delete(s.progress, token)
		s.progressMu.Unlock()
	}
}

// onProgress receives the progress notifications the SDK dispatches. Those
// of stdio and HTTP servers were already handled, in stream order, by their
// transport; for other transports the SDK's handler goroutine may run after
// the call they belong to has returned, and they then reach only
// OnProgress, with an empty Tool.
func (s *server) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if s.cfg.kind == kindCustom {
		s.dispatchProgress(req.Params)
	}
}

// dispatchProgress routes a progress notification to its call's writer and
// to OnProgress.
func (s *server) dispatchProgress(p *mcp.ProgressNotificationParams) {
	ev := Progress{Server: s.name, Token: p.ProgressToken, Progress: p.Progress, Total: p.Total, Message: p.Message}
	s.progressMu.Lock()
	sink := s.progress[fmt.Sprint(p.ProgressToken)]
	s.progressMu.Unlock()
	if sink != nil {
		ev.Tool = sink.tool
		if sink.w != nil {
			if err := sink.w.Write(ev); err != nil {
				s.logger.Debug("writing MCP progress failed", "server", s.name, "tool", sink.tool, "error", err)
			}
		}
	}
	if s.cfg.OnProgress != nil {
		s.cfg.OnProgress(ev)
	}
}
