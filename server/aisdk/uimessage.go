package aisdk

import (
	"encoding/json"
	"errors"
	"strings"
)

// UIMessage is a message of an AI SDK chat (what useChat keeps and sends):
// an id, a role ("system", "user" or "assistant") and parts. Messages in
// the older {role, content} form are read too: Content is then a string or
// a list of model message parts.
type UIMessage struct {
	ID       string          `json:"id,omitempty"`
	Role     string          `json:"role"`
	Parts    []UIPart        `json:"parts,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Content  json.RawMessage `json:"content,omitempty"`
}

// UIPart is one part of a UIMessage. Type says which fields are set:
//
//	text, reasoning         Text, State?, ProviderMetadata?
//	file                    MediaType, URL (a data: URL or a remote one), Filename?
//	step-start              (a step boundary in an assistant message)
//	tool-<name>             a call of the tool <name>: ToolCallID, State, Input,
//	dynamic-tool            Output or ErrorText, Approval?; dynamic-tool names
//	                        the tool in ToolName
//	source-url, source-document, data-<name>
//	                        shown to people, not sent to the model
//
// Tool part states are input-streaming, input-available, output-available,
// output-error, output-denied, approval-requested and approval-responded.
type UIPart struct {
	Type                   string          `json:"type"`
	Text                   string          `json:"text,omitempty"`
	State                  string          `json:"state,omitempty"`
	ProviderMetadata       map[string]any  `json:"providerMetadata,omitempty"`
	MediaType              string          `json:"mediaType,omitempty"`
	Filename               string          `json:"filename,omitempty"`
	URL                    string          `json:"url,omitempty"`
	ToolCallID             string          `json:"toolCallId,omitempty"`
	ToolName               string          `json:"toolName,omitempty"`
	Input                  json.RawMessage `json:"input,omitempty"`
	RawInput               json.RawMessage `json:"rawInput,omitempty"`
	Output                 json.RawMessage `json:"output,omitempty"`
	ErrorText              string          `json:"errorText,omitempty"`
	ProviderExecuted       *bool           `json:"providerExecuted,omitempty"`
	CallProviderMetadata   map[string]any  `json:"callProviderMetadata,omitempty"`
	ResultProviderMetadata map[string]any  `json:"resultProviderMetadata,omitempty"`
	Approval               *UIApproval     `json:"approval,omitempty"`
	ID                     string          `json:"id,omitempty"`
	Data                   json.RawMessage `json:"data,omitempty"`
	SourceID               string          `json:"sourceId,omitempty"`
	Title                  string          `json:"title,omitempty"`
}

// UIApproval is a tool part's approval (AI SDK v6): the id of the request
// and, once answered, the person's decision.
type UIApproval struct {
	ID       string `json:"id"`
	Approved *bool  `json:"approved,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Tool part states.
const (
	StateInputStreaming    = "input-streaming"
	StateInputAvailable    = "input-available"
	StateOutputAvailable   = "output-available"
	StateOutputError       = "output-error"
	StateOutputDenied      = "output-denied"
	StateApprovalRequested = "approval-requested"
	StateApprovalResponded = "approval-responded"
)

// IsTool reports whether p is a tool part (tool-<name> or dynamic-tool).
func (p UIPart) IsTool() bool {
	return p.Type == "dynamic-tool" || (strings.HasPrefix(p.Type, "tool-") && len(p.Type) > 5)
}

// Tool returns the name of the tool a tool part calls.
func (p UIPart) Tool() string {
	if p.Type == "dynamic-tool" {
		return p.ToolName
	}
	return strings.TrimPrefix(p.Type, "tool-")
}

// Errors of message validation.
var (
	// ErrNoMessages says what is wrong with a chat request that has no
	// messages to answer (the message of its 400 issue).
	ErrNoMessages = errors.New("messages must be a non-empty array of UIMessage objects")
	// ErrInvalidMessage is wrapped by the errors for a message that
	// cannot be read.
	ErrInvalidMessage = errors.New("invalid message")
)
