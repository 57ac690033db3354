package aisdk

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/internal/zodmsg"
)

// ChatRequest is the body a chat route reads: what the AI SDK's useChat
// transport posts ({id, messages, trigger, messageId}) plus the fields of
// Mastra's chatRoute that resume runs and pick a memory thread. Other
// fields are ignored.
type ChatRequest struct {
	// ID is the chat's id (useChat's).
	ID string `json:"id,omitempty"`
	// Messages is the conversation, oldest first.
	Messages []UIMessage `json:"messages"`
	// Trigger is "submit-message" or "regenerate-message" (which drops a
	// trailing assistant message and answers anew in its place).
	Trigger string `json:"trigger,omitempty"`
	// MessageID is the message a regeneration replaces (informational).
	MessageID string `json:"messageId,omitempty"`
	// RunID and ResumeData resume a suspended run (an approval is
	// {"approved": true|false, "reason"?}); ToolCallID names the waiting
	// call when several wait.
	RunID      string          `json:"runId,omitempty"`
	ResumeData json.RawMessage `json:"resumeData,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	// Memory names the memory thread and resource of the run.
	Memory *ChatMemory `json:"memory,omitempty"`
	// RequestContext entries reach the tools; the reserved keys
	// mastra__resourceId and mastra__threadId are dropped.
	RequestContext map[string]any `json:"requestContext,omitempty"`
	// MaxSteps bounds the run's model calls (0: the agent's default).
	MaxSteps int `json:"maxSteps,omitempty"`
}

// ChatMemory is a request's memory: the thread (an id, or {id}) and the
// resource it belongs to.
type ChatMemory struct {
	Thread   string `json:"thread"`
	Resource string `json:"resource,omitempty"`
}

// Issue is one problem of a request body: the field's dotted path ("root"
// for the body itself, "body" for a body that is not JSON) and what is
// wrong, as Mastra's 400 answers list them ({"field", "message"}). It is
// the Issue of every gomastra HTTP surface.
type Issue = wire.Issue

// RequestError is a chat request that cannot be served: the HTTP status
// and message of the JSON error a chat route answers with, and the issues
// of an invalid body.
type RequestError struct {
	Status  int
	Message string
	Issues  []Issue
}

func (e *RequestError) Error() string {
	if len(e.Issues) == 0 {
		return e.Message
	}
	return e.Message + ": " + e.Issues[0].Field + ": " + e.Issues[0].Message
}

// HTTPStatus returns e.Status (e is a mastraerror.StatusCoder).
func (e *RequestError) HTTPStatus() int { return e.Status }

func invalidBody(issues ...Issue) *RequestError {
	return &RequestError{Status: 400, Message: "Invalid request body", Issues: issues}
}

// ParseChatRequest decodes and checks a chat request body. Fields of the
// wrong type are reported as a *RequestError (400 "Invalid request body")
// naming each field (the first wire.MaxIssues of them), with Zod's wording; a body that is not JSON names the
// parser's complaint.
func ParseChatRequest(body []byte) (*ChatRequest, error) {
	t := bytes.TrimSpace(body)
	if len(t) == 0 {
		return nil, invalidBody(Issue{Field: "root", Message: "Invalid input: expected object, received undefined"})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(t, &fields); err != nil || t[0] != '{' {
		if !json.Valid(t) {
			return nil, invalidBody(Issue{Field: "body", Message: syntaxMessage(body)})
		}
		return nil, invalidBody(Issue{Field: "root", Message: "Invalid input: expected object, received " + zodmsg.TypeOf(t)})
	}
	if issues := wire.BodyIDIssues(fields); len(issues) > 0 {
		return nil, invalidBody(issues...)
	}
	v := &bodyReader{f: fields}
	req := &ChatRequest{
		ID:         v.str("id"),
		Trigger:    v.str("trigger"),
		MessageID:  v.str("messageId"),
		RunID:      v.str("runId"),
		ToolCallID: v.str("toolCallId"),
	}
	if req.Trigger != "" && req.Trigger != "submit-message" && req.Trigger != "regenerate-message" {
		v.add("trigger", `Invalid option: expected one of "submit-message"|"regenerate-message"`)
	}
	req.Messages = v.messages()
	if raw, ok := fields["resumeData"]; ok && zodmsg.TypeOf(raw) != "null" {
		req.ResumeData = raw
	}
	req.Memory = v.memory()
	req.RequestContext = v.record("requestContext")
	if raw, ok := fields["maxSteps"]; ok && zodmsg.TypeOf(raw) != "null" {
		var n float64
		if zodmsg.TypeOf(raw) != "number" || json.Unmarshal(raw, &n) != nil {
			v.add("maxSteps", zodmsg.Expected("number", raw))
		} else if n < 1 || n != float64(int(n)) {
			v.add("maxSteps", "Invalid input: expected a positive integer")
		} else {
			req.MaxSteps = int(n)
		}
	}
	if len(v.issues) > 0 {
		return nil, invalidBody(v.issues...)
	}
	return req, nil
}

// bodyReader reads a body's fields, collecting issues.
type bodyReader struct {
	f      map[string]json.RawMessage
	issues wire.Issues
}

func (v *bodyReader) add(field, msg string) { v.issues.Add(field, msg) }

// str reads an optional string (null counts as absent).
func (v *bodyReader) str(key string) string {
	raw, ok := v.f[key]
	if !ok || zodmsg.TypeOf(raw) == "null" {
		return ""
	}
	var s string
	if zodmsg.TypeOf(raw) != "string" || json.Unmarshal(raw, &s) != nil {
		v.add(key, zodmsg.Expected("string", raw))
	}
	return s
}

func (v *bodyReader) record(key string) map[string]any {
	raw, ok := v.f[key]
	if !ok || zodmsg.TypeOf(raw) == "null" {
		return nil
	}
	var m map[string]any
	if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		v.add(key, zodmsg.Expected("record", raw))
		return nil
	}
	return m
}

// messages reads the messages array (required); each element must be an
// object with a role, and parts or content.
func (v *bodyReader) messages() []UIMessage {
	raw, ok := v.f["messages"]
	if !ok {
		v.add("messages", "Invalid input: expected array, received undefined")
		return nil
	}
	if zodmsg.TypeOf(raw) != "array" {
		v.add("messages", zodmsg.Expected("array", raw))
		return nil
	}
	var msgs []UIMessage
	err := wire.EachElement(raw, func(i int, it json.RawMessage) bool {
		if m, ok := v.message("messages."+strconv.Itoa(i), it); ok {
			msgs = append(msgs, m)
		}
		return !v.issues.Full()
	})
	if err != nil {
		v.add("messages", zodmsg.Expected("array", raw))
		return nil
	}
	if msgs == nil {
		msgs = []UIMessage{}
	}
	return msgs
}

// message reads one element of messages, field being its path.
func (v *bodyReader) message(field string, it json.RawMessage) (UIMessage, bool) {
	var m UIMessage
	if zodmsg.TypeOf(it) != "object" {
		v.add(field, zodmsg.Expected("object", it))
		return m, false
	}
	if err := json.Unmarshal(it, &m); err != nil {
		v.add(field, "Invalid input: "+err.Error())
		return m, false
	}
	switch m.Role {
	case "system", "user", "assistant":
	case "":
		v.add(field+".role", "Invalid input: expected string, received undefined")
		return m, false
	default:
		if len(m.Parts) > 0 || len(m.Content) == 0 {
			v.add(field+".role", `Invalid option: expected one of "system"|"user"|"assistant"`)
			return m, false
		}
	}
	return m, true
}

// memory reads {thread: string | {id}, resource?}.
func (v *bodyReader) memory() *ChatMemory {
	raw, ok := v.f["memory"]
	if !ok || zodmsg.TypeOf(raw) == "null" {
		return nil
	}
	var m struct {
		Thread   json.RawMessage `json:"thread"`
		Resource json.RawMessage `json:"resource"`
	}
	if zodmsg.TypeOf(raw) != "object" || json.Unmarshal(raw, &m) != nil {
		v.add("memory", zodmsg.Expected("object", raw))
		return nil
	}
	out := &ChatMemory{}
	switch zodmsg.TypeOf(m.Thread) {
	case "string":
		_ = json.Unmarshal(m.Thread, &out.Thread)
	case "object":
		var t struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(m.Thread, &t) != nil || t.ID == "" {
			v.add("memory.thread.id", "Invalid input: expected string")
		}
		out.Thread = t.ID
	default:
		v.add("memory.thread", zodmsg.Expected("string", m.Thread))
	}
	switch zodmsg.TypeOf(m.Resource) {
	case "undefined", "null":
	case "string":
		_ = json.Unmarshal(m.Resource, &out.Resource)
	default:
		v.add("memory.resource", zodmsg.Expected("string", m.Resource))
	}
	return out
}

// syntaxMessage is the message JavaScript's JSON.parse throws for a body
// that is not JSON (V8's words, as Mastra reports them).
func syntaxMessage(body []byte) string {
	if msg := wire.SyntaxErrorText(body); msg != "" {
		return msg
	}
	return "Unexpected end of JSON input"
}
