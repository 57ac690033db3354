package agent

import "github.com/gomastra/mastra/tools"

// mcpGuidance is the forwarded instructions of the MCP servers whose
// tools the run has (tools.MCPGuidance), "" when none forwards any.
func (k *toolkit) mcpGuidance() string {
	var mds []*tools.MCPMetadata
	for _, t := range k.all {
		if t != nil && t.MCPMetadata() != nil {
			mds = append(mds, t.MCPMetadata())
		}
	}
	return tools.MCPGuidance(mds...)
}
