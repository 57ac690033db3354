package aisdk

import (
	"encoding/json"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools/transform"
)

// The conversions of tool chunks: the input streaming in, the call, its
// result or error, and the waits for approval or for resume data. Each
// shows the display transform of its phase when the chunk carries one
// (transform.TargetDisplay in the chunk's metadata): the part shows the
// transformed value, while the raw payload stays in the chunk for
// everything else.

// display returns the display transform of a tool payload for phase,
// when the chunk's metadata carries one with a transformed value.
func display(ch stream.Chunk, phase transform.Phase) (any, bool) {
	r, ok := transform.Lookup(ch.Metadata, transform.TargetDisplay, phase)
	if !ok || !r.HasTransformed {
		return nil, false
	}
	if r.Transformed == nil {
		return json.RawMessage("null"), true
	}
	return r.Transformed, true
}

func boolPtr(b bool) *bool { return &b }

// executed is providerExecuted as a part carries it: only when set.
func executed(b bool) *bool {
	if b {
		return boolPtr(true)
	}
	return nil
}

// rawArgs makes a tool call's arguments a part value (nil when absent).
func rawArgs(args json.RawMessage) any {
	if len(args) == 0 {
		return nil
	}
	return args
}

func (c *Converter) toolInputStart(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolInputStartPayload)
	if !ok {
		return
	}
	c.emit(Part{Type: PartToolInputStart, ToolCallID: p.ToolCallID, ToolName: p.ToolName,
		ProviderExecuted: executed(p.ProviderExecuted), Dynamic: boolPtr(p.Dynamic)})
}

func (c *Converter) toolInputDelta(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolCallDeltaPayload)
	if !ok {
		return
	}
	delta := p.ArgsTextDelta
	if r, ok := transform.Lookup(ch.Metadata, transform.TargetDisplay, transform.PhaseInputDelta); ok {
		if r.Suppress {
			return
		}
		switch t := r.Transformed.(type) {
		case nil:
		case string:
			delta = t
		default:
			if b, err := wire.MarshalNoHTML(t); err == nil {
				delta = string(b)
			}
		}
	}
	c.emit(Part{Type: PartToolInputDelta, ToolCallID: p.ToolCallID, InputTextDelta: delta})
}

func (c *Converter) toolCall(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolCallPayload)
	if !ok {
		return
	}
	input := rawArgs(p.Args)
	if v, ok := display(ch, transform.PhaseInputAvailable); ok {
		input = v
	}
	part := Part{Type: PartToolInputAvailable, ToolCallID: p.ToolCallID, ToolName: p.ToolName, Input: input,
		ProviderExecuted: executed(p.ProviderExecuted), ProviderMetadata: p.ProviderMetadata}
	if p.Observability != nil {
		part.ToolMetadata = map[string]any{"__mastraObservability": p.Observability}
	}
	c.emit(part)
}

func (c *Converter) toolResult(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolResultPayload)
	if !ok {
		return
	}
	output := p.Result
	if v, ok := display(ch, transform.PhaseOutputAvailable); ok {
		output = v
	}
	c.emit(Part{Type: PartToolOutputAvailable, ToolCallID: p.ToolCallID, Output: output,
		ProviderExecuted: executed(p.ProviderExecuted), ProviderMetadata: p.ProviderMetadata})
}

func (c *Converter) toolError(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolErrorPayload)
	if !ok {
		return
	}
	errValue := p.Error
	if v, ok := display(ch, transform.PhaseError); ok {
		errValue = v
	}
	c.emit(Part{Type: PartToolOutputError, ToolCallID: p.ToolCallID, ErrorText: c.opts.errorText(errValue),
		ProviderExecuted: executed(p.ProviderExecuted)})
}

func (c *Converter) toolApproval(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolCallApprovalPayload)
	if !ok {
		return
	}
	args := rawArgs(p.Args)
	if v, ok := display(ch, transform.PhaseApproval); ok {
		args = v
	}
	if c.opts.v6() {
		c.emit(Part{Type: PartToolApprovalRequest, ApprovalID: ch.RunID + approvalIDSeparator + p.ToolCallID, ToolCallID: p.ToolCallID})
	}
	data := jsObject{{"state", stateToolCallApproval}}
	data = appendDefined(data, "runId", optString(ch.RunID))
	data = append(data, member{"toolCallId", p.ToolCallID}, member{"toolName", p.ToolName})
	data = appendDefined(data, "args", args)
	data = appendDefined(data, "resumeSchema", optString(p.ResumeSchema))
	c.emit(Part{Type: PartToolCallApproval, Data: data, ID: p.ToolCallID})
}

func (c *Converter) toolSuspended(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.ToolCallSuspendedPayload)
	if !ok {
		return
	}
	payload := p.SuspendPayload
	if v, ok := display(ch, transform.PhaseSuspend); ok {
		payload = v
	}
	data := jsObject{{"state", stateToolCallSuspended}}
	data = appendDefined(data, "runId", optString(ch.RunID))
	data = append(data, member{"toolCallId", p.ToolCallID}, member{"toolName", p.ToolName})
	data = appendDefined(data, "suspendPayload", payload)
	data = appendDefined(data, "resumeSchema", optString(p.ResumeSchema))
	c.emit(Part{Type: PartToolCallSuspended, Data: data, ID: p.ToolCallID})
}
