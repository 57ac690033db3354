package temporal

import (
	"encoding/json"
	"errors"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/tools"
)

// RunInput is what starts an agent run's workflow: the run as the
// agent launches it, and the agent's key in the registry.
type RunInput struct {
	// AgentKey names the agent in the registry (mastra.GetAgent).
	AgentKey string
	// LaunchRequest is the run: its id (its event log's and, prefixed,
	// its workflow's; a new one when empty), input, memory, options.
	agent.LaunchRequest
}

// RunResult is how a run's workflow ended.
type RunResult struct {
	RunID        string             `json:"runId"`
	Text         string             `json:"text"`
	FinishReason model.FinishReason `json:"finishReason"`
	Usage        model.Usage        `json:"usage"`
	// Object is the structured output's JSON, when the run asked for one.
	Object json.RawMessage `json:"object,omitempty"`
	// Error is the run's error, when it ended on one.
	Error string `json:"error,omitempty"`
}

// modelCall is the input of the model-call activity.
type modelCall struct {
	AgentKey       string
	RunID          string
	Provider       string
	ModelID        string
	Request        *model.Request
	RequestContext map[string]any
}

// modelAnswer is the model-call activity's result: the model's parts, in
// order, and the error that ended its stream, if one did.
type modelAnswer struct {
	Parts []wirePart
	Err   string
}

// wirePart is a model.StreamPart as it crosses to the workflow: its
// error as text, its raw chunk left out.
type wirePart struct {
	Type             model.PartType          `json:",omitempty"`
	ID               string                  `json:",omitempty"`
	Delta            string                  `json:",omitempty"`
	ToolCallID       string                  `json:",omitempty"`
	ToolName         string                  `json:",omitempty"`
	Input            string                  `json:",omitempty"`
	ProviderExecuted bool                    `json:",omitempty"`
	Result           json.RawMessage         `json:",omitempty"`
	IsError          bool                    `json:",omitempty"`
	FinishReason     model.FinishReason      `json:",omitempty"`
	RawFinishReason  string                  `json:",omitempty"`
	Usage            *model.Usage            `json:",omitempty"`
	Warnings         []model.Warning         `json:",omitempty"`
	Response         *model.ResponseMetadata `json:",omitempty"`
	Source           *model.Source           `json:",omitempty"`
	File             *model.GeneratedFile    `json:",omitempty"`
	Err              string                  `json:",omitempty"`
	ProviderMetadata model.ProviderMetadata  `json:",omitempty"`
}

func wireOf(p model.StreamPart) (wirePart, error) {
	w := wirePart{Type: p.Type, ID: p.ID, Delta: p.Delta, ToolCallID: p.ToolCallID, ToolName: p.ToolName,
		Input: p.Input, ProviderExecuted: p.ProviderExecuted, IsError: p.IsError, FinishReason: p.FinishReason,
		RawFinishReason: p.RawFinishReason, Warnings: p.Warnings, Response: p.Response, Source: p.Source,
		File: p.File, ProviderMetadata: p.ProviderMetadata}
	if p.Usage != (model.Usage{}) {
		u := p.Usage
		w.Usage = &u
	}
	if p.Err != nil {
		w.Err = p.Err.Error()
	}
	if p.Result != nil {
		raw, err := json.Marshal(p.Result)
		if err != nil {
			return w, err
		}
		w.Result = raw
	}
	return w, nil
}

func (w wirePart) part() model.StreamPart {
	p := model.StreamPart{Type: w.Type, ID: w.ID, Delta: w.Delta, ToolCallID: w.ToolCallID, ToolName: w.ToolName,
		Input: w.Input, ProviderExecuted: w.ProviderExecuted, IsError: w.IsError, FinishReason: w.FinishReason,
		RawFinishReason: w.RawFinishReason, Warnings: w.Warnings, Response: w.Response, Source: w.Source,
		File: w.File, ProviderMetadata: w.ProviderMetadata}
	if w.Usage != nil {
		p.Usage = *w.Usage
	}
	if w.Err != "" {
		p.Err = errors.New(w.Err)
	}
	if w.Result != nil {
		var v any
		if json.Unmarshal(w.Result, &v) == nil {
			p.Result = v
		}
	}
	return p
}

// toolCall is the input of the tool-call activity.
type toolCall struct {
	AgentKey           string
	RunID              string
	ToolName           string // the record key the model called
	ToolCallID         string
	Args               json.RawMessage
	RequestContext     map[string]any
	ResumeData         json.RawMessage `json:",omitempty"`
	SuspendPayload     json.RawMessage `json:",omitempty"`
	SuspendedToolRunID string          `json:",omitempty"`
	ThreadID           string          `json:",omitempty"`
	ResourceID         string          `json:",omitempty"`
	Messages           json.RawMessage `json:",omitempty"`
}

// toolAnswer is the tool-call activity's result: exactly one of Output,
// Invalid, Suspension and Err, and the chunks the tool wrote.
type toolAnswer struct {
	Output     json.RawMessage   `json:",omitempty"`
	Invalid    *validationWire   `json:",omitempty"`
	Suspension *tools.Suspension `json:",omitempty"`
	Err        string            `json:",omitempty"`
	Writes     []toolWrite       `json:",omitempty"`
}

// toolWrite is one Write (Custom nil) or Custom call of a tool.
type toolWrite struct {
	Data   json.RawMessage  `json:",omitempty"`
	Custom *tools.DataChunk `json:",omitempty"`
}

// validationWire is a *tools.ValidationError's fields (its JSON is
// Mastra's result shape, not its fields).
type validationWire struct {
	Message   string
	Errors    tools.FieldErrors
	Issues    []schema.Issue
	Truncated bool
}

// result is the tool call's result as the loop takes it.
func (a toolAnswer) result() (*tools.Result, error) {
	switch {
	case a.Err != "":
		return nil, errors.New(a.Err)
	case a.Invalid != nil:
		v := a.Invalid
		return &tools.Result{Output: &tools.ValidationError{Message: v.Message, Errors: v.Errors, Issues: v.Issues, Truncated: v.Truncated}}, nil
	case a.Suspension != nil:
		return &tools.Result{Suspension: a.Suspension}, nil
	}
	var out any
	if len(a.Output) > 0 && string(a.Output) != "null" {
		out = a.Output
	}
	return &tools.Result{Output: out}, nil
}
