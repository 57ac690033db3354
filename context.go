package mastra

import (
	"context"

	"github.com/gomastra/mastra/tools"
)

// FromContext returns the *Mastra a tool runs in, typed: what a tool's
// Execute uses to reach other agents and workflows (Mastra's
// `mastra.getAgent()` inside execute). ctx is the tool's tools.Context
// (or a workflows.StepContext, or any context derived from one): its
// Mastra(), or else the registry of the tool call it was derived from
// ([tools.RegistryFrom]). It returns nil when there is no registry or
// when the registry is not a *Mastra.
//
// Every path that runs a tool hands it the registry it was reached
// through: agent runs (their sub-agents and workflow-<key> tools too),
// workflow steps, the server's routes and MCP servers. Agents and
// workflows learn their registry from [Mastra.AddAgent] and
// [Mastra.AddWorkflow].
func FromContext(ctx context.Context) *Mastra {
	var reg tools.Registry
	if tc, ok := ctx.(tools.Context); ok {
		reg = tc.Mastra()
	} else {
		reg = tools.RegistryFrom(ctx)
	}
	m, _ := reg.(*Mastra)
	return m
}
