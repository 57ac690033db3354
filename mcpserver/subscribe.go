package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subscribe accepts resources/subscribe. The SDK keeps the subscriptions
// (per session, dropped when the session ends) and ResourceUpdated
// notifies them; this only logs, as Mastra does.
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	s.log.Info("Received resources/subscribe request", "uri", req.Params.URI)
	return nil
}

// unsubscribe accepts resources/unsubscribe (the SDK forgets the
// subscription).
func (s *Server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.log.Info("Received resources/unsubscribe request", "uri", req.Params.URI)
	return nil
}
