package agent

import (
	"context"
	"slices"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// StopCondition is Mastra's stopWhen: evaluated after each step that would
// continue; true stops the run.
type StopCondition func(steps []Step) bool

// StepCountIs stops after n steps.
func StepCountIs(n int) StopCondition {
	return func(steps []Step) bool { return len(steps) >= n }
}

// HasToolCall stops after a step that called the named tool.
func HasToolCall(name string) StopCondition {
	return func(steps []Step) bool {
		if len(steps) == 0 {
			return false
		}
		return slices.Contains(steps[len(steps)-1].ToolNames(), name)
	}
}

// PrepareStep is what a prepareStep function sees before a model call.
type PrepareStep struct {
	StepNumber  int
	Steps       []Step
	Model       model.LanguageModel
	ToolChoice  model.ToolChoice
	ActiveTools []string
}

// StepOverrides change one step; nil fields keep the run's values.
type StepOverrides struct {
	Model       model.LanguageModel
	ToolChoice  *model.ToolChoice
	ActiveTools []string
	// Instructions replace the system message for this step.
	Instructions *string
}

// WithStopWhen adds stop conditions (OR-combined with maxSteps).
func WithStopWhen(conds ...StopCondition) Option {
	return func(o *runOptions) { o.stopWhen = append(o.stopWhen, conds...) }
}

// WithActiveTools limits the tools offered this run to these record keys;
// a call to any other is answered as a tool that does not exist.
func WithActiveTools(names ...string) Option {
	return func(o *runOptions) { o.activeTools = names }
}

// WithToolsets adds tool sets to this run (after the agent's tools,
// before client tools; a later set wins on a name clash).
func WithToolsets(sets ...tools.Set) Option {
	return func(o *runOptions) { o.toolsets = append(o.toolsets, sets...) }
}

// WithPrepareStep runs fn before each model call; its overrides apply to
// that step only. An error ends the run with an error chunk.
func WithPrepareStep(fn func(ctx context.Context, s PrepareStep) (*StepOverrides, error)) Option {
	return func(o *runOptions) { o.prepareStep = fn }
}

// activeSet returns the tools offered in a step: all, or the active ones.
func activeSet(all map[string]*tools.Tool, active []string) map[string]*tools.Tool {
	if active == nil {
		return all
	}
	out := make(map[string]*tools.Tool, len(active))
	for _, name := range active {
		if t, ok := all[SanitizeToolName(name)]; ok {
			out[SanitizeToolName(name)] = t
		}
	}
	return out
}

// WithOnStepFinish calls fn after each step (Mastra's onStepFinish).
// Panics are recovered and logged.
func WithOnStepFinish(fn func(ctx context.Context, step Step)) Option {
	return func(o *runOptions) { o.onStepFinish = fn }
}

// WithOnFinish calls fn once when the run finishes (not when the consumer
// stops early). Panics are recovered and logged.
func WithOnFinish(fn func(ctx context.Context, out *Output)) Option {
	return func(o *runOptions) { o.onFinish = fn }
}
