package server

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
	"github.com/gomastra/mastra/model"
)

// parseMessages turns a body's messages (a string, or an array of
// messages) into an agent's input: a string, or []model.Message.
//
// Array elements may be strings (user messages), AI SDK ModelMessages
// ({role, content: string | parts}), UI messages ({role, parts}, AI SDK v4
// or v5, whose tool parts become tool calls and results: see uiMessages)
// or messages in Mastra's stored format ({role, content: {format: 2,
// parts}}); tool-call parts may carry their input as args (Mastra's v4
// form), and tool-result parts their output as result (wrapped as {type:
// "json"|"text", value}, as the AI SDK converts it). Errors name the
// element ("messages.2").
func parseMessages(field string, raw json.RawMessage) (any, *wire.Issue) {
	switch zodmsg.TypeOf(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, &wire.Issue{Field: field, Message: "Invalid input"}
		}
		return s, nil
	case "array":
	default:
		return nil, &wire.Issue{Field: field, Message: "Invalid input"}
	}
	msgs, iss := parseMessageList(field, raw)
	if iss != nil {
		return nil, iss
	}
	return msgs, nil
}

// parseMessageList decodes an array of messages (see parseMessages). A
// UI message whose parts hold tool calls becomes several model messages
// (see uiMessages).
func parseMessageList(field string, raw json.RawMessage) ([]model.Message, *wire.Issue) {
	var msgs []model.Message
	var issue *wire.Issue
	err := wire.EachElement(raw, func(i int, it json.RawMessage) bool {
		m, err := parseMessage(it)
		if err != nil {
			issue = &wire.Issue{Field: field + "." + strconv.Itoa(i), Message: err.Error()}
			return false
		}
		msgs = append(msgs, m...)
		return true
	})
	if err != nil {
		return nil, &wire.Issue{Field: field, Message: zodmsg.Expected("array", raw)}
	}
	if issue != nil {
		return nil, issue
	}
	if msgs == nil {
		msgs = []model.Message{}
	}
	return msgs, nil
}

// messageError is a message that cannot be read.
type messageError string

func (e messageError) Error() string { return string(e) }

func parseMessage(raw json.RawMessage) ([]model.Message, error) {
	switch zodmsg.TypeOf(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []model.Message{model.UserText(s)}, nil
	case "object":
	default:
		return nil, messageError(zodmsg.Expected("object", raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	// A UI message ({role, parts}, content being at most the text summary
	// AI SDK v4 adds) or a message in Mastra's stored format ({role,
	// content: {format: 2, parts}}) is read from its parts.
	parts, isUI := m["parts"]
	if zodmsg.TypeOf(m["content"]) == "array" || zodmsg.TypeOf(parts) != "array" {
		isUI = false
	}
	if c := m["content"]; zodmsg.TypeOf(c) == "object" {
		var stored struct {
			Parts json.RawMessage `json:"parts"`
		}
		if json.Unmarshal(c, &stored) == nil && zodmsg.TypeOf(stored.Parts) == "array" {
			parts, isUI = stored.Parts, true
		}
	}
	if isUI {
		// The role is checked as any message's (same errors).
		m = map[string]json.RawMessage{"role": m["role"], "content": json.RawMessage(`""`)}
	}
	if _, ok := m["content"]; !ok {
		m["content"] = json.RawMessage(`""`)
	}
	if zodmsg.TypeOf(m["content"]) == "array" {
		m["content"] = normaliseParts(m["content"])
	}
	delete(m, "parts")
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var msg model.Message
	if err := json.Unmarshal(b, &msg); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, messageError(decodeIssue("", err).Message)
		}
		return nil, messageError(strings.TrimPrefix(err.Error(), "model: "))
	}
	if isUI {
		return uiMessages(msg.Role, parts), nil
	}
	return []model.Message{msg}, nil
}

// uiPart is the union of the UI message parts uiMessages reads: text,
// reasoning and file parts, AI SDK v4's tool-invocation, and AI SDK v5's
// tool-<name> and dynamic-tool parts.
type uiPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	MediaType string          `json:"mediaType"`
	URL       string          `json:"url"`
	Filename  string          `json:"filename"`
	ToolName  string          `json:"toolName"`
	CallID    string          `json:"toolCallId"`
	State     string          `json:"state"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output"`
	ErrorText string          `json:"errorText"`
	// Invocation is AI SDK v4's tool-invocation part.
	Invocation *struct {
		State    string          `json:"state"`
		CallID   string          `json:"toolCallId"`
		ToolName string          `json:"toolName"`
		Args     json.RawMessage `json:"args"`
		Result   json.RawMessage `json:"result"`
	} `json:"toolInvocation"`
}

