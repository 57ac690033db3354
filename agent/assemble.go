package agent

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"log/slog"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// assembler turns one model call's stream into Mastra's chunks and the
// finished step. It knows nothing of the run but what it is given here:
// the run id the chunks carry, the tools by model-facing name (for their
// input callbacks and display transforms), and, with structured output,
// what turns answer text into partial objects.
type assembler struct {
	runID string
	// tool finds a tool by the name the model called it by.
	tool func(name string) *tools.Tool
	// meta is the chunk metadata of one tool phase (nil without
	// transforms).
	meta func(t *tools.Tool, tc transform.Context) map[string]any
	// seen is the conversation tools' callbacks see.
	seen []any
	log  *slog.Logger
	// objects, when set, turns a delta of the answer into an "object"
	// chunk sent before the delta's own.
	objects func(delta string) (stream.Chunk, bool)
	// call makes the model call (the run's Engine.CallModel).
	call func(ctx context.Context, m model.LanguageModel, req *model.Request) iter.Seq2[model.StreamPart, error]
}

// assembled is what a model call produced: the step, and the tool-call
// and tool-result chunks it streamed (in order: the provider's own calls
// and results among them), once the stream has ended.
type assembled struct {
	step                   stepState
	toolCalls, toolResults []stream.Chunk
	err                    error
}

// assembly is one model call in progress.
type assembly struct {
	as  *assembler
	ctx context.Context
	out *assembled
	// text and reasoning collect the answer.
	text, reasoning strings.Builder
	// inputs are the tool calls whose arguments are streaming, by id.
	inputs map[string]*streamingInput
	// calls are the calls the model made, in order.
	calls []callState
	// providerCalls are calls the provider ran itself (web search): shown
	// and kept in the assistant message, never executed.
	providerCalls []model.Part
	providerArgs  map[string]json.RawMessage
}

// streamingInput is one tool call whose arguments are streaming.
type streamingInput struct {
	name     string
	tool     *tools.Tool
	args     strings.Builder
	provider bool // the provider runs it
	ended    bool // its tool-call went out at input end
}

// run streams the chunks of one model call of m on req; when the
// sequence ends, out holds the step or the error that ended it. A
// consumer that stops early ends the call.
func (as *assembler) run(ctx context.Context, m model.LanguageModel, req *model.Request, out *assembled) iter.Seq[stream.Chunk] {
	return func(yield func(stream.Chunk) bool) {
		a := &assembly{as: as, ctx: ctx, out: out, inputs: map[string]*streamingInput{}, providerArgs: map[string]json.RawMessage{}}
		out.step = stepState{Reason: string(model.FinishUnknown)}
		for p, err := range as.call(ctx, m, req) {
			if err == nil && p.Type == model.PartError {
				err = p.Err
				if err == nil {
					err = errors.New("model stream error")
				}
			}
			if err != nil {
				out.err = err
				return
			}
			for _, c := range a.part(p) {
				if !yield(c) {
					out.err = context.Canceled
					return
				}
			}
		}
		a.finish()
	}
}

