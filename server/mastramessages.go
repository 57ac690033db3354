package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
)

// Mastra's memory API speaks its stored message format ("format 2"):
// one user message per input, and one assistant message per turn that
// holds the turn's steps as parts (text, reasoning, files and
// tool-invocation parts carrying each call's arguments and result,
// step-start parts between steps). gomastra stores the model messages
// of each step (an assistant message, then a tool message with the
// results); mastraMessages folds them into Mastra's form for the API.
// A message saved through the API in Mastra's form keeps that form:
// its content is kept beside the model message (storedFormKey) and
// given back as it came.

// storedFormKey is the storage.Message metadata member that keeps the
// Mastra form a message was saved in through the API: {type, content}.
const storedFormKey = "mastraForm"

// storedForm is a message's Mastra form as the API was given it.
type storedForm struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
}

// dbMessage is a message in Mastra's stored format.
type dbMessage struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	CreatedAt  string `json:"createdAt"`
	ThreadID   string `json:"threadId"`
	ResourceID string `json:"resourceId"`
	Content    any    `json:"content"`
	Role       string `json:"role"`
}

// dbContent is a format-2 message's content.
type dbContent struct {
	Format   int            `json:"format"`
	Parts    []any          `json:"parts"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Content  string         `json:"content,omitempty"`
}

type dbTextPart struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	CreatedAt int64  `json:"createdAt,omitempty"`
}

type dbStepStart struct {
	Type      string `json:"type"`
	CreatedAt int64  `json:"createdAt,omitempty"`
	Model     string `json:"model,omitempty"`
}

type dbReasoningPart struct {
	Type      string       `json:"type"`
	Reasoning string       `json:"reasoning"`
	Details   []dbTextPart `json:"details"`
}

type dbFilePart struct {
	Type     string `json:"type"`
	MimeType string `json:"mimeType,omitempty"`
	Data     string `json:"data"`
}

type dbToolPart struct {
	Type           string           `json:"type"`
	ToolInvocation dbToolInvocation `json:"toolInvocation"`
}

type dbToolInvocation struct {
	State      string          `json:"state"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Args       json.RawMessage `json:"args"`
	Result     any             `json:"result,omitempty"`
}

// modelName is the model an agent's messages are credited to in their
// metadata and step-start parts ("" fields when unknown).
type modelName struct{ Provider, ID string }

// stepModel is a's model, or none when a is nil.
func stepModel(r *http.Request, a *agent.Agent) modelName {
	if a == nil {
		return modelName{}
	}
	m, err := a.Model(r.Context(), nil)
	if err != nil || m == nil {
		return modelName{}
	}
	return modelName{Provider: m.Provider(), ID: m.ModelID()}
}