// uiMessages turns a UI message's parts into model messages, as the AI
// SDK's convertToModelMessages (which Mastra applies) does: text,
// reasoning and file parts are kept; data, source and other display
// parts are dropped. An assistant message's tool parts become tool calls,
// and the results they hold (a v4 invocation in state "result", a v5 tool
// part with its output or error) a tool message after it; its step-start
// parts split it into one assistant message (and tool message) per step.
// The message is kept, empty, when nothing of it remains.
func uiMessages(role model.Role, raw json.RawMessage) []model.Message {
	var parts []json.RawMessage
	_ = json.Unmarshal(raw, &parts)
	var out []model.Message
	var content []model.Part
	var results []model.ToolResultPart
	flush := func() {
		if len(content) > 0 {
			out = append(out, model.Message{Role: role, Content: content})
		}
		if len(results) > 0 {
			out = append(out, model.ToolMessage(results...))
		}
		content, results = nil, nil
	}
	call := func(id, name string, input json.RawMessage) {
		if len(input) == 0 || zodmsg.TypeOf(input) == "null" {
			input = json.RawMessage(`{}`)
		}
		content = append(content, model.ToolCall(id, name, input))
	}
	result := func(id, name string, input json.RawMessage, output model.ToolResultOutput) {
		if zodmsg.TypeOf(input) == "null" {
			input = nil
		}
		results = append(results, model.ToolResultPart{ToolCallID: id, ToolName: name, Output: output, Input: input})
	}
	for _, rp := range parts {
		var p uiPart
		if zodmsg.TypeOf(rp) != "object" || json.Unmarshal(rp, &p) != nil {
			continue
		}
		tool := role == model.RoleAssistant
		switch {
		case p.Type == "text":
			content = append(content, model.Text(p.Text))
		case p.Type == "reasoning":
			content = append(content, model.Reasoning(p.Text))
		case p.Type == "file":
			content = append(content, model.File(p.URL, p.MediaType, p.Filename))
		case p.Type == "step-start" && tool:
			flush()
		case p.Type == "tool-invocation" && tool && p.Invocation != nil:
			inv := p.Invocation
			if inv.State == "partial-call" {
				continue
			}
			call(inv.CallID, inv.ToolName, inv.Args)
			if inv.State == "result" {
				result(inv.CallID, inv.ToolName, inv.Args, resultOutput(inv.Result))
			}
		case (strings.HasPrefix(p.Type, "tool-") || p.Type == "dynamic-tool") && tool:
			name := p.ToolName
			if p.Type != "dynamic-tool" {
				name = strings.TrimPrefix(p.Type, "tool-")
			}
			if p.State == "input-streaming" {
				continue
			}
			call(p.CallID, name, p.Input)
			switch p.State {
			case "output-available":
				result(p.CallID, name, p.Input, resultOutput(p.Output))
			case "output-error":
				result(p.CallID, name, p.Input, model.ErrorTextOutput(p.ErrorText))
			}
		}
	}
	flush()
	if len(out) == 0 {
		out = append(out, model.Message{Role: role, Content: []model.Part{}})
	}
	return out
}

// resultOutput is the model output of a tool's result value, as the AI
// SDK makes it: {type: "text"} for a string, else {type: "json"}.
func resultOutput(res json.RawMessage) model.ToolResultOutput {
	if zodmsg.TypeOf(res) == "string" {
		var s string
		if json.Unmarshal(res, &s) == nil {
			return model.TextOutput(s)
		}
	}
	if len(res) == 0 {
		res = json.RawMessage("null")
	}
	return model.JSONOutput(res)
}

// normaliseParts maps Mastra's older part spellings onto the AI SDK's:
// a tool-call's args become its input; a tool-result's result becomes
// its output ({type: "text"} for strings, else {type: "json"}).
func normaliseParts(raw json.RawMessage) json.RawMessage {
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return raw
	}
	changed := false
	for _, p := range parts {
		var typ string
		_ = json.Unmarshal(p["type"], &typ)
		switch typ {
		case "tool-call":
			if _, ok := p["input"]; !ok {
				if args, ok := p["args"]; ok {
					p["input"] = args
					delete(p, "args")
					changed = true
				}
			}
		case "tool-result":
			if _, ok := p["output"]; !ok {
				if res, ok := p["result"]; ok {
					kind := "json"
					if zodmsg.TypeOf(res) == "string" {
						kind = "text"
					}
					out, err := json.Marshal(map[string]json.RawMessage{"type": json.RawMessage(`"` + kind + `"`), "value": res})
					if err == nil {
						p["output"] = out
						delete(p, "result")
						changed = true
					}
				}
			}
		}
	}
	if !changed {
		return raw
	}
	b, err := json.Marshal(parts)
	if err != nil {
		return raw
	}
	return b
}
