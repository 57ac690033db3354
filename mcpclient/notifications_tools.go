package mcpclient

import (
	"context"

	"github.com/gomastra/mastra/tools"
)

// ToolsFunc returns a function for agent.Config.ToolsFunc that offers the
// agent every server's tools, keyed as ListTools keys them, and keeps them
// current: each server's listing is reused from run to run until the
// server says its tool list changed (notifications/tools/list_changed) or
// its connection is replaced, and is listed again then. A server that
// fails to list is logged and left out of that run (and listed again on
// the next). The function never fails.
func (c *Client) ToolsFunc() func(ctx context.Context, rc *tools.RequestContext) (tools.Set, error) {
	return func(ctx context.Context, _ *tools.RequestContext) (tools.Set, error) {
		return c.currentTools(ctx), nil
	}
}

// currentTools is ToolsFunc's listing.
func (c *Client) currentTools(ctx context.Context) tools.Set {
	sets := make(map[string]tools.Set, len(c.servers))
	errs := c.eachServer(ctx, func(ctx context.Context, s *server) error {
		set, err := s.cachedToolList(ctx)
		if err == nil {
			s.events.mu.Lock()
			sets[s.name] = set
			s.events.mu.Unlock()
		}
		return err
	})
	all := tools.Set{}
	for _, name := range c.names {
		if err := errs[name]; err != nil {
			c.logger.Error("Failed to list tools from server:", "server", name, "error", err)
			continue
		}
		for toolName, t := range sets[name] {
			all[ToolID(name, toolName)] = t
		}
	}
	return all
}

// cachedToolList is the server's last listing while it is still valid,
// else a fresh one.
func (s *server) cachedToolList(ctx context.Context) (tools.Set, error) {
	s.mu.Lock()
	live := s.conn
	s.mu.Unlock()
	s.events.mu.Lock()
	set, from := s.events.cachedTools, s.events.cachedFrom
	s.events.mu.Unlock()
	if set != nil && from != nil && from == live && !from.dead() {
		return set, nil
	}
	// Invalidate before listing: a change notified while listing is kept.
	s.events.mu.Lock()
	s.events.cachedTools, s.events.cachedFrom = nil, nil
	gen := s.events.toolsGen
	s.events.mu.Unlock()
	set, err := s.listTools(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	live = s.conn
	s.mu.Unlock()
	s.events.mu.Lock()
	if s.events.toolsGen == gen {
		s.events.cachedTools, s.events.cachedFrom = set, live
	}
	s.events.mu.Unlock()
	return set, nil
}
