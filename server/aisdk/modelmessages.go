package aisdk

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/model"
)

// MessageError is a message ToModelMessages cannot convert: Field is its
// path ("messages.2.role"). It matches ErrInvalidMessage under errors.Is.
type MessageError struct {
	Field, Message string
}

func (e *MessageError) Error() string { return e.Field + ": " + e.Message }

// Is reports whether target is ErrInvalidMessage.
func (e *MessageError) Is(target error) bool { return target == ErrInvalidMessage }

// ToModelMessages converts a chat's UI messages into the messages an
// agent is given, as Mastra does with the messages useChat sends (the AI
// SDK's convertToModelMessages, with Mastra's treatment of files):
//
//   - system messages become one system message of their texts;
//   - user messages keep their text and file parts; a file's data: URL
//     becomes its base64 data, a remote URL is passed as it is;
//   - assistant messages are cut at their step-start parts; each step
//     becomes an assistant message (text, reasoning, files and tool calls)
//     followed by a tool message with the results of its tool calls
//     (output-available as text or json, output-error as error-text,
//     output-denied as execution-denied); provider-executed tools keep
//     their results in the assistant message. A result whose provider
//     metadata holds Mastra's mastra.modelOutput (what toModelOutput made
//     of it) is given as that output. Tool calls still streaming their
//     input, data parts and sources are not sent.
//
// Messages in the older {role, content} form are read as model messages.
// An unknown role or a malformed part is a *MessageError.
func ToModelMessages(msgs []UIMessage) ([]model.Message, error) {
	out := make([]model.Message, 0, len(msgs))
	for i, m := range msgs {
		field := "messages." + strconv.Itoa(i)
		if len(m.Parts) == 0 && len(m.Content) > 0 {
			msg, err := contentMessage(m)
			if err != nil {
				return nil, &MessageError{Field: field + ".content", Message: err.Error()}
			}
			out = append(out, msg)
			continue
		}
		switch m.Role {
		case "system":
			var text strings.Builder
			for _, p := range m.Parts {
				if p.Type == "text" {
					text.WriteString(p.Text)
				}
			}
			out = append(out, model.System(text.String()))
		case "user":
			var parts []model.Part
			for j, p := range m.Parts {
				switch p.Type {
				case "text":
					parts = append(parts, withOptions(model.Text(p.Text), p.ProviderMetadata))
				case "file":
					f, err := filePart(p)
					if err != nil {
						return nil, &MessageError{Field: field + ".parts." + strconv.Itoa(j), Message: err.Error()}
					}
					parts = append(parts, f)
				}
			}
			out = append(out, model.User(parts...))
		case "assistant":
			converted, err := assistantMessages(field, m.Parts)
			if err != nil {
				return nil, err
			}
			out = append(out, converted...)
		default:
			return nil, &MessageError{Field: field + ".role", Message: fmt.Sprintf("role must be system, user or assistant, not %q", m.Role)}
		}
	}
	return out, nil
}

// contentMessage reads a message in the {role, content} form.
func contentMessage(m UIMessage) (model.Message, error) {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		switch m.Role {
		case "system":
			return model.System(s), nil
		case "user":
			return model.UserText(s), nil
		case "assistant":
			return model.Assistant(model.Text(s)), nil
		}
		return model.Message{}, fmt.Errorf("role must be system, user or assistant, not %q", m.Role)
	}
	raw, err := json.Marshal(map[string]json.RawMessage{"role": mustJSON(m.Role), "content": m.Content})
	if err != nil {
		return model.Message{}, err
	}
	var msg model.Message
	if err := json.Unmarshal(raw, &msg); err != nil {
		return model.Message{}, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "model: "))
	}
	return msg, nil
}

