package server

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/model"
)

// parseMessages turns a body's messages (a string, or an array of
// messages) into an agent's input: a string, or []model.Message.
//
// Array elements may be strings (user messages), AI SDK ModelMessages
// ({role, content: string | parts}), or UI-style messages ({role, parts}
// or {role, content: string}); tool-call parts may carry their input as
// args (Mastra's v4 form), and tool-result parts their output as result
// (wrapped as {type: "json"|"text", value}, as the AI SDK converts it).
// Errors name the element ("messages.2").
func parseMessages(field string, raw json.RawMessage) (any, *issue) {
	switch jsType(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, &issue{Field: field, Message: "Invalid input"}
		}
		return s, nil
	case "array":
	default:
		return nil, &issue{Field: field, Message: "Invalid input"}
	}
	msgs, iss := parseMessageList(field, raw)
	if iss != nil {
		return nil, iss
	}
	return msgs, nil
}

// parseMessageList decodes an array of messages (see parseMessages).
func parseMessageList(field string, raw json.RawMessage) ([]model.Message, *issue) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, &issue{Field: field, Message: expected("array", raw)}
	}
	msgs := make([]model.Message, 0, len(items))
	for i, it := range items {
		path := field + "." + strconv.Itoa(i)
		m, err := parseMessage(it)
		if err != nil {
			return nil, &issue{Field: path, Message: err.Error()}
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// messageError is a message that cannot be read.
type messageError string

func (e messageError) Error() string { return string(e) }

func parseMessage(raw json.RawMessage) (model.Message, error) {
	switch jsType(raw) {
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return model.Message{}, err
		}
		return model.UserText(s), nil
	case "object":
	default:
		return model.Message{}, messageError(expected("object", raw))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return model.Message{}, err
	}
	if _, ok := m["content"]; !ok {
		if parts, ok := m["parts"]; ok {
			m["content"] = uiParts(parts)
		} else {
			m["content"] = json.RawMessage(`""`)
		}
	}
	if jsType(m["content"]) == "array" {
		m["content"] = normaliseParts(m["content"])
	}
	delete(m, "parts")
	b, err := json.Marshal(m)
	if err != nil {
		return model.Message{}, err
	}
	var msg model.Message
	if err := json.Unmarshal(b, &msg); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return model.Message{}, messageError(decodeIssue("", err).Message)
		}
		return model.Message{}, messageError(strings.TrimPrefix(err.Error(), "model: "))
	}
	return msg, nil
}

// uiParts keeps the parts of a UI message a model message can hold: text
// (and reasoning, file) parts; other parts (step-start, tool UI parts,
// data parts) are dropped.
func uiParts(raw json.RawMessage) json.RawMessage {
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return json.RawMessage(`""`)
	}
	keep := make([]map[string]json.RawMessage, 0, len(parts))
	for _, p := range parts {
		var typ string
		_ = json.Unmarshal(p["type"], &typ)
		switch typ {
		case "text", "reasoning":
			keep = append(keep, map[string]json.RawMessage{"type": p["type"], "text": p["text"]})
		case "file":
			f := map[string]json.RawMessage{"type": p["type"], "mediaType": p["mediaType"], "data": p["url"]}
			if fn, ok := p["filename"]; ok {
				f["filename"] = fn
			}
			keep = append(keep, f)
		}
	}
	b, err := json.Marshal(keep)
	if err != nil {
		return json.RawMessage(`""`)
	}
	return b
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
					if jsType(res) == "string" {
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
