package workflows

import (
	"context"

	"github.com/gomastra/mastra/tools"
)

// UseRegistry makes reg the registry the workflow's steps reach as
// ctx.Mastra() (Mastra's __registerMastra); mastra.AddWorkflow calls it.
// A nil reg clears it. Without one, a run started inside a tool call
// (a workflow-<key> tool, a nested workflow, a step of an outer run)
// hands its steps the registry of that call ([tools.RegistryFrom]).
// UseRegistry is safe to call while runs are going; steps that start
// afterwards see the new registry.
func (w *Workflow) UseRegistry(reg tools.Registry) { w.registry.Set(reg) }

// Registry returns the registry given to UseRegistry, or nil.
func (w *Workflow) Registry() tools.Registry { return w.registry.Get() }

// withRegistry sets inv.Mastra, for a step called with ctx, to the
// workflow's registry, or else to the registry of the tool call the run
// is inside.
func (r *Run) withRegistry(ctx context.Context, inv *tools.Invocation) *tools.Invocation {
	inv.Mastra = r.wf.registry.For(ctx)
	return inv
}
