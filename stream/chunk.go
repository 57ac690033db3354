package stream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
)

// From is a chunk's origin.
type From string

// Origins.
const (
	FromAgent    From = "AGENT"
	FromUser     From = "USER"
	FromSystem   From = "SYSTEM"
	FromWorkflow From = "WORKFLOW"
	FromNetwork  From = "NETWORK"
)

// Chunk types this package knows the payloads of (others pass through with
// any payload).
const (
	TypeStart                       = "start"
	TypeStepStart                   = "step-start"
	TypeTextStart                   = "text-start"
	TypeTextDelta                   = "text-delta"
	TypeTextEnd                     = "text-end"
	TypeReasoningStart              = "reasoning-start"
	TypeReasoningDelta              = "reasoning-delta"
	TypeReasoningEnd                = "reasoning-end"
	TypeToolCallInputStreamingStart = "tool-call-input-streaming-start"
	TypeToolCallDelta               = "tool-call-delta"
	TypeToolCallInputStreamingEnd   = "tool-call-input-streaming-end"
	TypeToolCall                    = "tool-call"
	TypeToolResult                  = "tool-result"
	TypeToolError                   = "tool-error"
	TypeToolOutputDenied            = "tool-output-denied"
	TypeToolCallApproval            = "tool-call-approval"
	TypeToolCallSuspended           = "tool-call-suspended"
	TypeToolOutput                  = "tool-output"
	TypeSource                      = "source"
	TypeFile                        = "file"
	TypeObject                      = "object"
	TypeObjectResult                = "object-result"

	TypeWorkflowStart         = "workflow-start"
	TypeWorkflowStepStart     = "workflow-step-start"
	TypeWorkflowStepResult    = "workflow-step-result"
	TypeWorkflowStepSuspended = "workflow-step-suspended"
	TypeWorkflowStepOutput    = "workflow-step-output"
	TypeWorkflowStepProgress  = "workflow-step-progress"
	TypeWorkflowCanceled      = "workflow-canceled"
	TypeWorkflowFinish        = "workflow-finish"
	TypeStepFinish            = "step-finish"
	TypeFinish                = "finish"
	TypeError                 = "error"
	TypeAbort                 = "abort"
	TypeTripwire              = "tripwire"
)

// Chunk is one stream chunk. Payload is one of this package's payload
// types or any JSON-marshalable value; Metadata holds chunk metadata such
// as metadata.mastra.toolPayloadTransform. A chunk whose Type starts with
// "data-" is a data chunk: it marshals as {type, data, id?, transient?}
// and its RunID, From, Payload and Metadata are not sent.
type Chunk struct {
	Type     string
	RunID    string
	From     From
	Payload  any
	Metadata map[string]any

	// Data chunks only.
	Data      any
	ID        string
	Transient bool

	// Object is the (partial) object of "object" and "object-result"
	// chunks, which carry it at the top level, not in a payload.
	Object any
}

// IsObject reports whether c is an "object" or "object-result" chunk.
func (c Chunk) IsObject() bool { return c.Type == TypeObject || c.Type == TypeObjectResult }

// IsData reports whether c is a data-* chunk.
func (c Chunk) IsData() bool { return strings.HasPrefix(c.Type, "data-") }

// MarshalJSON encodes Mastra's envelope.
func (c Chunk) MarshalJSON() ([]byte, error) {
	if c.IsData() {
		return wire.MarshalNoHTML(struct {
			Type      string `json:"type"`
			Data      any    `json:"data"`
			ID        string `json:"id,omitempty"`
			Transient bool   `json:"transient,omitempty"`
		}{c.Type, c.Data, c.ID, c.Transient})
	}
	if c.IsObject() {
		return wire.MarshalNoHTML(struct {
			From     From           `json:"from"`
			RunID    string         `json:"runId"`
			Type     string         `json:"type"`
			Object   any            `json:"object"`
			Metadata map[string]any `json:"metadata,omitempty"`
		}{c.From, c.RunID, c.Type, c.Object, c.Metadata})
	}
	payload := c.Payload
	if p, ok := payload.(FinishPayload); ok && p.Resumed {
		payload = resumedFinishPayload{p.MessageID, p.StepResult, p.Metadata, p.Output, p.ProcessorRetryCount, p.Messages}
	}
	if c.Type == TypeStepStart {
		// Mastra's step-start is built {runId, from, type, payload}.
		return wire.MarshalNoHTML(struct {
			RunID    string         `json:"runId"`
			From     From           `json:"from"`
			Type     string         `json:"type"`
			Payload  any            `json:"payload,omitempty"`
			Metadata map[string]any `json:"metadata,omitempty"`
		}{c.RunID, c.From, c.Type, payload, c.Metadata})
	}
	return wire.MarshalNoHTML(struct {
		Type     string         `json:"type"`
		RunID    string         `json:"runId"`
		From     From           `json:"from"`
		Payload  any            `json:"payload,omitempty"`
		Metadata map[string]any `json:"metadata,omitempty"`
	}{c.Type, c.RunID, c.From, payload, c.Metadata})
}

// UnmarshalJSON decodes a chunk; the payload is decoded into this
// package's payload type for known chunk types, else left as
// json.RawMessage.
func (c *Chunk) UnmarshalJSON(b []byte) error {
	var w struct {
		Type      string          `json:"type"`
		RunID     string          `json:"runId"`
		From      From            `json:"from"`
		Payload   json.RawMessage `json:"payload"`
		Metadata  map[string]any  `json:"metadata"`
		Data      json.RawMessage `json:"data"`
		ID        string          `json:"id"`
		Transient bool            `json:"transient"`
		Object    any             `json:"object"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	if w.Type == "" {
		return fmt.Errorf("stream: chunk without a type")
	}
	*c = Chunk{Type: w.Type, RunID: w.RunID, From: w.From, Metadata: w.Metadata, ID: w.ID, Transient: w.Transient}
	if c.IsObject() {
		c.Object = w.Object
		return nil
	}
	if c.IsData() {
		if len(w.Data) > 0 {
			c.Data = w.Data
		}
		return nil
	}
	if len(w.Payload) == 0 {
		return nil
	}
	p := newPayload(w.Type)
	if p == nil {
		c.Payload = w.Payload
		return nil
	}
	if err := json.Unmarshal(w.Payload, p); err != nil {
		return fmt.Errorf("stream: %s payload: %w", w.Type, err)
	}
	c.Payload = derefPayload(p)
	return nil
}