func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// assistantMessages converts an assistant message, step by step.
func assistantMessages(field string, parts []UIPart) ([]model.Message, error) {
	var out []model.Message
	var block []int
	flush := func() error {
		if len(block) == 0 {
			return nil
		}
		var content, results []model.Part
		for _, j := range block {
			p := parts[j]
			switch {
			case p.Type == "text":
				content = append(content, withOptions(model.Text(p.Text), p.ProviderMetadata))
			case p.Type == "reasoning":
				content = append(content, withOptions(model.Reasoning(p.Text), p.ProviderMetadata))
			case p.Type == "file":
				f, err := filePart(p)
				if err != nil {
					return &MessageError{Field: field + ".parts." + strconv.Itoa(j), Message: err.Error()}
				}
				content = append(content, f)
			case p.IsTool():
				if p.State == StateInputStreaming {
					continue
				}
				call, result, err := toolParts(p)
				if err != nil {
					return &MessageError{Field: field + ".parts." + strconv.Itoa(j), Message: err.Error()}
				}
				content = append(content, call)
				if result == nil {
					continue
				}
				if call.ToolCall.ProviderExecuted {
					content = append(content, *result)
				} else {
					results = append(results, *result)
				}
			}
		}
		if len(content) > 0 {
			out = append(out, model.Assistant(content...))
		}
		if len(results) > 0 {
			tm := model.Message{Role: model.RoleTool, Content: results}
			out = append(out, tm)
		}
		block = block[:0]
		return nil
	}
	for j, p := range parts {
		switch {
		case p.Type == "step-start":
			if err := flush(); err != nil {
				return nil, err
			}
		case p.Type == "text", p.Type == "reasoning", p.Type == "file", p.IsTool():
			block = append(block, j)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// toolParts converts a tool part into its call and, once it has one, its
// result.
func toolParts(p UIPart) (model.Part, *model.Part, error) {
	name := p.Tool()
	if p.ToolCallID == "" {
		return model.Part{}, nil, fmt.Errorf("tool part without toolCallId")
	}
	if name == "" {
		return model.Part{}, nil, fmt.Errorf("tool part without a tool name")
	}
	input := p.Input
	if p.State == StateOutputError && len(input) == 0 {
		input = p.RawInput
	}
	if len(input) == 0 || bytes.Equal(bytes.TrimSpace(input), []byte("null")) {
		input = json.RawMessage("{}")
	}
	call := model.ToolCall(p.ToolCallID, name, input)
	call.ToolCall.ProviderExecuted = p.ProviderExecuted != nil && *p.ProviderExecuted
	call.ToolCall.ProviderOptions = providerOptions(p.CallProviderMetadata)

	var output model.ToolResultOutput
	switch p.State {
	case StateOutputAvailable:
		if mo, ok := mastraModelOutput(p); ok {
			output = mo
		} else if s, ok := jsonString(p.Output); ok {
			output = model.TextOutput(s)
		} else {
			output = model.JSONOutput(nullIfEmpty(p.Output))
		}
	case StateOutputError:
		if call.ToolCall.ProviderExecuted {
			output = model.ErrorJSONOutput(p.ErrorText)
		} else {
			output = model.ErrorTextOutput(p.ErrorText)
		}
	case StateOutputDenied:
		reason := ""
		if p.Approval != nil {
			reason = p.Approval.Reason
		}
		output = model.ExecutionDeniedOutput(reason)
	default:
		return call, nil, nil
	}
	result := model.ToolResult(p.ToolCallID, name, output)
	result.ToolResult.Input = input
	return call, &result, nil
}

// mastraModelOutput is the output toModelOutput made of a tool's result,
// which Mastra sends along in the result's provider metadata.
func mastraModelOutput(p UIPart) (model.ToolResultOutput, bool) {
	for _, pm := range []map[string]any{p.ResultProviderMetadata, p.CallProviderMetadata} {
		ns, _ := pm["mastra"].(map[string]any)
		if ns == nil || ns["modelOutput"] == nil {
			continue
		}
		if out, err := model.ParseToolResultOutput(ns["modelOutput"]); err == nil {
			return out, true
		}
	}
	return model.ToolResultOutput{}, false
}

func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func nullIfEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// filePart converts a file part: a data: URL becomes its base64 data.
func filePart(p UIPart) (model.Part, error) {
	if p.URL == "" {
		return model.Part{}, fmt.Errorf("file part without url")
	}
	data := p.URL
	if rest, ok := strings.CutPrefix(p.URL, "data:"); ok {
		meta, payload, found := strings.Cut(rest, ",")
		if !found {
			return model.Part{}, fmt.Errorf("malformed data URL")
		}
		if strings.HasSuffix(meta, ";base64") {
			data = payload
		} else {
			decoded, err := url.PathUnescape(payload)
			if err != nil {
				return model.Part{}, fmt.Errorf("malformed data URL: %v", err)
			}
			data = base64.StdEncoding.EncodeToString([]byte(decoded))
		}
	}
	return withOptions(model.File(data, p.MediaType, p.Filename), p.ProviderMetadata), nil
}

// withOptions sets a part's provider options from a UI part's provider
// metadata (the AI SDK carries one into the other).
func withOptions(p model.Part, pm map[string]any) model.Part {
	p.ProviderOptions = providerOptions(pm)
	return p
}

func providerOptions(pm map[string]any) model.ProviderOptions {
	var po model.ProviderOptions
	for k, v := range pm {
		if m, ok := v.(map[string]any); ok {
			if po == nil {
				po = model.ProviderOptions{}
			}
			po[k] = m
		}
	}
	return po
}