// mastraMessages folds a thread's stored messages, in order, into
// Mastra's stored format (agent.FoldTurns): each user (or system)
// message on its own, and each turn's assistant and tool messages as one
// assistant message with the id and time of its first.
func mastraMessages(stored []storage.Message, m modelName) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for _, turn := range agent.FoldTurns(stored) {
		msg, err := foldTurn(turn, m)
		if err != nil {
			return nil, err
		}
		b, err := wire.Marshal(msg)
		if err != nil {
			return nil, fmt.Errorf("memory: encoding message %s: %w", turn[0].ID, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// foldTurn is one Mastra message from a user message or from one turn's
// assistant and tool messages.
func foldTurn(turn []storage.Message, m modelName) (dbMessage, error) {
	first := turn[0]
	out := dbMessage{ID: first.ID, Type: "text", CreatedAt: isoTime(first.CreatedAt),
		ThreadID: first.ThreadID, ResourceID: first.ResourceID, Role: first.Role}
	if form, ok := savedForm(first); ok && len(turn) == 1 {
		if form.Type != "" {
			out.Type = form.Type
		}
		out.Content = form.Content
		return out, nil
	}
	if first.Role == string(model.RoleTool) {
		out.Role = string(model.RoleAssistant)
	}
	msgs := make([]model.Message, len(turn))
	for i, sm := range turn {
		if err := json.Unmarshal(sm.Content, &msgs[i]); err != nil {
			return out, fmt.Errorf("memory: message %s: %w", sm.ID, err)
		}
	}
	content := dbContent{Format: 2, Parts: []any{}}
	results := toolResults(msgs)
	steps := 0
	for i, msg := range msgs {
		if msg.Role == model.RoleTool {
			continue
		}
		at := turn[i].CreatedAt.UnixMilli()
		if steps > 0 {
			content.Parts = append(content.Parts, dbStepStart{Type: "step-start", CreatedAt: at, Model: storedModel(turn[i], m).qualified()})
		}
		steps++
		content.Parts = append(content.Parts, dbParts(msg, at, results)...)
		if text := msg.TextContent(); text != "" {
			content.Content = text
		}
		content.Metadata = mergeMetadata(content.Metadata, turn[i].Metadata)
	}
	if _, kept := content.Metadata["modelId"]; out.Role == string(model.RoleAssistant) && m.ID != "" && !kept {
		content.Metadata = mergeMetadata(content.Metadata, nil)
		content.Metadata["modelId"], content.Metadata["provider"] = m.ID, m.Provider
	}
	out.Content = content
	return out, nil
}

// storedModel is the model a stored assistant message names in its
// metadata (the step's, as the agent saves it), else fallback.
func storedModel(sm storage.Message, fallback modelName) modelName {
	var meta struct {
		ModelID  string `json:"modelId"`
		Provider string `json:"provider"`
	}
	if len(sm.Metadata) > 0 && json.Unmarshal(sm.Metadata, &meta) == nil && meta.ModelID != "" {
		return modelName{Provider: meta.Provider, ID: meta.ModelID}
	}
	return fallback
}

func (m modelName) qualified() string {
	if m.ID == "" {
		return ""
	}
	return m.Provider + "/" + m.ID
}

// dbParts are a model message's parts in Mastra's stored format, tool
// calls with their results (from results, by call id) when they have one.
func dbParts(msg model.Message, at int64, results map[string]model.ToolResultOutput) []any {
	var parts []any
	for _, p := range msg.Content {
		switch p.Type {
		case model.MessageText:
			parts = append(parts, dbTextPart{Type: "text", Text: p.Text, CreatedAt: at})
		case model.MessageReasoning:
			parts = append(parts, dbReasoningPart{Type: "reasoning", Details: []dbTextPart{{Type: "text", Text: p.Text}}})
		case model.MessageImage, model.MessageFile:
			parts = append(parts, dbFilePart{Type: "file", MimeType: p.MediaType, Data: p.Data})
		case model.MessageToolCall:
			inv := dbToolInvocation{State: "call", ToolCallID: p.ToolCall.ToolCallID, ToolName: p.ToolCall.ToolName, Args: p.ToolCall.Input}
			if out, ok := results[inv.ToolCallID]; ok {
				inv.State, inv.Result = "result", out.Value
			}
			parts = append(parts, dbToolPart{Type: "tool-invocation", ToolInvocation: inv})
		}
	}
	return parts
}

// toolResults are the results of a turn's tool calls, by call id.
func toolResults(msgs []model.Message) map[string]model.ToolResultOutput {
	results := map[string]model.ToolResultOutput{}
	for _, msg := range msgs {
		for _, p := range msg.Content {
			if p.Type == model.MessageToolResult && p.ToolResult != nil {
				results[p.ToolResult.ToolCallID] = p.ToolResult.Output
			}
		}
	}
	return results
}

// mergeMetadata adds the members of a stored message's metadata (the
// runtime's: suspendedTools, pendingToolApprovals) to into.
func mergeMetadata(into map[string]any, raw json.RawMessage) map[string]any {
	if into == nil {
		into = map[string]any{}
	}
	var m map[string]any
	if len(raw) > 0 && json.Unmarshal(raw, &m) == nil {
		for k, v := range m {
			if k != storedFormKey {
				into[k] = v
			}
		}
	}
	return into
}

// savedForm is the Mastra form a message was saved in, if it was saved
// through the API.
func savedForm(m storage.Message) (storedForm, bool) {
	var meta map[string]json.RawMessage
	if len(m.Metadata) == 0 || json.Unmarshal(m.Metadata, &meta) != nil || meta[storedFormKey] == nil {
		return storedForm{}, false
	}
	var f storedForm
	if json.Unmarshal(meta[storedFormKey], &f) != nil || len(f.Content) == 0 {
		return storedForm{}, false
	}
	return f, true
}
