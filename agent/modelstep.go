package agent

import (
	"errors"
	"slices"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// modelStep starts a step: its step-start chunk, its model call (with
// what prepareStep and the processors make of it), then the step saved
// as pending before any of its calls runs, so that a recovery goes on
// from there without calling the model again. It reports whether the
// run goes on.
func (r *run) modelStep(out sink) bool {
	messages := r.conversation()
	r.report.see(messages)
	messages, choice, err := r.prepare(r.state.Step, messages)
	if tw, ok := errors.AsType[TripwireError](err); ok {
		r.trip(out, tw.Tripwire())
		return false
	}
	if !r.emit(out, stream.TypeStepStart, stream.StepStartPayload{
		Request: map[string]any{}, Warnings: []any{}, MessageID: r.report.messageID, StartedAt: r.engine.Now().UnixMilli(),
	}) {
		return false
	}
	var a assembled
	if err == nil {
		err = r.callModel(out, messages, choice, &a)
	}
	if err != nil {
		if r.aborted() {
			r.finish(out, finishAbort)
		} else if r.stopped() || r.ctx.Err() != nil {
			r.abort(out)
		} else {
			r.fail(out, err)
		}
		return false
	}
	a.step.AfterResume = r.state.Resumed
	a.step.ToolCalls, a.step.ProviderResults = a.toolCalls, a.toolResults
	if err := r.change(stateChange{Step: &a.step}, true); err != nil {
		r.fail(out, err)
		return false
	}
	return true
}

// callModel streams one model call of the step into out and assembles
// it into a.
func (r *run) callModel(out sink, messages []model.Message, choice model.ToolChoice, a *assembled) error {
	req, err := r.request(messages, choice)
	if err != nil {
		return err
	}
	ctx, span := r.startModelSpan()
	as := &assembler{runID: r.opts.runID, tool: r.kit.lookup, meta: r.transformMeta, seen: r.report.seen, log: r.agent.cfg.Logger,
		call: r.engine.CallModel}
	if r.st != nil && r.st.direct() {
		as.objects = r.objectsOf(r.opts.runID, nil)
	}
	for c := range as.run(ctx, r.models.step, req, a) {
		if !out(c) {
			break
		}
	}
	endModelSpan(span, a)
	return a.err
}

// conversation is what the next model call starts from: the system
// message, the guidance of the MCP servers whose tools the run has (a
// system message of its own, as Mastra sends it), context messages and
// memory history, then the input and what the run has produced.
func (r *run) conversation() []model.Message {
	s := r.state
	var messages []model.Message
	if s.Instructions != "" {
		messages = append(messages, model.System(s.Instructions))
	}
	if s.WorkingMemory != "" {
		messages = append(messages, model.System(s.WorkingMemory))
	}
	if s.Recalled != "" {
		messages = append(messages, model.System(s.Recalled))
	}
	if guidance := r.kit.mcpGuidance(); guidance != "" {
		messages = append(messages, model.System(guidance))
	}
	messages = append(messages, s.Context...)
	messages = append(messages, s.History...)
	messages = append(messages, s.Input...)
	return append(messages, s.Response...)
}

// request is the model request of a step: its messages (empty tool
// messages and half tool pairs left out: providers refuse them), the
// step's tools as the model is offered them (provider tools resolved for
// the model, schemas rewritten for it), tool choice, settings and
// response format.
func (r *run) request(messages []model.Message, choice model.ToolChoice) (*model.Request, error) {
	messages = r.withBackgroundPrompt(messages)
	req := &model.Request{Messages: SentMessages(messages), ToolChoice: choice, Settings: r.opts.settings, ProviderOptions: r.opts.providerOpts}
	if r.st != nil {
		req.ResponseFormat = r.st.responseFormat()
	}
	m := compat.Model{Provider: r.models.step.Provider(), ModelID: r.models.step.ModelID()}
	for _, name := range r.kit.order {
		def, err := r.toolDefinition(name, r.kit.active[name], m)
		if err != nil {
			return nil, err
		}
		req.Tools = append(req.Tools, def)
	}
	return req, nil
}

// toolDefinition is how tool t is offered to model m as name.
func (r *run) toolDefinition(name string, t *tools.Tool, m compat.Model) (model.ToolDefinition, error) {
	if pt, ok, err := t.ResolveProviderTool(m.Provider, m.ModelID); ok {
		if err != nil {
			return model.ToolDefinition{}, err
		}
		return model.ToolDefinition{Type: model.ToolTypeProviderDefined, Name: pt.Name, ID: pt.ID, Args: pt.Args}, nil
	}
	input := t.ModelSchema(m).Schema
	if r.opts.autoResume && t.HasSuspendSchema() {
		input = withResumableKeys(input)
	}
	if r.backgroundEligible(name, t) {
		input = withBackgroundField(input)
	}
	return model.ToolDefinition{Type: model.ToolTypeFunction, Name: name, Description: t.Description(), InputSchema: input, Strict: t.Strict()}, nil
}

// withoutEmptyToolMessages returns msgs without the tool messages that
// hold no result (providers refuse them); msgs itself when there are none.
func withoutEmptyToolMessages(msgs []model.Message) []model.Message {
	empty := func(m model.Message) bool { return m.Role == model.RoleTool && len(m.Content) == 0 }
	if !slices.ContainsFunc(msgs, empty) {
		return msgs
	}
	out := make([]model.Message, 0, len(msgs))
	for _, m := range msgs {
		if !empty(m) {
			out = append(out, m)
		}
	}
	return out
}

// prepare applies prepareStep to a step: its model, offered tools, tool
// choice and instructions; then the processors, and the auto-resume
// directive.
func (r *run) prepare(step int, messages []model.Message) ([]model.Message, model.ToolChoice, error) {
	r.models.step = r.models.base
	active, choice := r.opts.activeTools, r.opts.toolChoice
	if r.opts.prepareStep != nil {
		ov, err := r.opts.prepareStep(r.ctx, PrepareStep{
			StepNumber: step, Steps: clip(r.report.steps), Model: r.models.step, ToolChoice: choice, ActiveTools: active,
		})
		if err != nil {
			return nil, choice, err
		}
		if ov != nil {
			messages, active, choice = r.override(ov, messages, active, choice)
		}
	}
	r.kit.offer(active)
	messages, err := r.process(step, messages)
	if err == nil && r.opts.autoResume {
		messages = r.withAutoResume(messages)
	}
	return messages, choice, err
}

// override applies a prepareStep's overrides to one step.
func (r *run) override(ov *StepOverrides, messages []model.Message, active []string, choice model.ToolChoice) ([]model.Message, []string, model.ToolChoice) {
	if ov.Model != nil {
		r.models.step = ov.Model
	}
	if ov.ToolChoice != nil {
		choice = *ov.ToolChoice
	}
	if ov.ActiveTools != nil {
		active = ov.ActiveTools
	}
	if ov.Instructions != nil {
		rest := messages
		if len(rest) > 0 && rest[0].Role == model.RoleSystem && r.state.Instructions != "" {
			rest = rest[1:] // (the instructions; another system message stays)
		}
		messages = append([]model.Message{model.System(*ov.Instructions)}, rest...)
	}
	return messages, active, choice
}
