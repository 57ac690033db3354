package toolsearch

import (
	"context"

	"github.com/gomastra/mastra/tools"
)

// Phase says what a Filter is asked about.
type Phase string

// The phases of Options.Filter.
const (
	// PhaseSearch: may the tool appear in search_tools results and in the
	// injected catalogue?
	PhaseSearch Phase = "search"
	// PhaseLoad: may load_tool load it (and suggest its name)?
	PhaseLoad Phase = "load"
	// PhaseActive: may a loaded tool be offered to the model this step?
	PhaseActive Phase = "active"
)

// FilterArgs is what Options.Filter is given.
type FilterArgs struct {
	// Context is the step's or the tool call's context.
	Context context.Context
	// ToolName is the tool's id (not its catalogue key).
	ToolName string
	Tool     *tools.Tool
	// RequestContext is the run's (never nil).
	RequestContext *tools.RequestContext
	Phase          Phase
}

// allowed asks the filter about a tool: no filter allows everything; an
// error or a panic disallows it (Mastra's false or throw).
func (p *Processor) allowed(ctx context.Context, t *tools.Tool, rc *tools.RequestContext, phase Phase) (ok bool) {
	if p.filter == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return p.filter(FilterArgs{Context: ctx, ToolName: t.ID(), Tool: t, RequestContext: rc, Phase: phase}) == nil
}
