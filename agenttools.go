package mastra

import (
	"maps"
	"slices"

	"github.com/gomastra/mastra/tools"
)

// AllTools returns every tool reachable through the registry by id: the
// registry's tools in [Mastra.ToolKeys] order, then each agent's static
// tools ([agent.Agent.StaticTools]) in [Mastra.AgentKeys] order, each
// agent's by sorted key, keyed by tool id. There is one entry per tool
// id (the first) and per key. It is the Go counterpart of the tools
// Mastra's dev server lists (the tools the project defines, then the
// registry's); GET /api/tools serves it. Tools an agent's ToolsFunc
// chooses per request are not listed (they need a request context).
func (m *Mastra) AllTools() (keys []string, set tools.Set) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	set = make(tools.Set, len(m.tools.items))
	seen := make(map[string]bool, len(m.tools.items))
	add := func(key string, t *tools.Tool) {
		if t == nil || seen[t.ID()] || set[key] != nil {
			return
		}
		seen[t.ID()] = true
		set[key] = t
		keys = append(keys, key)
	}
	for _, k := range m.tools.keys {
		add(k, m.tools.items[k])
	}
	m.eachAgentTool(func(t *tools.Tool) bool {
		add(t.ID(), t)
		return false
	})
	return append(make([]string, 0, len(keys)), keys...), set
}

// eachAgentTool calls yield with the agents' static tools, agents in key
// order and each agent's tools by sorted key, until yield returns true.
// The caller holds m.mu.
func (m *Mastra) eachAgentTool(yield func(*tools.Tool) bool) {
	for _, ak := range m.agents.keys {
		own := m.agents.items[ak].StaticTools()
		for _, k := range slices.Sorted(maps.Keys(own)) {
			if t := own[k]; t != nil && yield(t) {
				return
			}
		}
	}
}

// agentToolByID is the first agent tool (in eachAgentTool's order) whose
// id is id, or nil. The caller holds m.mu.
func (m *Mastra) agentToolByID(id string) *tools.Tool {
	var found *tools.Tool
	m.eachAgentTool(func(t *tools.Tool) bool {
		if t.ID() == id {
			found = t
		}
		return found != nil
	})
	return found
}
