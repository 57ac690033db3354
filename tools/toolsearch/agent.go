package toolsearch

import (
	"context"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
)

// A Processor is an agent step processor (Config.Processors) whose tools
// change per step.
var (
	_ agent.StepProcessor = (*Processor)(nil)
	_ agent.ToolResolver  = (*Processor)(nil)
)

// ProcessStep runs Prepare before a model call: its system messages go
// after the step's leading system messages, and its tools replace the
// step's (search_tools, load_tool, the agent's tools, the loaded tools).
func (p *Processor) ProcessStep(ctx context.Context, in *agent.StepInput) error {
	prep, err := p.Prepare(ctx, stepOf(in))
	if err != nil {
		return err
	}
	in.Messages = withSystem(in.Messages, prep.System)
	in.Tools = stepTools(prep.Tools)
	return nil
}

// ResolveTools gives a resumed run the step's tools (the loaded ones
// included) without adding messages, so that a call to a loaded tool that
// waited for approval runs when approved.
func (p *Processor) ResolveTools(ctx context.Context, in *agent.StepInput) error {
	prep, err := p.Prepare(ctx, stepOf(in))
	if err != nil {
		return err
	}
	in.Tools = stepTools(prep.Tools)
	return nil
}

func stepOf(in *agent.StepInput) Step {
	s := Step{ThreadID: in.ThreadID, RequestContext: in.RequestContext, Messages: in.Messages}
	for _, t := range in.Tools {
		s.Tools = append(s.Tools, NamedTool{Name: t.Name, Tool: t.Tool})
	}
	return s
}

func stepTools(list []NamedTool) []agent.StepTool {
	out := make([]agent.StepTool, len(list))
	for i, nt := range list {
		out[i] = agent.StepTool{Name: nt.Name, Tool: nt.Tool}
	}
	return out
}

// withSystem inserts system messages after the leading ones.
func withSystem(msgs []model.Message, system []string) []model.Message {
	at := 0
	for at < len(msgs) && msgs[at].Role == model.RoleSystem {
		at++
	}
	out := make([]model.Message, 0, len(msgs)+len(system))
	out = append(out, msgs[:at]...)
	for _, s := range system {
		out = append(out, model.System(s))
	}
	return append(out, msgs[at:]...)
}
