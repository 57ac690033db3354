package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// Stream runs the agent on input (a string, a model.Message or a
// []model.Message) and yields Mastra's chunks as they happen. The run
// stops when the consumer stops iterating or ctx is cancelled; no
// goroutine outlives it. A non-nil error ends the stream (an input the
// agent cannot take, a model call that failed); tool failures are chunks,
// not errors.
func (a *Agent) Stream(ctx context.Context, input any, opts ...Option) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		r, msgs, err := a.start(ctx, input, opts)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		defer r.cancel()
		r.yield = yield
		r.loop(msgs)
	}
}

// start prepares a run: its options, tools and input messages. The
// caller sets yield, runs loop and cancels the run's context.
func (a *Agent) start(ctx context.Context, input any, opts []Option) (*run, []model.Message, error) {
	msgs, err := inputMessages(input)
	if err != nil {
		return nil, nil, err
	}
	r, err := a.newRun(ctx, a.options(opts))
	if err != nil {
		return nil, nil, err
	}
	return r, msgs, nil
}

// newRun makes a run of options o: its model, tools, structured output
// and transform policy, a cancelable context and a persister for a new
// snapshot. The caller sets yield, runs it and cancels its context.
func (a *Agent) newRun(ctx context.Context, o runOptions) (*run, error) {
	m, err := a.resolveModel(ctx, o)
	if err != nil {
		return nil, err
	}
	toolset, err := a.runTools(ctx, o)
	if err != nil {
		return nil, err
	}
	var st *structuring
	if o.structured != nil {
		if st, err = newStructuring(o.structured); err != nil {
			return nil, fmt.Errorf("agent %s: %w", a.cfg.ID, err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &run{agent: a, opts: o, tools: toolset, ctx: ctx, cancel: cancel, messageID: newID(), baseModel: m, model: m, st: st,
		policy:    transformPolicy(o, a),
		persister: &persister{store: a.runStore(), runID: o.runID, agentID: a.cfg.ID, durable: a.cfg.Storage != nil},
	}
	r.setActive(o.activeTools)
	return r, nil
}

// run is one Stream invocation's state.
type run struct {
	agent     *Agent
	opts      runOptions
	tools     map[string]*tools.Tool
	yield     func(stream.Chunk, error) bool
	ctx       context.Context
	cancel    context.CancelFunc
	messageID string
	stopped   bool
	usage     model.Usage
	// seen is the conversation the current step's model call was given
	// (system messages excluded), as tools and callbacks see it; user the
	// request's input, as the finish payloads group it.
	seen []any
	user []model.Message
	// response are the messages the run produced: assistant and tool.
	response []model.Message
	// baseModel is the run's model; model and active are the current
	// step's model and offered tools.
	baseModel model.LanguageModel
	model     model.LanguageModel
	active    map[string]*tools.Tool
	// order lists active's names in the order the model is given them.
	order []string
	// steps are the finished steps; records the same as payloads list
	// them; stepCalls and stepResults the current step's chunks.
	steps       []Step
	records     []stream.StepRecord
	stepCalls   []stream.Chunk
	stepResults []stream.Chunk
	// st is the structured-output state (nil without it); stepObject
	// says the current step produced the object.
	st         *structuring
	stepObject bool
	// policy is the run's transform policy (nil: tools' own only).
	policy *transform.Policy
	// instructions is the system text; messages the conversation the
	// next model call starts from (system first); history the memory's
	// earlier messages; input the request's input as the model is given
	// it.
	instructions string
	messages     []model.Message
	history      []model.Message
	input        []model.Message
	// stepN counts finished steps; pending is the step whose tool calls
	// have not all ended; persister saves the run's snapshot.
	stepN     int
	pending   *pendingStep
	persister *persister
	// carried counts the messages the input carried of an earlier
	// response (the first of response).
	carried int
	// resumed says the run was resumed (now or before); resumedStep that
	// the next step-finish is the one of the step the resume completed.
	resumed     bool
	resumedStep bool
	// finishReason, object, usedFallback, err and tripwire are the run's
	// outcome.
	finishReason model.FinishReason
	object       any
	usedFallback bool
	err          *RunError
	tripwire     *Tripwire
}

func (r *run) emit(typ string, from stream.From, payload any) bool {
	if r.stopped {
		return false
	}
	r.send(stream.Chunk{Type: typ, RunID: r.opts.runID, From: from, Payload: payload})
	return !r.stopped
}

// loop runs a fresh run on its input.
func (r *run) loop(input []model.Message) {
	span := r.startRunSpan()
	defer span.End()
	if !r.emit(stream.TypeStart, stream.FromAgent, stream.StartPayload{ID: r.agent.cfg.ID, MessageID: r.messageID}) {
		return
	}
	instructions := r.agent.cfg.Instructions
	if r.opts.instructions != nil {
		instructions = *r.opts.instructions
	}
	if r.st != nil {
		instructions = r.st.system(instructions)
	}
	r.instructions = instructions
	r.setActive(r.opts.activeTools)
	input, carried := splitInput(r.ingestToolResults(input))
	for _, m := range input {
		if m.Role != model.RoleSystem {
			r.user = append(r.user, m)
		}
	}
	if err := r.remember(); err != nil {
		r.fail(err)
		return
	}
	if r.st != nil {
		input = r.st.inline(input)
	}
	r.input, r.carried = input, len(carried)
	r.response = append(r.response, carried...)
	r.messages = append(append(r.baseMessages(), input...), carried...)
	// The run is saved before its input: a run whose input memory holds
	// is always one recovery finds.
	if err := r.persist(storageRunning); err != nil {
		r.fail(err)
		return
	}
	if err := r.rememberInput(carried); err != nil {
		r.fail(err)
		return
	}
	r.runSteps(nil)
}

// splitInput separates the request's input from what it carries of an
// earlier response: the assistant and tool messages after its last user
// message (a client sends the model's tool calls back with the results of
// the client tools it ran, and then asks the run to go on). Mastra merges
// them into one assistant message that the run's first step continues,
// which makes them part of the run's response (nonUser, response.messages),
// not of its input; so do these. Tool messages without results carry
// nothing and are dropped.
func splitInput(msgs []model.Message) (input, carried []model.Message) {
	cut := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if role := msgs[i].Role; role == model.RoleUser {
			break
		} else if role == model.RoleAssistant || role == model.RoleTool {
			cut = i
		}
	}
	input = make([]model.Message, 0, len(msgs))
	for i, m := range msgs {
		switch {
		case m.Role == model.RoleTool && len(m.Content) == 0:
		case i >= cut && m.Role != model.RoleSystem:
			carried = append(carried, m)
		default:
			// A system message among the carried ones stays with the
			// input: it is no part of the merged assistant message.
			input = append(input, m)
		}
	}
	return input, carried
}

// baseMessages are what every model call starts with: the system message,
// context messages and memory history.
func (r *run) baseMessages() []model.Message {
	var messages []model.Message
	if r.instructions != "" {
		messages = append(messages, model.System(r.instructions))
	}
	messages = append(messages, r.opts.context...)
	return append(messages, r.history...)
}

// fail ends the run on err with an error chunk and finish reason error.
func (r *run) fail(err error) {
	var re *RunError
	if !errors.As(err, &re) {
		re = &RunError{Message: err.Error(), cause: err}
	}
	r.err = re
	r.emit(stream.TypeError, stream.FromAgent, stream.ErrorPayload{Error: r.err})
	r.finish(model.FinishError)
}

// runSteps calls the model and runs its tool calls, step after step from
// r.stepN, until the run ends, stops or suspends. A pending step (a
// resumed run's) is finished first, resume bringing what its waiting call
// waited for.
func (r *run) runSteps(resume *resumeInput) {
	for {
		if r.pending != nil {
			if !r.runPending(resume) {
				return
			}
			resume = nil
			continue
		}
		if !r.emit(stream.TypeStepStart, stream.FromAgent, stream.StepStartPayload{
			Request: map[string]any{}, Warnings: []any{}, MessageID: r.messageID, StartedAt: time.Now().UnixMilli(),
		}) {
			return
		}
		r.see(r.messages)
		stepMessages, toolChoice, err := r.prepare(r.stepN, r.messages, r.instructions)
		var res *stepResult
		if err == nil {
			mctx, mspan := r.startModelSpan()
			res, err = r.callModel(mctx, stepMessages, toolChoice)
			endModelSpan(mspan, res, err)
		}
		if err != nil {
			if r.stopped || r.ctx.Err() != nil {
				r.abort()
				return
			}
			r.fail(err)
			return
		}
		r.usage = r.usage.Add(res.usage)
		res.afterResume = r.resumed
		// The step is saved before it ends (its calls run, its messages
		// are remembered): a recovery ends it again without calling the
		// model again.
		r.pending = newPendingStep(res)
		if err := r.persist(storageRunning); err != nil {
			r.fail(err)
			return
		}
	}
}

// runPending runs the pending step's calls that have not ended (resume,
// when set, is the decision or data for one waiting call), then ends the
// step. It reports whether the loop goes on.
func (r *run) runPending(resume *resumeInput) bool {
	if len(r.pending.Calls) == 0 {
		return r.endStep(r.pending.result(), nil, false)
	}
	if len(r.stepCalls) == 0 {
		// A resumed step: its tool-call chunks went out with the stream
		// that suspended; the step's record still lists them.
		for _, c := range r.pending.Calls {
			r.stepCalls = append(r.stepCalls, stream.Chunk{Type: stream.TypeToolCall, RunID: r.opts.runID, From: stream.FromAgent,
				Payload: stream.ToolCallPayload{ToolCallID: c.ID, ToolName: c.Name, Args: argsOrEmpty(c.Args)}})
		}
	}
	results, clientPending, waiting := r.executeCalls(resume)
	if waiting || r.err != nil {
		return false
	}
	if r.stopped || r.ctx.Err() != nil {
		r.abort()
		return false
	}
	res := r.pending.result()
	return r.endStep(res, results, clientPending)
}

// endStep records a finished step (its tool results, when it made calls),
// reports it, and decides whether the loop goes on.
func (r *run) endStep(res *stepResult, results []model.ToolResultPart, clientPending bool) bool {
	reason := res.reason
	r.messages = append(r.messages, res.assistant)
	r.response = append(r.response, res.assistant)
	if len(res.calls) > 0 {
		// The step's tool message holds the results it has; Mastra lists
		// one, empty, when none has come yet (client tools the caller
		// runs). An empty one is never sent to the model (callModel).
		tm := model.ToolMessage(results...)
		if tm.Content == nil {
			tm.Content = []model.Part{}
		}
		r.messages = append(r.messages, tm)
		r.response = append(r.response, tm)
		if reason == model.FinishStop {
			reason = model.FinishToolCalls
		}
	}
	step := r.stepN
	r.stepN++
	r.addStep(step, reason, res, results)
	r.pending = nil
	if err := r.rememberStep(step, res, results); err != nil {
		r.fail(err)
		return false
	}
	if r.st != nil && len(res.calls) == 0 {
		// The answer step: its text becomes the object.
		reason = r.structure(res.text, reason)
		r.steps[len(r.steps)-1].FinishReason = reason
		if r.stopped {
			return false
		}
	}
	// Mastra continues after tool calls unless a client tool is pending
	// or the model stopped for an error, the length limit or a content
	// filter.
	continues := len(res.calls) > 0 && !clientPending && reason != model.FinishError && reason != model.FinishLength && reason != model.FinishContentFilter
	if continues && (r.stepN >= r.opts.maxSteps || r.stopWhen()) {
		continues = false
	}
	if continues {
		if err := r.persist(storageRunning); err != nil {
			r.fail(err)
			return false
		}
	}
	r.stepFinish(continues)
	if !continues {
		r.finish(reason)
	}
	return continues
}

// setActive offers the run's tools (the active ones of them), by name.
func (r *run) setActive(active []string) {
	r.active = activeSet(r.tools, active)
	r.order = make([]string, 0, len(r.active))
	for name := range r.active {
		r.order = append(r.order, name)
	}
	sort.Strings(r.order)
}

// abort ends a run whose context ended (not one its consumer stopped)
// with Mastra's abort chunk. A run saved as running is parked: its
// snapshot stays, and a recovery finishes it.
func (r *run) abort() {
	if !r.stopped {
		r.emit(stream.TypeAbort, stream.FromAgent, map[string]any{})
	}
	if r.persister.parked() {
		r.agent.cfg.Logger.Info("agent: run parked (stopped before it ended; a recovery finishes it)",
			"agent", r.agent.cfg.ID, "runId", r.opts.runID, "step", r.stepN, "cause", context.Cause(r.ctx))
	}
}

// stopWhen reports whether a stop condition holds after the last step.
func (r *run) stopWhen() bool {
	for _, cond := range r.opts.stopWhen {
		if cond(r.steps) {
			return true
		}
	}
	return false
}

// prepare applies prepareStep to a step: its model, offered tools, tool
// choice and instructions.
func (r *run) prepare(step int, messages []model.Message, instructions string) ([]model.Message, model.ToolChoice, error) {
	r.model = r.baseModel
	active := r.opts.activeTools
	choice := r.opts.toolChoice
	if r.opts.prepareStep != nil {
		ov, err := r.opts.prepareStep(r.ctx, PrepareStep{
			StepNumber: step, Steps: clip(r.steps), Model: r.model, ToolChoice: choice, ActiveTools: active,
		})
		if err != nil {
			return nil, choice, err
		}
		if ov != nil {
			if ov.Model != nil {
				r.model = ov.Model
			}
			if ov.ToolChoice != nil {
				choice = *ov.ToolChoice
			}
			if ov.ActiveTools != nil {
				active = ov.ActiveTools
			}
			if ov.Instructions != nil {
				rest := messages
				if len(rest) > 0 && rest[0].Role == model.RoleSystem {
					rest = rest[1:]
				}
				messages = append([]model.Message{model.System(*ov.Instructions)}, rest...)
			}
		}
	}
	r.setActive(active)
	messages, err := r.process(step, messages)
	if err == nil && r.opts.autoResume {
		messages = r.withAutoResume(messages)
	}
	return messages, choice, err
}

// addStep records a finished step: its chunks, content and response.
func (r *run) addStep(n int, reason model.FinishReason, res *stepResult, results []model.ToolResultPart) {
	stepType := "initial"
	if n > 0 {
		stepType = "tool-result"
	}
	content := stream.StepContent{}
	if !res.afterResume {
		content = append(content, res.assistant.Content...)
		for i := range results {
			content = append(content, model.Part{Type: model.MessageToolResult, ToolResult: &results[i]})
		}
	}
	s := Step{
		StepNumber: n, StepType: stepType, Sources: clip(res.sources), Files: clip(res.files),
		ToolCalls: clip(r.stepCalls), ToolResults: clip(r.stepResults), Content: content,
		Text: res.text, ReasoningText: res.reasoning, Reasoning: []model.Part{},
		FinishReason: reason, Usage: res.usage, Warnings: clip(res.warnings), Request: map[string]any{},
		Response:         r.responseOf(res.meta),
		ProviderMetadata: res.providerMetadata,
	}
	if res.reasoning != "" {
		s.Reasoning = []model.Part{model.Reasoning(res.reasoning)}
	}
	r.steps = append(r.steps, s)
	r.records = append(r.records, s.record())
	r.stepCalls, r.stepResults = nil, nil
}

// responseOf is a step's response: the provider's metadata (or the
// model's id and now) and the messages of the run so far.
func (r *run) responseOf(meta *model.ResponseMetadata) Response {
	resp := Response{ModelID: r.model.ModelID(), ModelMetadata: r.modelMetadata(), Messages: clip(r.response)}
	ts := time.Now()
	if meta != nil {
		resp.ID = meta.ID
		if meta.ModelID != "" {
			resp.ModelID = meta.ModelID
		}
		if !meta.Timestamp.IsZero() {
			ts = meta.Timestamp
		}
	}
	resp.Timestamp = ts.UTC().Format("2006-01-02T15:04:05.000Z")
	return resp
}

// modelMetadata names the current step's model.
func (r *run) modelMetadata() stream.ModelMetadata {
	return stream.ModelMetadata{ModelID: r.model.ModelID(), ModelVersion: "v3", ModelProvider: r.model.Provider()}
}

// payload is the step-finish (or finish) payload after the last step.
func (r *run) payload(reason model.FinishReason, continued bool, text string, usage model.Usage) stream.FinishPayload {
	p := stream.FinishPayload{
		MessageID:  r.messageID,
		StepResult: stream.StepResult{Reason: reason, IsContinued: continued},
		Metadata:   stream.StepMetadata{ModelMetadata: r.modelMetadata(), Request: map[string]any{}},
		Output:     stream.FinishOutput{Text: text, ToolCalls: []stream.ToolCallPayload{}, Usage: usage, Steps: clip(r.records)},
		Messages: &stream.MessageGroups{
			All:  append(append(make([]model.Message, 0, len(r.user)+len(r.response)), r.user...), r.response...),
			User: clip(r.user), NonUser: clip(r.response),
		},
	}
	if n := len(r.steps); n > 0 {
		last := r.steps[n-1]
		p.StepResult.Warnings = last.Warnings
		p.Metadata.ID, p.Metadata.Timestamp, p.Metadata.ModelID = last.Response.ID, last.Response.Timestamp, last.Response.ModelID
		p.Metadata.ModelMetadata = last.Response.ModelMetadata
		for _, c := range last.ToolCalls {
			if tc, ok := c.Payload.(stream.ToolCallPayload); ok {
				p.Output.ToolCalls = append(p.Output.ToolCalls, tc)
			}
		}
	}
	return p
}

func (r *run) stepFinish(continued bool) {
	last := r.steps[len(r.steps)-1]
	if fn := r.opts.onStepFinish; fn != nil {
		safeCallback(r.agent.cfg.Logger, "onStepFinish", func() { fn(r.ctx, last) })
	}
	p := r.payload(last.FinishReason, continued, last.Text, last.Usage)
	if r.resumedStep {
		p.Resumed, p.StepResult.MessageID = true, r.messageID
		r.resumedStep = false
	}
	if r.stepObject {
		p.Output.Object = r.object
		r.stepObject = false
	}
	r.emit(stream.TypeStepFinish, stream.FromAgent, p)
}

func (r *run) finish(reason model.FinishReason) {
	r.finishReason = reason
	r.forget()
	out := r.output()
	if fn := r.opts.onFinish; fn != nil {
		safeCallback(r.agent.cfg.Logger, "onFinish", func() { fn(r.ctx, out) })
	}
	p := r.payload(reason, false, out.Text, r.usage)
	p.Output.Object = r.object
	r.emit(stream.TypeFinish, stream.FromAgent, p)
}

// stepResult is what one model call produced.
type stepResult struct {
	text             string
	reasoning        string
	calls            []call
	reason           model.FinishReason
	usage            model.Usage
	warnings         []model.Warning
	meta             *model.ResponseMetadata
	sources          []model.Source
	files            []model.GeneratedFile
	providerMetadata model.ProviderMetadata
	assistant        model.Message
	// afterResume says the model call came after the run was resumed.
	// Mastra's step results then list no content: it reads a step's
	// content between the step boundaries of its response messages, which
	// a resumed run's rebuilt message list no longer has.
	afterResume bool
}

type call struct {
	id, name string
	args     json.RawMessage // nil when the model's text did not parse
	rawArgs  string
}

func argsOrEmpty(a json.RawMessage) json.RawMessage {
	if a == nil {
		return json.RawMessage("{}")
	}
	return a
}

// callModel streams one model call, emitting its text and tool-input
// chunks, and assembles the step.
func (r *run) callModel(ctx context.Context, messages []model.Message, choice model.ToolChoice) (*stepResult, error) {
	req := &model.Request{Messages: withoutEmptyToolMessages(messages), ToolChoice: choice, Settings: r.opts.settings, ProviderOptions: r.opts.providerOpts}
	var po *partialObject
	if r.st != nil {
		req.ResponseFormat = r.st.responseFormat()
		if r.st.direct() {
			po = &partialObject{}
		}
	}
	m := compat.Model{Provider: r.model.Provider(), ModelID: r.model.ModelID()}
	for _, name := range r.order {
		t := r.active[name]
		if pt, ok, err := t.ResolveProviderTool(m.Provider, m.ModelID); ok {
			if err != nil {
				return nil, err
			}
			req.Tools = append(req.Tools, model.ToolDefinition{Type: model.ToolTypeProviderDefined, Name: pt.Name, ID: pt.ID, Args: pt.Args})
			continue
		}
		ms := t.ModelSchema(m)
		input := ms.Schema
		if r.opts.autoResume && t.HasSuspendSchema() {
			input = withResumableKeys(input)
		}
		req.Tools = append(req.Tools, model.ToolDefinition{
			Type: model.ToolTypeFunction, Name: name, Description: t.Description(), InputSchema: input, Strict: t.Strict(),
		})
	}
	res := &stepResult{reason: model.FinishUnknown}
	var text, reasoning strings.Builder
	inputs := map[string]*strings.Builder{}
	inputNames := map[string]string{}
	synthesised := map[string]bool{}
	// Calls the provider ran (web search): shown and kept in the
	// assistant message, never executed.
	providerRun := map[string]bool{}
	providerArgs := map[string]json.RawMessage{}
	var providerCalls []model.Part
	var assistant []model.Part
	for p, err := range r.model.Stream(ctx, req) {
		if err != nil {
			return nil, err
		}
		switch p.Type {
		case model.PartTextStart:
			r.emit(stream.TypeTextStart, stream.FromAgent, stream.TextPayload{ID: p.ID})
		case model.PartTextDelta:
			text.WriteString(p.Delta)
			if po != nil {
				r.objectDelta(po, p.Delta, r.opts.runID, nil)
			}
			r.emit(stream.TypeTextDelta, stream.FromAgent, stream.TextPayload{ID: p.ID, Text: p.Delta})
		case model.PartTextEnd:
			r.emit(stream.TypeTextEnd, stream.FromAgent, stream.TextEndPayload{Type: stream.TypeTextEnd, ID: p.ID})
		case model.PartReasoningStart, model.PartReasoningDelta, model.PartReasoningEnd:
			reasoning.WriteString(p.Delta)
			r.emit(string(p.Type), stream.FromAgent, stream.TextPayload{ID: p.ID, Text: p.Delta})
		case model.PartStreamStart:
			res.warnings = append(res.warnings, p.Warnings...)
		case model.PartResponseMetadata:
			res.meta = p.Response
		case model.PartSource:
			if p.Source != nil {
				res.sources = append(res.sources, *p.Source)
				r.emit(stream.TypeSource, stream.FromAgent, p.Source)
			}
		case model.PartFile:
			if p.File != nil {
				res.files = append(res.files, *p.File)
				r.emit(stream.TypeFile, stream.FromAgent, p.File)
			}
		case model.PartToolInputStart:
			if p.ProviderExecuted {
				// The provider runs it (web search): its input is shown,
				// never executed here.
				providerRun[p.ID], inputNames[p.ID] = true, p.ToolName
				r.emit(stream.TypeToolCallInputStreamingStart, stream.FromAgent, stream.ToolInputStartPayload{ToolCallID: p.ID, ToolName: p.ToolName, ProviderExecuted: true})
				continue
			}
			inputs[p.ID] = &strings.Builder{}
			inputNames[p.ID] = p.ToolName
			if t := r.lookup(p.ToolName); t != nil {
				safeCallback(r.agent.cfg.Logger, "onInputStart", func() {
					t.InputStarted(r.ctx, tools.InputStartEvent{ToolCallID: p.ID, Messages: r.seen})
				})
			}
			r.emit(stream.TypeToolCallInputStreamingStart, stream.FromAgent, stream.ToolInputStartPayload{ToolCallID: p.ID, ToolName: p.ToolName})
		case model.PartToolInputDelta:
			if providerRun[p.ID] {
				r.emit(stream.TypeToolCallDelta, stream.FromAgent, stream.ToolCallDeltaPayload{ArgsTextDelta: p.Delta, ToolCallID: p.ID, ToolName: inputNames[p.ID]})
				continue
			}
			if b := inputs[p.ID]; b != nil {
				b.WriteString(p.Delta)
			}
			if t := r.lookup(inputNames[p.ID]); t != nil {
				safeCallback(r.agent.cfg.Logger, "onInputDelta", func() {
					t.InputDelta(r.ctx, tools.InputDeltaEvent{InputTextDelta: p.Delta, ToolCallID: p.ID, Messages: r.seen})
				})
			}
			meta := r.transformMeta(r.lookup(inputNames[p.ID]), transform.Context{Phase: transform.PhaseInputDelta, ToolName: inputNames[p.ID], ToolCallID: p.ID, InputTextDelta: p.Delta})
			r.emitMeta(stream.TypeToolCallDelta, stream.ToolCallDeltaPayload{ArgsTextDelta: p.Delta, ToolCallID: p.ID, ToolName: inputNames[p.ID]}, meta)
		case model.PartToolInputEnd:
			r.emit(stream.TypeToolCallInputStreamingEnd, stream.FromAgent, stream.ToolInputEndPayload{ToolCallID: p.ID})
			// Mastra synthesises the tool-call chunk here from the deltas;
			// the provider's own tool-call is merged into it, not repeated.
			if b := inputs[p.ID]; b != nil {
				c := newCall(p.ID, inputNames[p.ID], b.String())
				res.calls = append(res.calls, c)
				synthesised[p.ID] = true
				r.emitToolCall(c)
			}
		case model.PartToolCall:
			if p.ProviderExecuted {
				args := parseArgs(p.Input)
				r.emit(stream.TypeToolCall, stream.FromAgent, stream.ToolCallPayload{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: argsOrEmpty(args), ProviderExecuted: true})
				providerCalls = append(providerCalls, model.Part{Type: model.MessageToolCall,
					ToolCall: &model.ToolCallPart{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Input: argsOrEmpty(args), ProviderExecuted: true}})
				providerArgs[p.ToolCallID] = argsOrEmpty(args)
				continue
			}
			if synthesised[p.ToolCallID] {
				for i := range res.calls {
					if res.calls[i].id == p.ToolCallID && strings.TrimSpace(res.calls[i].rawArgs) == "" && p.Input != "" {
						res.calls[i] = newCall(p.ToolCallID, p.ToolName, p.Input)
					}
				}
				continue
			}
			c := newCall(p.ToolCallID, p.ToolName, p.Input)
			res.calls = append(res.calls, c)
			r.emitToolCall(c)
		case model.PartToolResult:
			// Only provider-executed tools have results in the model's
			// stream.
			r.emit(stream.TypeToolResult, stream.FromAgent, stream.ToolResultPayload{Args: providerArgs[p.ToolCallID], ToolCallID: p.ToolCallID, ToolName: p.ToolName,
				Result: p.Result, IsError: p.IsError, ProviderExecuted: true})
		case model.PartFinish:
			res.reason, res.usage, res.providerMetadata = p.FinishReason, p.Usage, p.ProviderMetadata
		case model.PartError:
			if p.Err != nil {
				return nil, p.Err
			}
			return nil, errors.New("model stream error")
		}
		if r.stopped {
			return nil, context.Canceled
		}
	}
	res.text, res.reasoning = text.String(), reasoning.String()
	if res.reasoning != "" {
		assistant = append(assistant, model.Reasoning(res.reasoning))
	}
	if res.text != "" {
		assistant = append(assistant, model.Text(res.text))
	}
	assistant = append(assistant, providerCalls...)
	for _, c := range res.calls {
		assistant = append(assistant, model.ToolCall(c.id, c.name, argsOrEmpty(c.args)))
	}
	res.assistant = model.Assistant(assistant...)
	return res, nil
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

// see brings r.seen up to a step's messages. Steps only add messages
// after the system one, so only the new ones are added (and boxed once).
func (r *run) see(messages []model.Message) {
	rest := messages
	if len(rest) > 0 && rest[0].Role == model.RoleSystem {
		rest = rest[1:]
	}
	if len(rest) < len(r.seen) {
		r.seen = r.seen[:0:0]
	}
	for _, m := range rest[len(r.seen):] {
		r.seen = append(r.seen, m)
	}
}

// emitToolCall emits a call's tool-call chunk.
func (r *run) emitToolCall(c call) {
	meta := r.transformMeta(r.lookup(c.name), transform.Context{Phase: transform.PhaseInputAvailable, ToolName: c.name, ToolCallID: c.id, Input: decodedArgs(c.args)})
	r.emitMeta(stream.TypeToolCall, stream.ToolCallPayload{ToolCallID: c.id, ToolName: c.name, Args: argsOrEmpty(c.args)}, meta)
}

// newCall parses a call's argument text (parseArgs).
func newCall(id, name, text string) call {
	return call{id: id, name: name, rawArgs: text, args: parseArgs(text)}
}

// callResult is one executed call's outcome: a result or error for the
// model (part and its chunk), a client call (client), or a call that now
// waits (waiting: approval or suspension, with the state to keep).
type callResult struct {
	index   int
	chunk   stream.Chunk
	part    *model.ToolResultPart
	client  bool
	waiting *pendingCall
}

// event is what a call's goroutine sends the run: a chunk its tool wrote,
// or its result. One channel keeps each call's events in order.
type event struct {
	chunk  stream.Chunk
	result *callResult
}

// executeCalls runs the pending step's calls that have not ended (and the
// waiting one resume is for), at most ToolCallConcurrency at a time (one
// when approval or suspension is possible), streaming tool-output chunks
// as tools write them and the outcomes in the model's call order. Each
// outcome is saved in the run's snapshot as it arrives, before it is
// reported. It returns the results of the ended calls in call order and
// whether a client call or a waiting call remains; chunks from the first
// waiting call on are held until the step is saved as suspended, so a
// person never sees a request for a run that is not yet resumable.
//
// A tool that ignores its context is not waited for once the run's
// context ends (its goroutine ends when the tool returns, delivering to
// no one).
func (r *run) executeCalls(resume *resumeInput) ([]model.ToolResultPart, bool, bool) {
	calls := r.pending.Calls
	var run []int
	for i, c := range calls {
		if c.Status == callRunning || (resume != nil && resume.toolCallID == c.ID && c.waiting()) {
			run = append(run, i)
		}
	}
	events := make(chan event, 16)
	done := make(chan struct{})
	defer close(done)
	deliver := func(ev event) {
		select {
		case events <- ev:
		case <-done:
		}
	}
	limit := r.agent.cfg.ToolCallConcurrency
	if r.sequential() {
		limit = 1
	}
	resumeOf := func(i int) *resumeInput {
		if resume != nil && resume.toolCallID == calls[i].ID {
			return resume
		}
		if calls[i].Resume != nil {
			return calls[i].Resume.input(calls[i].ID)
		}
		return nil
	}
	var wg sync.WaitGroup
	if limit == 1 {
		// One at a time, in the model's order.
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range run {
				if r.ctx.Err() != nil {
					return
				}
				deliver(event{result: r.executeOne(i, calls[i], events, resumeOf(i))})
			}
		}()
	} else {
		sem := make(chan struct{}, limit)
		for _, i := range run {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				select {
				case sem <- struct{}{}:
				case <-r.ctx.Done():
					return
				}
				res := r.executeOne(i, calls[i], events, resumeOf(i))
				<-sem
				deliver(event{result: res})
			}(i)
		}
	}
	go func() {
		wg.Wait()
		close(events)
	}()
	ready := make([]bool, len(calls))
	outcome := make([]*callResult, len(calls))
	for i := range calls {
		ready[i] = !slices.Contains(run, i)
	}
	var held []stream.Chunk
	holding := false
	next := 0
	var saveErr error
	emitReady := func() {
		for next < len(calls) && ready[next] {
			if res := outcome[next]; res != nil {
				switch {
				case res.client:
				case res.waiting != nil:
					holding = true
					held = append(held, res.chunk)
				case holding:
					held = append(held, res.chunk)
				default:
					r.send(res.chunk)
				}
			}
			next++
		}
	}
	emitReady()
	for {
		var ev event
		var ok bool
		select {
		case ev, ok = <-events:
		case <-r.ctx.Done():
			return nil, false, false
		}
		if !ok {
			break
		}
		if ev.result == nil {
			r.send(ev.chunk)
			continue
		}
		res := ev.result
		r.record(res)
		if saveErr == nil {
			saveErr = r.persist(storageRunning)
		}
		outcome[res.index], ready[res.index] = res, true
		emitReady()
	}
	if saveErr != nil {
		r.agent.cfg.Logger.Error(saveErr.Error(), "agent", r.agent.cfg.ID, "runId", r.opts.runID)
	}
	var results []model.ToolResultPart
	client, waiting := false, false
	for _, c := range r.pending.Calls {
		switch {
		case c.Status == callDone && c.Result != nil:
			results = append(results, *c.Result)
		case c.Status == callClient:
			client = true
		case c.waiting():
			waiting = true
		}
	}
	if waiting {
		if err := r.suspend(); err != nil {
			r.fail(err)
			return nil, false, true
		}
		for _, c := range held {
			r.send(c)
		}
	}
	return results, client, waiting
}

// record keeps a call's outcome in the pending step.
func (r *run) record(res *callResult) {
	pc := &r.pending.Calls[res.index]
	switch {
	case res.client:
		pc.Status = callClient
	case res.waiting != nil:
		*pc = *res.waiting
		pc.Resume = nil
	default:
		pc.Status, pc.Result, pc.Resume = callDone, res.part, nil
		if raw, ok := res.part.Output.Value.(json.RawMessage); ok {
			pc.Value = raw
		}
	}
}

// send yields a chunk unless the consumer has stopped; stopping cancels
// the run so running tools end.
func (r *run) send(c stream.Chunk) {
	if r.stopped {
		return
	}
	switch c.Type {
	case stream.TypeToolCall:
		r.stepCalls = append(r.stepCalls, c)
	case stream.TypeToolResult:
		r.stepResults = append(r.stepResults, c)
	}
	if !r.yield(c, nil) {
		r.stopped = true
		r.cancel()
	}
}

// chanWriter sends a tool's writes to the run as chunks.
type chanWriter struct {
	ctx    context.Context
	runID  string
	call   call
	events chan<- event
}

func (w chanWriter) send(c stream.Chunk) error {
	select {
	case w.events <- event{chunk: c}:
		return nil
	case <-w.ctx.Done():
		return w.ctx.Err()
	}
}

func (w chanWriter) Write(data any) error {
	return w.send(stream.Chunk{Type: stream.TypeToolOutput, RunID: w.runID, From: stream.FromUser,
		Payload: stream.ToolOutputPayload{Output: data, ToolCallID: w.call.id, ToolName: w.call.name}})
}

func (w chanWriter) Custom(c tools.DataChunk) error {
	if err := tools.CheckDataChunk(c); err != nil {
		return err
	}
	return w.send(stream.Chunk{Type: c.Type, Data: c.Data, ID: c.ID, Transient: c.Transient})
}

// lookup finds a tool by model-facing name, then by id (Mastra lets the
// model call a tool by its id).
func (r *run) lookup(name string) *tools.Tool {
	if t, ok := r.active[name]; ok {
		return t
	}
	for _, t := range r.active {
		if t.ID() == name {
			return t
		}
	}
	return nil
}

func (r *run) executeOne(i int, pc pendingCall, events chan<- event, rs *resumeInput) *callResult {
	c := pc.call()
	t := r.lookup(c.name)
	if t == nil {
		return r.errorResult(i, c, "ToolNotFoundError", toolNotFoundMessage(c.name, r.order))
	}
	if c.args != nil && rs == nil {
		var input any
		_ = json.Unmarshal(c.args, &input)
		safeCallback(r.agent.cfg.Logger, "onInputAvailable", func() {
			t.InputAvailable(r.ctx, tools.InputAvailableEvent[any]{Input: input, ToolCallID: c.id, Messages: r.seen})
		})
	}
	if t.IsClientTool() {
		return &callResult{index: i, client: true}
	}
	if c.args == nil {
		return r.errorResult(i, c, "Error", `Tool "`+c.name+`" received invalid arguments — the provided JSON could not be parsed. Please provide valid JSON arguments.`)
	}
	c, target, err := r.takeResumeKeys(c)
	if err != nil {
		return r.errorResult(i, c, "Error", err.Error())
	}
	if target != nil {
		defer r.settleAutoResumed(target)
	}
	// Approval is decided by a person through the resume API only: a
	// call waiting for approval runs on an approval, a decline ends it,
	// and a fresh call that needs approval waits for one.
	switch {
	case rs != nil && rs.approval != nil:
		if !rs.approval.Approved {
			return r.deniedResult(i, c, rs.approval.Reason)
		}
		rs = nil
	case rs == nil && target == nil && r.approvalRequired(t, c):
		w := pc
		w.Status = callApproval
		return &callResult{index: i, waiting: &w, chunk: r.waitingChunk(w)}
	}
	hc := HookCall{ToolName: c.name, ToolCallID: c.id, Input: c.args, AgentID: r.agent.cfg.ID, AgentName: r.agent.cfg.Name}
	if before := r.opts.hooks.BeforeToolCall; before != nil {
		var skip *Skip
		err := callHook("beforeToolCall", func() (err error) { skip, err = before(r.ctx, hc); return err })
		if err != nil {
			return r.errorResult(i, c, "Error", err.Error())
		}
		if skip != nil {
			raw, err := json.Marshal(skip.Output)
			if err != nil {
				return r.errorResult(i, c, "Error", err.Error())
			}
			return r.resultOf(i, c, raw, nil)
		}
	}
	inv := &tools.Invocation{
		Tracer:     r.agent.cfg.Tracer,
		ToolCallID: c.id, ToolName: c.name, RunID: r.opts.runID, Messages: r.seen,
		RequestContext: r.opts.requestContext, Logger: r.agent.cfg.Logger,
		Writer: chanWriter{ctx: r.ctx, runID: r.opts.runID, call: c, events: events},
		Agent:  &tools.AgentInfo{AgentID: r.agent.cfg.ID},
	}
	if rs != nil {
		inv.ResumeData = rs.data
		if inv.ResumeData == nil {
			inv.ResumeData = json.RawMessage("null")
		}
		inv.SuspendPayload = pc.SuspendPayload
		inv.Agent.SuspendedToolRunID = pc.SuspendedRunID
	}
	if target != nil {
		target.resumedInvocation(inv)
	}
	ms := t.ModelSchema(compat.Model{Provider: r.model.Provider(), ModelID: r.model.ModelID()})
	inv.PrepareInput = ms.PrepareInput
	res, err := t.Execute(r.ctx, c.args, inv)
	if err == nil && res != nil && res.Suspended() {
		return r.suspendedResult(i, pc, t, res.Suspension)
	}
	var output any
	if res != nil {
		output = res.Output
	}
	if after := r.opts.hooks.AfterToolCall; after != nil {
		if herr := callHook("afterToolCall", func() error { return after(r.ctx, hc, output, err) }); herr != nil && err == nil {
			err = herr
		}
	}
	if err != nil {
		return r.errorResult(i, c, "Error", err.Error())
	}
	raw, err := res.JSON()
	if err != nil {
		return r.errorResult(i, c, "Error", err.Error())
	}
	var meta map[string]any
	mo, merr := t.ModelOutput(r.ctx, c.name, res.Output, inv)
	if merr == nil && mo != nil {
		meta = map[string]any{"mastra": map[string]any{"modelOutput": mo}}
	}
	safeCallback(r.agent.cfg.Logger, "onOutput", func() {
		t.Output(r.ctx, tools.OutputEvent{Output: res.Output, ToolName: c.name, ToolCallID: c.id})
	})
	cr := r.resultOf(i, c, raw, meta)
	if mo != nil && merr == nil {
		cr.part.Output = *mo
	}
	return cr
}

// resultOf builds a tool-result chunk and the part the model sees (the
// JSON result, unless toModelOutput mapped it).
func (r *run) resultOf(i int, c call, raw []byte, meta map[string]any) *callResult {
	var result any
	_ = json.Unmarshal(raw, &result)
	tmeta := r.transformMeta(r.lookup(c.name), transform.Context{Phase: transform.PhaseOutputAvailable, ToolName: c.name, ToolCallID: c.id, Input: decodedArgs(c.args), Output: result})
	return &callResult{
		index: i,
		chunk: stream.Chunk{Type: stream.TypeToolResult, RunID: r.opts.runID, From: stream.FromAgent, Metadata: tmeta, Payload: stream.ToolResultPayload{
			Args: c.args, ToolCallID: c.id, ToolName: c.name, Result: json.RawMessage(raw), ProviderMetadata: meta,
		}},
		// The model gets the result's JSON as the tool wrote it (key order
		// kept, as Mastra's).
		part: &model.ToolResultPart{ToolCallID: c.id, ToolName: c.name, Output: model.JSONOutput(json.RawMessage(raw)), Input: argsOrEmpty(c.args)},
	}
}

func (r *run) errorResult(i int, c call, name, message string) *callResult {
	errValue := map[string]any{"name": name, "message": message}
	tmeta := r.transformMeta(r.lookup(c.name), transform.Context{Phase: transform.PhaseError, ToolName: c.name, ToolCallID: c.id, Input: decodedArgs(c.args), Error: errValue})
	return &callResult{
		index: i,
		chunk: stream.Chunk{Type: stream.TypeToolError, RunID: r.opts.runID, From: stream.FromAgent, Metadata: tmeta, Payload: stream.ToolErrorPayload{
			ToolCallID: c.id, ToolName: c.name, Error: errValue, Args: c.args,
		}},
		part: &model.ToolResultPart{ToolCallID: c.id, ToolName: c.name, Output: model.ErrorTextOutput(message), Input: argsOrEmpty(c.args)},
	}
}

// toolNotFoundMessage is Mastra's text, literal ".." included when no tool
// is available.
func toolNotFoundMessage(name string, names []string) string {
	available := ""
	if len(names) > 0 {
		available = " Available tools: " + strings.Join(names, ", ")
	}
	return `Tool "` + name + `" not found.` + available + `. Call tools by their exact name only — never add prefixes, namespaces, or colons.`
}

func inputMessages(input any) ([]model.Message, error) {
	switch t := input.(type) {
	case string:
		return []model.Message{model.UserText(t)}, nil
	case model.Message:
		return []model.Message{t}, nil
	case []model.Message:
		return t, nil
	}
	return nil, fmt.Errorf("agent: input must be a string, a model.Message or a []model.Message, not %T", input)
}

func newID() string { return uuid.New() }
