package agent

import (
	"maps"

	"github.com/gomastra/mastra/tools"
)

// UseRegistry makes reg the registry the agent's tools reach as
// ctx.Mastra() (Mastra's __registerMastra); mastra.AddAgent calls it. A
// nil reg clears it. An agent without one (a sub-agent that was never
// registered, an agent run by an MCP server's ask_<key> tool) uses the
// registry of the tool call its run was started from, so sub-agents
// inherit their parent's ([tools.RegistryFrom]). UseRegistry is safe to
// call while runs are going; tool calls that start afterwards see the
// new registry.
func (a *Agent) UseRegistry(reg tools.Registry) { a.registry.Set(reg) }

// Registry returns the registry given to UseRegistry, or nil.
func (a *Agent) Registry() tools.Registry { return a.registry.Get() }

// StaticTools returns the tools the agent has without a request
// context, by key: Config.Tools and its signals' tools (not ToolsFunc's,
// nor its agent-<key> and workflow-<key> tools). A copy. They are what
// a registry finds on its agents by tool id.
func (a *Agent) StaticTools() tools.Set {
	out := make(tools.Set, len(a.cfg.Tools)+len(a.signalTools))
	maps.Copy(out, a.cfg.Tools)
	maps.Copy(out, a.signalTools)
	return out
}

// registry is what the run's tools reach as ctx.Mastra(): the agent's
// registry, or else the registry of the tool call the run was started
// from.
func (r *run) registry() tools.Registry { return r.agent.registry.For(r.ctx) }
