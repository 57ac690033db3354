package stream

import (
	"encoding/json"

	"github.com/gomastra/mastra/internal/wire"
)

// Payload types, with Mastra's keys. Optional keys are omitted when zero.

// StartPayload is the payload of "start".
type StartPayload struct {
	ID        string `json:"id,omitempty"`
	MessageID string `json:"messageId,omitempty"`
}

// StepStartPayload is the payload of "step-start". Request is redacted to
// {} by servers (Redact), which then send it last, as Mastra's redaction
// re-adds it.
type StepStartPayload struct {
	Request   any    `json:"request"`
	Warnings  []any  `json:"warnings"`
	MessageID string `json:"messageId,omitempty"`
	StartedAt int64  `json:"startedAt,omitempty"`

	// redacted marks a payload Redact made: its request goes last.
	redacted bool
}

// MarshalJSON writes {request, warnings, messageId, startedAt}, or
// {warnings, messageId, startedAt, request} once redacted.
func (p StepStartPayload) MarshalJSON() ([]byte, error) {
	type plain struct {
		Request   any    `json:"request"`
		Warnings  []any  `json:"warnings"`
		MessageID string `json:"messageId,omitempty"`
		StartedAt int64  `json:"startedAt,omitempty"`
	}
	if !p.redacted {
		return wire.MarshalNoHTML(plain{p.Request, p.Warnings, p.MessageID, p.StartedAt})
	}
	return wire.MarshalNoHTML(struct {
		Warnings  []any  `json:"warnings"`
		MessageID string `json:"messageId,omitempty"`
		StartedAt int64  `json:"startedAt,omitempty"`
		Request   any    `json:"request"`
	}{p.Warnings, p.MessageID, p.StartedAt, p.Request})
}

// TextPayload is the payload of text-start, text-delta (Text) and the
// reasoning chunks.
type TextPayload struct {
	ID               string         `json:"id"`
	Text             string         `json:"text,omitempty"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
}

// TextEndPayload is the payload of "text-end"; Mastra repeats the chunk
// type inside it.
type TextEndPayload struct {
	Type             string         `json:"type"`
	ID               string         `json:"id"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
}

// ToolInputStartPayload is the payload of
// "tool-call-input-streaming-start".
type ToolInputStartPayload struct {
	ToolCallID       string         `json:"toolCallId"`
	ToolName         string         `json:"toolName"`
	ProviderExecuted bool           `json:"providerExecuted,omitempty"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
	Dynamic          bool           `json:"dynamic,omitempty"`
	Title            string         `json:"title,omitempty"`
}

// ToolCallDeltaPayload is the payload of "tool-call-delta".
type ToolCallDeltaPayload struct {
	ArgsTextDelta    string         `json:"argsTextDelta"`
	ToolCallID       string         `json:"toolCallId"`
	ToolName         string         `json:"toolName,omitempty"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
}

// ToolInputEndPayload is the payload of "tool-call-input-streaming-end".
type ToolInputEndPayload struct {
	ToolCallID       string         `json:"toolCallId"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
}

// ToolCallPayload is the payload of "tool-call". Args is the parsed
// arguments ({} when the model's text was empty or not JSON).
type ToolCallPayload struct {
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Args             json.RawMessage `json:"args,omitempty"`
	ProviderExecuted bool            `json:"providerExecuted,omitempty"`
	ProviderMetadata map[string]any  `json:"providerMetadata,omitempty"`
	Output           any             `json:"output,omitempty"`
	Dynamic          bool            `json:"dynamic,omitempty"`
	Title            string          `json:"title,omitempty"`
	Observability    map[string]any  `json:"observability,omitempty"`
}

// ToolResultPayload is the payload of "tool-result" (args first, as
// Mastra writes it). When toModelOutput ran, ProviderMetadata.mastra
// .modelOutput holds what the model saw.
type ToolResultPayload struct {
	Args             json.RawMessage `json:"args,omitempty"`
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Result           any             `json:"result"`
	IsError          bool            `json:"isError,omitempty"`
	ProviderExecuted bool            `json:"providerExecuted,omitempty"`
	ProviderMetadata map[string]any  `json:"providerMetadata,omitempty"`
	Dynamic          bool            `json:"dynamic,omitempty"`
}

// ToolErrorPayload is the payload of "tool-error".
type ToolErrorPayload struct {
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Error            any             `json:"error"`
	Args             json.RawMessage `json:"args,omitempty"`
	ProviderExecuted bool            `json:"providerExecuted,omitempty"`
	ProviderMetadata map[string]any  `json:"providerMetadata,omitempty"`
	ID               string          `json:"id,omitempty"`
}

// Approval is a recorded approval decision.
type Approval struct {
	ID       string `json:"id"`
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// ToolOutputDeniedPayload is the payload of "tool-output-denied".
type ToolOutputDeniedPayload struct {
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args,omitempty"`
	Approval   Approval        `json:"approval"`
}

