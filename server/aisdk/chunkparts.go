package aisdk

import (
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// Mastra chunk types the stream package has no constant for.
const (
	chunkTripwire        = "tripwire"
	backgroundTaskPrefix = "background-task-"
)

// approvalIDSeparator joins a run id and a tool call id into the approval
// id of a v6 tool-approval-request ("<runId>::<toolCallId>").
const approvalIDSeparator = "::"

// The states Mastra's approval and suspension data parts carry (their
// own part types).
const (
	stateToolCallApproval  = PartToolCallApproval
	stateToolCallSuspended = PartToolCallSuspended
)

func (c *Converter) emit(p Part) { c.out = append(c.out, p) }

// process converts one chunk (Mastra's convertMastraChunkToAISDK followed
// by convertFullStreamChunkToUIMessageStream).
func (c *Converter) process(ch stream.Chunk) {
	switch ch.Type {
	case chunkTripwire:
		c.tripwire = true
	case stream.TypeFinish:
		c.finished = true
	case stream.TypeObjectResult:
		c.emit(Part{Type: PartStructuredOutput, Data: jsObject{{"object", ch.Object}}})
	}
	if ch.IsData() {
		c.emit(Part{Type: ch.Type, Data: ch.Data, ID: ch.ID})
		return
	}
	switch ch.Type {
	case stream.TypeStart:
		c.start(ch)
	case stream.TypeStepStart:
		c.emit(Part{Type: PartStartStep})
	case stream.TypeStepFinish:
		c.emit(Part{Type: PartFinishStep})
	case stream.TypeFinish:
		c.finish(ch)
	case stream.TypeTextStart, stream.TypeTextDelta, stream.TypeTextEnd:
		c.text(ch)
	case stream.TypeReasoningStart, stream.TypeReasoningDelta, stream.TypeReasoningEnd:
		if c.opts.SendReasoning {
			c.reasoning(ch)
		}
	case stream.TypeSource:
		if c.opts.SendSources {
			c.source(ch)
		}
	case stream.TypeFile:
		c.file(ch)
	case stream.TypeToolCallInputStreamingStart:
		c.toolInputStart(ch)
	case stream.TypeToolCallDelta:
		c.toolInputDelta(ch)
	case stream.TypeToolCall:
		c.toolCall(ch)
	case stream.TypeToolResult:
		c.toolResult(ch)
	case stream.TypeToolError:
		c.toolError(ch)
	case stream.TypeToolCallApproval:
		c.toolApproval(ch)
	case stream.TypeToolCallSuspended:
		c.toolSuspended(ch)
	case stream.TypeToolOutputDenied:
		if p, ok := ch.Payload.(stream.ToolOutputDeniedPayload); ok {
			c.emit(Part{Type: PartToolOutputDenied, ToolCallID: p.ToolCallID})
		} else if o := payloadObject(ch.Payload); o != nil {
			c.emit(Part{Type: PartToolOutputDenied, ToolCallID: str(o, "toolCallId")})
		}
	case stream.TypeToolOutput:
		c.toolOutput(ch)
	case stream.TypeError:
		c.emit(Part{Type: PartError, ErrorText: c.opts.errorText(errorOf(ch.Payload))})
	case stream.TypeAbort:
		c.emit(Part{Type: PartAbort})
	case chunkTripwire:
		c.tripwirePart(ch)
	default:
		if strings.HasPrefix(ch.Type, backgroundTaskPrefix) {
			c.backgroundTask(ch)
		}
		// Anything else (tool-call-input-streaming-end, raw, object,
		// reasoning signatures, chunks of other kinds) has no UI part.
	}
}

func (c *Converter) start(ch stream.Chunk) {
	if c.opts.OmitStart {
		return
	}
	id := c.opts.LastMessageID
	if id == "" {
		if p, ok := ch.Payload.(stream.StartPayload); ok {
			id = p.MessageID
		} else if o := payloadObject(ch.Payload); o != nil {
			id = str(o, "messageId")
		}
	}
	c.emit(Part{Type: PartStart, MessageID: id, MessageMetadata: c.metadata(ch)})
}

func (c *Converter) finish(ch stream.Chunk) {
	if c.opts.OmitFinish {
		return
	}
	var reason string
	if p, ok := ch.Payload.(stream.FinishPayload); ok {
		reason = string(p.StepResult.Reason)
	}
	c.emit(Part{Type: PartFinish, FinishReason: c.finishReason(reason), MessageMetadata: c.metadata(ch)})
}

// finishReason maps Mastra's finish reasons to the AI SDK's.
func (c *Converter) finishReason(r string) string {
	if c.opts.v6() {
		switch model.FinishReason(r) {
		case model.FinishStop, model.FinishLength, model.FinishContentFilter, model.FinishToolCalls, model.FinishError, model.FinishOther:
			return r
		}
		return "other"
	}
	if r == string(model.FinishTripwire) || r == "retry" {
		return "other"
	}
	return r
}

func (c *Converter) metadata(ch stream.Chunk) any {
	if c.opts.MessageMetadata == nil {
		return nil
	}
	return c.opts.MessageMetadata(ch)
}

func (c *Converter) text(ch stream.Chunk) {
	var id, text string
	var pm map[string]any
	switch p := ch.Payload.(type) {
	case stream.TextPayload:
		id, text, pm = p.ID, p.Text, p.ProviderMetadata
	case stream.TextEndPayload:
		id, pm = p.ID, p.ProviderMetadata
	default:
		return
	}
	if !c.opts.SendReasoning {
		pm = withoutOpenAIItemID(pm)
	}
	switch ch.Type {
	case stream.TypeTextStart:
		c.emit(Part{Type: PartTextStart, ID: id, ProviderMetadata: pm})
	case stream.TypeTextDelta:
		c.emit(Part{Type: PartTextDelta, ID: id, Delta: text, ProviderMetadata: pm})
	default:
		c.emit(Part{Type: PartTextEnd, ID: id, ProviderMetadata: pm})
	}
}

// withoutOpenAIItemID drops providerMetadata.openai.itemId: replaying a
// stored OpenAI text item needs its reasoning item, which is not sent
// when reasoning is hidden.
func withoutOpenAIItemID(pm map[string]any) map[string]any {
	openai, ok := pm["openai"].(map[string]any)
	if !ok || openai["itemId"] == nil {
		return pm
	}
	out := make(map[string]any, len(pm))
	for k, v := range pm {
		out[k] = v
	}
	o := make(map[string]any, len(openai))
	for k, v := range openai {
		if k != "itemId" {
			o[k] = v
		}
	}
	out["openai"] = o
	return out
}

func (c *Converter) reasoning(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.TextPayload)
	if !ok {
		return
	}
	typ := map[string]string{
		stream.TypeReasoningStart: PartReasoningStart,
		stream.TypeReasoningDelta: PartReasoningDelta,
		stream.TypeReasoningEnd:   PartReasoningEnd,
	}[ch.Type]
	part := Part{Type: typ, ID: p.ID, ProviderMetadata: p.ProviderMetadata}
	if typ == PartReasoningDelta {
		part.Delta = p.Text
	}
	c.emit(part)
}

