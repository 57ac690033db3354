package aisdk

import "github.com/gomastra/mastra/internal/wire"

// Part types of the UI message stream (the AI SDK's UIMessageChunk types,
// plus the data-* parts Mastra adds).
const (
	PartStart               = "start"
	PartStartStep           = "start-step"
	PartFinishStep          = "finish-step"
	PartFinish              = "finish"
	PartAbort               = "abort"
	PartError               = "error"
	PartTextStart           = "text-start"
	PartTextDelta           = "text-delta"
	PartTextEnd             = "text-end"
	PartReasoningStart      = "reasoning-start"
	PartReasoningDelta      = "reasoning-delta"
	PartReasoningEnd        = "reasoning-end"
	PartFile                = "file"
	PartSourceURL           = "source-url"
	PartSourceDocument      = "source-document"
	PartToolInputStart      = "tool-input-start"
	PartToolInputDelta      = "tool-input-delta"
	PartToolInputAvailable  = "tool-input-available"
	PartToolApprovalRequest = "tool-approval-request"
	PartToolOutputAvailable = "tool-output-available"
	PartToolOutputError     = "tool-output-error"
	PartToolOutputDenied    = "tool-output-denied"

	// Mastra's data parts.
	PartToolCallApproval  = "data-tool-call-approval"
	PartToolCallSuspended = "data-tool-call-suspended"
	PartToolAgent         = "data-tool-agent"
	PartToolAgentStep     = "data-tool-agent-step"
	PartToolWorkflow      = "data-tool-workflow"
	PartToolWorkflowStep  = "data-tool-workflow-step"
	PartStructuredOutput  = "data-structured-output"
	PartTripwire          = "data-tripwire"
)

// Part is one part of an AI SDK UI message stream: what a `useChat` front
// end reads, one SSE frame each. Which fields are set depends on Type, and
// MarshalJSON writes exactly the keys @mastra/ai-sdk writes for that type,
// in its order, leaving out unset optional keys:
//
//	start                  messageMetadata?, messageId?
//	start-step, finish-step, abort
//	finish                 finishReason?, messageMetadata?
//	error                  errorText
//	text-*, reasoning-*    id, delta (the -delta types), providerMetadata?
//	file                   mediaType, url
//	source-url             sourceId, url, title?, providerMetadata?
//	source-document        sourceId, mediaType, title?, filename?, providerMetadata?
//	tool-input-start       toolCallId, toolName, providerExecuted?, dynamic?
//	tool-input-delta       toolCallId, inputTextDelta
//	tool-input-available   toolCallId, toolName, input, providerExecuted?, providerMetadata?, dynamic?, toolMetadata?
//	tool-approval-request  approvalId, toolCallId
//	tool-output-available  toolCallId, output, providerExecuted?, providerMetadata?, dynamic?
//	tool-output-error      toolCallId, errorText, providerExecuted?, dynamic?
//	tool-output-denied     toolCallId
//	data-*                 data, id?  (data-tool-agent[-step] and
//	                       data-tool-workflow[-step]: id, data, and for the
//	                       agent parts ancestry, depth, parentAgentId?)
//
// Input, Output, Data and MessageMetadata hold any JSON-marshalable value
// (json.RawMessage included, written as it is).
type Part struct {
	Type string

	// ID is a text or reasoning block's id, or a data part's id.
	ID string
	// MessageID is the start part's message id.
	MessageID string
	// Delta is the text of text-delta and reasoning-delta parts.
	Delta string

	ToolCallID       string
	ToolName         string
	InputTextDelta   string
	Input            any
	Output           any
	ErrorText        string
	ApprovalID       string
	ProviderExecuted *bool
	Dynamic          *bool
	ProviderMetadata map[string]any
	ToolMetadata     map[string]any

	// File and source parts.
	MediaType string
	URL       string
	SourceID  string
	Title     string
	Filename  string

	FinishReason    string
	MessageMetadata any

	// Data is a data part's payload.
	Data any
	// Ancestry, Depth and ParentAgentID place a data-tool-agent part in
	// the tree of delegations: the agent-<key> calls from the top-level
	// run down to the run the part describes (Depth is their number;
	// ParentAgentID the key of the delegating agent, for nested ones).
	Ancestry      []AncestryEntry
	Depth         int
	ParentAgentID string

	// idFirst writes a data part's id before its data, as Mastra's agent
	// and workflow snapshot parts are written.
	idFirst bool
}

