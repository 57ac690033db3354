package mcpclient

import (
	"strings"
	"unicode/utf16"

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
	var sections []string
	for _, name := range c.names {
		s := c.servers[name]
		if !s.cfg.ForwardInstructions || !s.usedIn(set) {
			continue
		}
		text := strings.TrimSpace(s.instructions())
		if text == "" {
			continue
		}
		text = strings.TrimSpace(truncateUTF16(text, s.cfg.instructionsMax))
		if text == "" {
			continue
		}
		sections = append(sections, "## Guidance from MCP server \""+name+"\"\n\n"+text)
	}
	return strings.Join(sections, "\n\n")
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

// truncateUTF16 cuts s at max UTF-16 code units, as JavaScript's slice.
func truncateUTF16(s string, max int) string {
	if max <= 0 {
		return ""
	}
	n := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if n+w > max {
			return s[:i]
		}
		n += w
	}
	return s
}
