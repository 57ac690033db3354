package tools

import (
	"sort"
	"strings"
	"unicode/utf16"
)

// DefaultMCPInstructionsMaxLength is how much of an MCP server's
// instructions is forwarded when MCPMetadata.InstructionsMaxLength is 0
// (Mastra's 512 characters).
const DefaultMCPInstructionsMaxLength = 512

// MCPMetadata is what a tool an MCP client listed knows of its server
// (Mastra's mcpMetadata): its name, the instructions it gave when the
// session started, and whether they are forwarded to the system prompt
// of agents offering the tool.
type MCPMetadata struct {
	ServerName         string
	ServerInstructions string
	// ForwardInstructions opts the server's instructions into agents'
	// system prompts (Mastra's forwardInstructions; off by default).
	ForwardInstructions bool
	// InstructionsMaxLength bounds the forwarded instructions, in UTF-16
	// code units as JavaScript counts them: 0 means
	// DefaultMCPInstructionsMaxLength, negative forwards nothing.
	InstructionsMaxLength int
}

// forwarded is the text forwarded of the instructions: trimmed and cut
// at the length bound; "" when the server does not forward them.
func (m *MCPMetadata) forwarded() string {
	if m == nil || m.ServerName == "" || !m.ForwardInstructions {
		return ""
	}
	max := m.InstructionsMaxLength
	if max == 0 {
		max = DefaultMCPInstructionsMaxLength
	}
	return strings.TrimSpace(truncateUTF16(strings.TrimSpace(m.ServerInstructions), max))
}

// MCPServerGuidance is [MCPGuidance] of the MCP metadata of the tools
// in ts: the system-prompt text of the MCP servers whose tools an agent
// offers. Agents send it as a system message after their instructions.
func MCPServerGuidance(ts []*Tool) string {
	var mds []*MCPMetadata
	for _, t := range ts {
		if t != nil && t.mcpMetadata != nil {
			mds = append(mds, t.mcpMetadata)
		}
	}
	return MCPGuidance(mds...)
}

// MCPGuidance is the system-prompt text of the MCP servers described by
// mds that forward their instructions (Mastra's buildMcpServerGuidance):
// one section per server (the first of its entries counts), in
// server-name order,
//
//	## Guidance from MCP server "<name>"
//
//	<instructions, trimmed, cut at InstructionsMaxLength>
//
// separated by a blank line; "" when there is none.
func MCPGuidance(mds ...*MCPMetadata) string {
	var byServer map[string]string
	for _, md := range mds {
		if md == nil {
			continue
		}
		if _, seen := byServer[md.ServerName]; seen {
			continue
		}
		if text := md.forwarded(); text != "" {
			if byServer == nil {
				byServer = map[string]string{}
			}
			byServer[md.ServerName] = text
		}
	}
	if len(byServer) == 0 {
		return ""
	}
	names := make([]string, 0, len(byServer))
	for name := range byServer {
		names = append(names, name)
	}
	sort.Strings(names)
	sections := make([]string, len(names))
	for i, name := range names {
		sections[i] = "## Guidance from MCP server \"" + name + "\"\n\n" + byServer[name]
	}
	return strings.Join(sections, "\n\n")
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