// part handles one stream part and returns the chunks it makes.
func (a *assembly) part(p model.StreamPart) []stream.Chunk {
	st := &a.out.step
	switch p.Type {
	case model.PartTextStart:
		return a.chunks(stream.TypeTextStart, stream.TextPayload{ID: p.ID})
	case model.PartTextDelta:
		a.text.WriteString(p.Delta)
		return a.textDelta(p)
	case model.PartTextEnd:
		return a.chunks(stream.TypeTextEnd, stream.TextEndPayload{Type: stream.TypeTextEnd, ID: p.ID})
	case model.PartReasoningStart, model.PartReasoningDelta, model.PartReasoningEnd:
		a.reasoning.WriteString(p.Delta)
		return a.chunks(string(p.Type), stream.TextPayload{ID: p.ID, Text: p.Delta})
	case model.PartStreamStart:
		st.Warnings = append(st.Warnings, p.Warnings...)
	case model.PartResponseMetadata:
		if r := p.Response; r != nil {
			st.Meta = &responseStamp{ID: r.ID, Timestamp: r.Timestamp, ModelID: r.ModelID}
		}
	case model.PartSource:
		if p.Source != nil {
			st.Sources = append(st.Sources, *p.Source)
			return a.chunks(stream.TypeSource, p.Source)
		}
	case model.PartFile:
		if p.File != nil {
			st.Files = append(st.Files, *p.File)
			return a.chunks(stream.TypeFile, p.File)
		}
	case model.PartToolInputStart:
		return a.inputStart(p)
	case model.PartToolInputDelta:
		return a.inputDelta(p)
	case model.PartToolInputEnd:
		return a.inputEnd(p)
	case model.PartToolCall:
		return a.toolCall(p)
	case model.PartToolResult:
		// Only provider-executed tools have results in the model's stream.
		c := a.chunks(stream.TypeToolResult, stream.ToolResultPayload{Args: a.providerArgs[p.ToolCallID], ToolCallID: p.ToolCallID,
			ToolName: p.ToolName, Result: p.Result, IsError: p.IsError, ProviderExecuted: true})
		a.out.toolResults = append(a.out.toolResults, c...)
		return c
	case model.PartFinish:
		st.Reason, st.Usage, st.ProviderMetadata = string(p.FinishReason), storedUsage(p.Usage), p.ProviderMetadata
	}
	return nil
}

// chunks is one chunk of the run.
func (a *assembly) chunks(typ string, payload any) []stream.Chunk {
	return []stream.Chunk{{Type: typ, RunID: a.as.runID, From: stream.FromAgent, Payload: payload}}
}

// textDelta is a delta of the answer: a partial object first, with
// structured output.
func (a *assembly) textDelta(p model.StreamPart) []stream.Chunk {
	c := a.chunks(stream.TypeTextDelta, stream.TextPayload{ID: p.ID, Text: p.Delta})
	if a.as.objects != nil {
		if obj, ok := a.as.objects(p.Delta); ok {
			return append([]stream.Chunk{obj}, c...)
		}
	}
	return c
}

// inputStart opens a tool call whose arguments stream.
func (a *assembly) inputStart(p model.StreamPart) []stream.Chunk {
	in := &streamingInput{name: p.ToolName, provider: p.ProviderExecuted}
	a.inputs[p.ID] = in
	if in.provider {
		// The provider runs it (web search): its input is shown, never
		// executed here.
		return a.chunks(stream.TypeToolCallInputStreamingStart, stream.ToolInputStartPayload{ToolCallID: p.ID, ToolName: p.ToolName, ProviderExecuted: true})
	}
	if in.tool = a.as.tool(p.ToolName); in.tool != nil {
		safeCallback(a.as.log, "onInputStart", func() {
			in.tool.InputStarted(a.ctx, tools.InputStartEvent{ToolCallID: p.ID, Messages: a.as.seen})
		})
	}
	return a.chunks(stream.TypeToolCallInputStreamingStart, stream.ToolInputStartPayload{ToolCallID: p.ID, ToolName: p.ToolName})
}

// inputDelta is a piece of a tool call's arguments.
func (a *assembly) inputDelta(p model.StreamPart) []stream.Chunk {
	in := a.inputs[p.ID]
	if in == nil { // a delta of no started input: shown, kept nowhere
		return a.chunks(stream.TypeToolCallDelta, stream.ToolCallDeltaPayload{ArgsTextDelta: p.Delta, ToolCallID: p.ID})
	}
	payload := stream.ToolCallDeltaPayload{ArgsTextDelta: p.Delta, ToolCallID: p.ID, ToolName: in.name}
	if in.provider {
		return a.chunks(stream.TypeToolCallDelta, payload)
	}
	in.args.WriteString(p.Delta)
	c := stream.Chunk{Type: stream.TypeToolCallDelta, RunID: a.as.runID, From: stream.FromAgent, Payload: payload}
	if t := in.tool; t != nil {
		safeCallback(a.as.log, "onInputDelta", func() {
			t.InputDelta(a.ctx, tools.InputDeltaEvent{InputTextDelta: p.Delta, ToolCallID: p.ID, Messages: a.as.seen})
		})
		c.Metadata = a.as.meta(t, transform.Context{Phase: transform.PhaseInputDelta, ToolName: in.name, ToolCallID: p.ID, InputTextDelta: p.Delta})
	}
	return []stream.Chunk{c}
}

