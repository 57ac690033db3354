package mcpclient

import (
	"strings"

	"github.com/gomastra/mastra/tools"
)

// ServerInstructions returns the instructions each connected server gave
// when the session started, by server name ("" for servers that gave none
// or are not connected yet), as Mastra's getServerInstructions.
func (c *Client) ServerInstructions() map[string]string {
	out := make(map[string]string, len(c.servers))
	for _, name := range c.names {
		out[name] = c.servers[name].instructions()
	}
	return out
}

// Guidance is the system-prompt text Mastra forwards to an agent for the
// MCP tools in set: for each server (in name order) that has
// ForwardInstructions, gave instructions, and has a tool in set (as
// listed by this client), a section
//
//	## Guidance from MCP server "<name>"
//
//	<instructions, trimmed, cut at InstructionsMaxLength characters>
//
// Sections are separated by a blank line; "" when there is none. An agent
// offering the tools sends it by itself, as a system message after its
// instructions (see tools.MCPServerGuidance); Guidance shows the text.
func (c *Client) Guidance(set tools.Set) string {
	var mds []*tools.MCPMetadata
	for _, name := range c.names {
		if s := c.servers[name]; s.usedIn(set) {
			// The server's instructions as they are now (a tool keeps
			// those of the session it was listed in).
			mds = append(mds, &tools.MCPMetadata{ServerName: name, ServerInstructions: s.instructions(),
				ForwardInstructions: s.cfg.ForwardInstructions, InstructionsMaxLength: s.cfg.InstructionsMaxLength})
		}
	}
	return tools.MCPGuidance(mds...)
}

// usedIn reports whether set holds one of the server's tools.
func (s *server) usedIn(set tools.Set) bool {
	s.namesMu.Lock()
	defer s.namesMu.Unlock()
	prefix := s.name + "_"
	for _, t := range set {
		if t == nil {
			continue
		}
		if name, ok := strings.CutPrefix(t.ID(), prefix); ok && s.toolNames[name] {
			return true
		}
	}
	return false
}
