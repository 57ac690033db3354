package model

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Role is a message's author.
type Role string

// Roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of a prompt, the AI SDK's ModelMessage. A system
// message holds one text part (and marshals its content as a string, as
// the AI SDK does); user messages hold text, image and file parts;
// assistant messages text, file, reasoning, tool-call and (provider-
// executed) tool-result parts; tool messages tool-result parts.
type Message struct {
	Role            Role
	Content         []Part
	ProviderOptions ProviderOptions
}

// Part types of messages.
const (
	MessageText       = "text"
	MessageImage      = "image"
	MessageFile       = "file"
	MessageReasoning  = "reasoning"
	MessageToolCall   = "tool-call"
	MessageToolResult = "tool-result"
)

// Part is one content part of a message. Which fields are set depends on
// Type: text and reasoning: Text; image: Data (base64 or a URL) and
// MediaType; file: Data, MediaType, Filename; tool-call: ToolCall;
// tool-result: ToolResult.
type Part struct {
	Type            string
	Text            string
	Data            string
	MediaType       string
	Filename        string
	ToolCall        *ToolCallPart
	ToolResult      *ToolResultPart
	ProviderOptions ProviderOptions
}

// ToolCallPart is a tool call the model made.
type ToolCallPart struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	// Input is the arguments' JSON (as the model sent it; "{}" if none).
	Input            json.RawMessage `json:"input"`
	ProviderExecuted bool            `json:"providerExecuted,omitempty"`
	ProviderOptions  ProviderOptions `json:"providerOptions,omitempty"`
}

// ToolResultPart is a tool call's result as the model sees it.
type ToolResultPart struct {
	ToolCallID string           `json:"toolCallId"`
	ToolName   string           `json:"toolName"`
	Output     ToolResultOutput `json:"output"`
	// Input is the call's arguments, which Mastra repeats on the results
	// it reports (providers neither need nor send it).
	Input           json.RawMessage `json:"input,omitempty"`
	ProviderOptions ProviderOptions `json:"providerOptions,omitempty"`
}

// System returns a system message.
func System(text string) Message {
	return Message{Role: RoleSystem, Content: []Part{Text(text)}}
}

// User returns a user message of parts.
func User(parts ...Part) Message { return Message{Role: RoleUser, Content: parts} }

// UserText returns a user message holding text.
func UserText(text string) Message { return User(Text(text)) }

// Assistant returns an assistant message of parts.
func Assistant(parts ...Part) Message { return Message{Role: RoleAssistant, Content: parts} }

// ToolMessage returns a tool message carrying results.
func ToolMessage(results ...ToolResultPart) Message {
	m := Message{Role: RoleTool}
	for i := range results {
		m.Content = append(m.Content, Part{Type: MessageToolResult, ToolResult: &results[i]})
	}
	return m
}

// Text returns a text part.
func Text(text string) Part { return Part{Type: MessageText, Text: text} }

// Reasoning returns a reasoning part.
func Reasoning(text string) Part { return Part{Type: MessageReasoning, Text: text} }

// Image returns an image part: data is base64 or a URL.
func Image(data, mediaType string) Part {
	return Part{Type: MessageImage, Data: data, MediaType: mediaType}
}

// File returns a file part: data is base64 or a URL.
func File(data, mediaType, filename string) Part {
	return Part{Type: MessageFile, Data: data, MediaType: mediaType, Filename: filename}
}

// ToolCall returns a tool-call part.
func ToolCall(id, name string, input json.RawMessage) Part {
	return Part{Type: MessageToolCall, ToolCall: &ToolCallPart{ToolCallID: id, ToolName: name, Input: input}}
}

// ToolResult returns a tool-result part.
func ToolResult(id, name string, output ToolResultOutput) Part {
	return Part{Type: MessageToolResult, ToolResult: &ToolResultPart{ToolCallID: id, ToolName: name, Output: output}}
}

// KeepParts returns m with only the parts keep accepts (m itself when it
// accepts them all), and whether any part was left out. m's Content is
// not changed: a message that loses parts gets a new slice.
func (m Message) KeepParts(keep func(Part) bool) (Message, bool) {
	var parts []Part
	for j, p := range m.Content {
		if keep(p) {
			if parts != nil {
				parts = append(parts, p)
			}
			continue
		}
		if parts == nil {
			parts = append(make([]Part, 0, len(m.Content)), m.Content[:j]...)
		}
	}
	if parts == nil {
		return m, false
	}
	m.Content = parts
	return m, true
}

// TextContent concatenates the message's text parts.
func (m Message) TextContent() string {
	var s string
	for _, p := range m.Content {
		if p.Type == MessageText {
			s += p.Text
		}
	}
	return s
}

type wirePart struct {
	Type             string           `json:"type"`
	Text             *string          `json:"text,omitempty"`
	Image            string           `json:"image,omitempty"`
	Data             string           `json:"data,omitempty"`
	MediaType        string           `json:"mediaType,omitempty"`
	Filename         string           `json:"filename,omitempty"`
	ToolCallID       string           `json:"toolCallId,omitempty"`
	ToolName         string           `json:"toolName,omitempty"`
	Input            json.RawMessage  `json:"input,omitempty"`
	ProviderExecuted bool             `json:"providerExecuted,omitempty"`
	Output           *json.RawMessage `json:"output,omitempty"`
	ProviderOptions  ProviderOptions  `json:"providerOptions,omitempty"`
}