// source converts a source chunk (Mastra's payload names the media type
// mimeType, gomastra's model.Source mediaType).
func (c *Converter) source(ch stream.Chunk) {
	o := payloadObject(ch.Payload)
	if o == nil {
		return
	}
	pm, _ := plain(get(o, "providerMetadata")).(map[string]any)
	if str(o, "sourceType") == "url" {
		c.emit(Part{Type: PartSourceURL, SourceID: str(o, "id"), URL: str(o, "url"), Title: str(o, "title"), ProviderMetadata: pm})
		return
	}
	mt := str(o, "mimeType")
	if mt == "" {
		mt = str(o, "mediaType")
	}
	c.emit(Part{Type: PartSourceDocument, SourceID: str(o, "id"), MediaType: mt, Title: str(o, "title"), Filename: str(o, "filename"), ProviderMetadata: pm})
}

// file converts a generated file into a data: URL part.
func (c *Converter) file(ch stream.Chunk) {
	var mt, data string
	if f, ok := ch.Payload.(model.GeneratedFile); ok {
		mt, data = f.MediaType, f.Data
	} else if o := payloadObject(ch.Payload); o != nil {
		if mt = str(o, "mimeType"); mt == "" {
			mt = str(o, "mediaType")
		}
		if data = str(o, "base64"); data == "" {
			data = str(o, "data")
		}
	} else {
		return
	}
	c.emit(Part{Type: PartFile, MediaType: mt, URL: "data:" + mt + ";base64," + data})
}

func (c *Converter) tripwirePart(ch stream.Chunk) {
	o := payloadObject(ch.Payload)
	data := jsObject{}
	for _, k := range []string{"reason", "retry", "metadata", "processorId"} {
		data = appendDefined(data, k, get(o, k))
	}
	c.emit(Part{Type: PartTripwire, Data: data})
}

// backgroundTask turns a background-task-* chunk into a
// data-background-task-* part: its payload plus state and runId, keyed by
// the task (or tool call) id.
func (c *Converter) backgroundTask(ch stream.Chunk) {
	o := payloadObject(ch.Payload)
	if o == nil {
		return
	}
	typ := "data-" + ch.Type
	id := str(o, "taskId")
	if id == "" {
		id = str(o, "toolCallId")
	}
	data := o.clone().set("state", typ)
	if ch.RunID != "" {
		data = data.set("runId", ch.RunID)
	} else {
		data = data.set("runId", get(o, "runId"))
	}
	c.emit(Part{Type: typ, Data: data, ID: id})
}