// AncestryEntry is one delegation on the path to a sub-agent run: the
// agent-<key> call (its id and tool name) and the key (AgentID) it names.
type AncestryEntry struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName,omitempty"`
	AgentID    string `json:"agentId,omitempty"`
}

// IsData reports whether p is a data-* part.
func (p Part) IsData() bool { return len(p.Type) > 5 && p.Type[:5] == "data-" }

// MarshalJSON writes the part as @mastra/ai-sdk's UI message stream does
// (see Part): JSON.stringify's output, key order included. (encoding/json's
// Marshal then escapes '<', '>', '&', U+2028 and U+2029 in it, as it does
// in every text; AppendJSON and json.Encoder with SetEscapeHTML(false)
// keep JavaScript's form.)
func (p Part) MarshalJSON() ([]byte, error) {
	return p.AppendJSON(make([]byte, 0, 128))
}

// AppendJSON appends the part's JSON (as MarshalJSON writes it) to b.
func (p Part) AppendJSON(b []byte) ([]byte, error) {
	w := wire.NewObjectWriter(b, wire.JSMode)
	w.Str("type", p.Type)
	switch p.Type {
	case PartStart:
		w.ValueOpt("messageMetadata", p.MessageMetadata)
		w.StrOpt("messageId", p.MessageID)
	case PartFinish:
		w.StrOpt("finishReason", p.FinishReason)
		w.ValueOpt("messageMetadata", p.MessageMetadata)
	case PartError:
		w.Str("errorText", p.ErrorText)
	case PartTextStart, PartTextEnd, PartReasoningStart, PartReasoningEnd:
		w.Str("id", p.ID)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
	case PartTextDelta, PartReasoningDelta:
		w.Str("id", p.ID)
		w.Str("delta", p.Delta)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
	case PartFile:
		w.Str("mediaType", p.MediaType)
		w.Str("url", p.URL)
	case PartSourceURL:
		w.Str("sourceId", p.SourceID)
		w.Str("url", p.URL)
		w.StrOpt("title", p.Title)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
	case PartSourceDocument:
		w.Str("sourceId", p.SourceID)
		w.Str("mediaType", p.MediaType)
		w.StrOpt("title", p.Title)
		w.StrOpt("filename", p.Filename)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
	case PartToolInputStart:
		w.Str("toolCallId", p.ToolCallID)
		w.Str("toolName", p.ToolName)
		w.BoolOpt("providerExecuted", p.ProviderExecuted)
		w.BoolOpt("dynamic", p.Dynamic)
	case PartToolInputDelta:
		w.Str("toolCallId", p.ToolCallID)
		w.Str("inputTextDelta", p.InputTextDelta)
	case PartToolInputAvailable:
		w.Str("toolCallId", p.ToolCallID)
		w.Str("toolName", p.ToolName)
		w.ValueOpt("input", p.Input)
		w.BoolOpt("providerExecuted", p.ProviderExecuted)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
		w.BoolOpt("dynamic", p.Dynamic)
		w.MapOpt("toolMetadata", p.ToolMetadata)
	case PartToolApprovalRequest:
		w.Str("approvalId", p.ApprovalID)
		w.Str("toolCallId", p.ToolCallID)
	case PartToolOutputAvailable:
		w.Str("toolCallId", p.ToolCallID)
		w.ValueOpt("output", p.Output)
		w.BoolOpt("providerExecuted", p.ProviderExecuted)
		w.MapOpt("providerMetadata", p.ProviderMetadata)
		w.BoolOpt("dynamic", p.Dynamic)
	case PartToolOutputError:
		w.Str("toolCallId", p.ToolCallID)
		w.Str("errorText", p.ErrorText)
		w.BoolOpt("providerExecuted", p.ProviderExecuted)
		w.BoolOpt("dynamic", p.Dynamic)
	case PartToolOutputDenied:
		w.Str("toolCallId", p.ToolCallID)
	case PartStartStep, PartFinishStep, PartAbort:
	default:
		if !p.IsData() {
			break
		}
		if p.idFirst {
			w.Str("id", p.ID)
			w.ValueOpt("data", p.Data)
		} else {
			w.ValueOpt("data", p.Data)
			w.StrOpt("id", p.ID)
		}
		if p.Ancestry != nil {
			w.ValueOpt("ancestry", p.Ancestry)
			w.Int("depth", p.Depth)
			w.StrOpt("parentAgentId", p.ParentAgentID)
		}
	}
	if err := w.Err(); err != nil {
		return nil, err
	}
	return w.Bytes(), nil
}
