package agent

import "github.com/gomastra/mastra/tools"

// mcpGuidance is the forwarded instructions of the MCP servers whose
// tools the run has (tools.MCPServerGuidance), "" when none forwards any.
func (k *toolkit) mcpGuidance() string {
	var listed []*tools.Tool
	for _, t := range k.all {
		if t != nil && t.MCPMetadata() != nil {
			listed = append(listed, t)
		}
	}
	if len(listed) == 0 {
		return ""
	}
	return tools.MCPServerGuidance(listed)
}