// inputEnd closes a tool call's arguments: Mastra synthesises the
// tool-call chunk here from the deltas (the provider's own tool-call is
// merged into it, not repeated).
func (a *assembly) inputEnd(p model.StreamPart) []stream.Chunk {
	out := a.chunks(stream.TypeToolCallInputStreamingEnd, stream.ToolInputEndPayload{ToolCallID: p.ID})
	in := a.inputs[p.ID]
	if in == nil || in.provider {
		return out
	}
	in.ended = true
	return append(out, a.addCall(newCallState(p.ID, in.name, in.args.String()), in.tool))
}

// toolCall is a whole tool call: the provider's (shown, never run), one
// whose arguments streamed (merged), or a new one.
func (a *assembly) toolCall(p model.StreamPart) []stream.Chunk {
	if p.ProviderExecuted {
		args := argsOrEmpty(parseArgs(p.Input))
		a.providerCalls = append(a.providerCalls, model.Part{Type: model.MessageToolCall,
			ToolCall: &model.ToolCallPart{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Input: args, ProviderExecuted: true}})
		a.providerArgs[p.ToolCallID] = args
		c := a.chunks(stream.TypeToolCall, stream.ToolCallPayload{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: args, ProviderExecuted: true})
		a.out.toolCalls = append(a.out.toolCalls, c...)
		return c
	}
	if in := a.inputs[p.ToolCallID]; in != nil && in.ended {
		for i := range a.calls {
			if a.calls[i].ID == p.ToolCallID && strings.TrimSpace(a.calls[i].Raw) == "" && p.Input != "" {
				a.calls[i] = newCallState(p.ToolCallID, p.ToolName, p.Input)
			}
		}
		return nil
	}
	return []stream.Chunk{a.addCall(newCallState(p.ToolCallID, p.ToolName, p.Input), a.as.tool(p.ToolName))}
}

// addCall adds a call of the step and returns its tool-call chunk.
func (a *assembly) addCall(c callState, t *tools.Tool) stream.Chunk {
	a.calls = append(a.calls, c)
	chunk := stream.Chunk{Type: stream.TypeToolCall, RunID: a.as.runID, From: stream.FromAgent,
		Payload: stream.ToolCallPayload{ToolCallID: c.ID, ToolName: c.Name, Args: argsOrEmpty(c.Args)}}
	if t != nil {
		chunk.Metadata = a.as.meta(t, transform.Context{Phase: transform.PhaseInputAvailable, ToolName: c.Name, ToolCallID: c.ID, Input: decodedArgs(c.Args)})
	}
	a.out.toolCalls = append(a.out.toolCalls, chunk)
	return chunk
}

// finish completes the step once the stream has ended: its text, and the
// assistant message (reasoning, text, the provider's calls, then the
// calls to run).
func (a *assembly) finish() {
	st := &a.out.step
	st.Text, st.Reasoning, st.Calls = a.text.String(), a.reasoning.String(), a.calls
	var parts []model.Part
	if st.Reasoning != "" {
		parts = append(parts, model.Reasoning(st.Reasoning))
	}
	if st.Text != "" {
		parts = append(parts, model.Text(st.Text))
	}
	parts = append(parts, a.providerCalls...)
	for _, c := range a.calls {
		parts = append(parts, model.ToolCall(c.ID, c.Name, argsOrEmpty(c.Args)))
	}
	st.Assistant = model.Assistant(parts...)
}

// newCallState is a call the model made, its argument text parsed
// (parseArgs), waiting to run.
func newCallState(id, name, text string) callState {
	return callState{ID: id, Name: name, Raw: text, Args: parseArgs(text), Status: callRunning}
}

// argsOrEmpty is a call's arguments, {} when they did not parse.
func argsOrEmpty(a json.RawMessage) json.RawMessage {
	if a == nil {
		return json.RawMessage("{}")
	}
	return a
}