// wireToolResult is a tool-result part as Mastra writes it.
type wireToolResult struct {
	Type            string          `json:"type"`
	ToolCallID      string          `json:"toolCallId"`
	ToolName        string          `json:"toolName"`
	Output          json.RawMessage `json:"output"`
	ProviderOptions ProviderOptions `json:"providerOptions,omitempty"`
	Input           json.RawMessage `json:"input,omitempty"`
}

// MarshalJSON encodes the AI SDK's part shape.
func (p Part) MarshalJSON() ([]byte, error) {
	w := wirePart{Type: p.Type, ProviderOptions: p.ProviderOptions}
	switch p.Type {
	case MessageText, MessageReasoning:
		if len(p.ProviderOptions) == 0 {
			// The common part, written directly: {"type":…,"text":…}.
			b := append(make([]byte, 0, len(p.Text)+32), `{"type":`...)
			b = appendJSON(b, p.Type)
			b = append(b, `,"text":`...)
			b = appendJSON(b, p.Text)
			return append(b, '}'), nil
		}
		w.Text = &p.Text
	case MessageImage:
		w.Image, w.MediaType = p.Data, p.MediaType
	case MessageFile:
		w.Data, w.MediaType, w.Filename = p.Data, p.MediaType, p.Filename
	case MessageToolCall:
		if p.ToolCall == nil {
			return nil, errors.New("model: tool-call part without ToolCall")
		}
		tc := p.ToolCall
		w.ToolCallID, w.ToolName, w.Input, w.ProviderExecuted = tc.ToolCallID, tc.ToolName, tc.Input, tc.ProviderExecuted
		if len(w.Input) == 0 {
			w.Input = json.RawMessage("{}")
		}
		if tc.ProviderOptions != nil {
			w.ProviderOptions = tc.ProviderOptions
		}
	case MessageToolResult:
		if p.ToolResult == nil {
			return nil, errors.New("model: tool-result part without ToolResult")
		}
		tr := p.ToolResult
		out, err := json.Marshal(tr.Output)
		if err != nil {
			return nil, err
		}
		po := w.ProviderOptions
		if tr.ProviderOptions != nil {
			po = tr.ProviderOptions
		}
		// Mastra's order: the output first, the call's input (which it
		// adds to the results it reports) last.
		return json.Marshal(wireToolResult{Type: p.Type, ToolCallID: tr.ToolCallID, ToolName: tr.ToolName,
			Output: json.RawMessage(out), ProviderOptions: po, Input: tr.Input})
	default:
		return nil, fmt.Errorf("model: unknown message part type %q", p.Type)
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes the AI SDK's part shape.
func (p *Part) UnmarshalJSON(b []byte) error {
	var w wirePart
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Part{Type: w.Type, ProviderOptions: w.ProviderOptions}
	switch w.Type {
	case MessageText, MessageReasoning:
		if w.Text != nil {
			p.Text = *w.Text
		}
	case MessageImage:
		p.Data, p.MediaType = w.Image, w.MediaType
	case MessageFile:
		p.Data, p.MediaType, p.Filename = w.Data, w.MediaType, w.Filename
	case MessageToolCall:
		p.ToolCall = &ToolCallPart{ToolCallID: w.ToolCallID, ToolName: w.ToolName, Input: w.Input, ProviderExecuted: w.ProviderExecuted}
		p.ProviderOptions = nil
		p.ToolCall.ProviderOptions = w.ProviderOptions
	case MessageToolResult:
		p.ToolResult = &ToolResultPart{ToolCallID: w.ToolCallID, ToolName: w.ToolName, Input: w.Input, ProviderOptions: w.ProviderOptions}
		p.ProviderOptions = nil
		if w.Output != nil {
			if err := json.Unmarshal(*w.Output, &p.ToolResult.Output); err != nil {
				return fmt.Errorf("model: tool-result output: %w", err)
			}
		}
	default:
		return fmt.Errorf("model: unknown message part type %q", w.Type)
	}
	return nil
}

type wireMessage struct {
	Role            Role            `json:"role"`
	Content         json.RawMessage `json:"content"`
	ProviderOptions ProviderOptions `json:"providerOptions,omitempty"`
}

// MarshalJSON encodes {role, content, providerOptions?}; a system message's
// content is its text.
//
// It writes the bytes itself (messages are encoded many times over in a
// run's output): the same text encoding/json writes for the wireMessage
// shape, without its reflection and re-validation.
func (m Message) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 128), `{"role":`...)
	b = appendJSON(b, string(m.Role))
	b = append(b, `,"content":`...)
	if m.Role == RoleSystem {
		b = appendJSON(b, m.TextContent())
	} else {
		b = append(b, '[')
		for i, p := range m.Content {
			if i > 0 {
				b = append(b, ',')
			}
			pb, err := p.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b = append(b, pb...)
		}
		b = append(b, ']')
	}
	if len(m.ProviderOptions) > 0 {
		po, err := json.Marshal(m.ProviderOptions)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"providerOptions":`...), po...)
	}
	return append(b, '}'), nil
}

// appendJSON appends s as encoding/json writes a string.
func appendJSON(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// UnmarshalJSON decodes a message; content may be a string (system and
// user messages) or a list of parts.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w wireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	switch w.Role {
	case RoleSystem, RoleUser, RoleAssistant, RoleTool:
	default:
		return fmt.Errorf("model: unknown message role %q", w.Role)
	}
	*m = Message{Role: w.Role, ProviderOptions: w.ProviderOptions}
	var text string
	if err := json.Unmarshal(w.Content, &text); err == nil {
		m.Content = []Part{Text(text)}
		return nil
	}
	return json.Unmarshal(w.Content, &m.Content)
}