// ToolCallApprovalPayload is the payload of "tool-call-approval";
// ResumeSchema is a JSON string.
type ToolCallApprovalPayload struct {
	ToolCallID   string          `json:"toolCallId"`
	ToolName     string          `json:"toolName"`
	Args         json.RawMessage `json:"args"`
	ResumeSchema string          `json:"resumeSchema"`
}

// ApprovalResumeSchema is the resume schema of approval chunks, as Mastra
// serialises it: the draft-07 JSON Schema of its Zod schema {approved:
// boolean, reason?: string}, descriptions included.
const ApprovalResumeSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"approved":{"type":"boolean","description":"Controls if the tool call is approved or not, should be true when approved and false when declined"},"reason":{"description":"Optional explanation for the decision, surfaced to the model when the tool call is declined","type":"string"}},"required":["approved"],"additionalProperties":false}`

// ToolCallSuspendedPayload is the payload of "tool-call-suspended";
// ResumeSchema is a JSON string, or absent.
type ToolCallSuspendedPayload struct {
	ToolCallID     string          `json:"toolCallId"`
	ToolName       string          `json:"toolName"`
	SuspendPayload any             `json:"suspendPayload"`
	Args           json.RawMessage `json:"args"`
	ResumeSchema   string          `json:"resumeSchema,omitempty"`
}

// ToolOutputPayload is the payload of "tool-output" (from USER): what a
// tool wrote with its writer.
type ToolOutputPayload struct {
	Output     any    `json:"output"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
}

// ErrorPayload is the payload of "error".
type ErrorPayload struct {
	Error any `json:"error"`
}

func newPayload(typ string) any {
	switch typ {
	case TypeStart:
		return &StartPayload{}
	case TypeStepStart:
		return &StepStartPayload{}
	case TypeTextStart, TypeTextDelta, TypeReasoningStart, TypeReasoningDelta, TypeReasoningEnd:
		return &TextPayload{}
	case TypeTextEnd:
		return &TextEndPayload{}
	case TypeToolCallInputStreamingStart:
		return &ToolInputStartPayload{}
	case TypeToolCallDelta:
		return &ToolCallDeltaPayload{}
	case TypeToolCallInputStreamingEnd:
		return &ToolInputEndPayload{}
	case TypeToolCall:
		return &ToolCallPayload{}
	case TypeToolResult:
		return &ToolResultPayload{}
	case TypeToolError:
		return &ToolErrorPayload{}
	case TypeToolOutputDenied:
		return &ToolOutputDeniedPayload{}
	case TypeToolCallApproval:
		return &ToolCallApprovalPayload{}
	case TypeToolCallSuspended:
		return &ToolCallSuspendedPayload{}
	case TypeToolOutput:
		return &ToolOutputPayload{}
	case TypeError:
		return &ErrorPayload{}
	case TypeStepFinish, TypeFinish:
		return &FinishPayload{}
	}
	return nil
}

// derefPayload turns the decoded pointer into the value type callers
// switch on.
func derefPayload(p any) any {
	switch t := p.(type) {
	case *StartPayload:
		return *t
	case *FinishPayload:
		return *t
	case *StepStartPayload:
		return *t
	case *TextPayload:
		return *t
	case *TextEndPayload:
		return *t
	case *ToolInputStartPayload:
		return *t
	case *ToolCallDeltaPayload:
		return *t
	case *ToolInputEndPayload:
		return *t
	case *ToolCallPayload:
		return *t
	case *ToolResultPayload:
		return *t
	case *ToolErrorPayload:
		return *t
	case *ToolOutputDeniedPayload:
		return *t
	case *ToolCallApprovalPayload:
		return *t
	case *ToolCallSuspendedPayload:
		return *t
	case *ToolOutputPayload:
		return *t
	case *ErrorPayload:
		return *t
	}
	return p
}
