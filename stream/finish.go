package stream

import (
	"encoding/json"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/model"
)

// FinishPayload is the payload of "step-finish" and of "finish", which
// share Mastra's shape:
//
//	{messageId, stepResult: {reason, isContinued}, metadata: {id, timestamp,
//	 modelId, modelMetadata, request}, output: {text, toolCalls, usage,
//	 steps, object?}, messages: {all, user, nonUser}, processorRetryCount}
//
// In a step-finish, Output.Usage is the run's usage so far (Mastra's
// running total); in the finish it is the run's total. Output.Steps holds
// every step up to this one.
type FinishPayload struct {
	MessageID           string         `json:"messageId,omitempty"`
	StepResult          StepResult     `json:"stepResult"`
	Metadata            StepMetadata   `json:"metadata"`
	Output              FinishOutput   `json:"output"`
	Messages            *MessageGroups `json:"messages,omitempty"`
	ProcessorRetryCount int            `json:"processorRetryCount"`

	// Resumed marks the step-finish of the step a resume completed (the
	// one whose tool call waited). Mastra rebuilds that payload from the
	// suspended run's snapshot and adds the messages to it, so in the
	// chunk they come after processorRetryCount; StepResult.MessageID is
	// then set too.
	Resumed bool `json:"-"`
}

// resumedFinishPayload is a Resumed FinishPayload in its chunk's member
// order.
type resumedFinishPayload struct {
	MessageID           string         `json:"messageId,omitempty"`
	StepResult          StepResult     `json:"stepResult"`
	Metadata            StepMetadata   `json:"metadata"`
	Output              FinishOutput   `json:"output"`
	ProcessorRetryCount int            `json:"processorRetryCount"`
	Messages            *MessageGroups `json:"messages,omitempty"`
}

// StepResult says why a step (or the run) ended and whether the loop goes
// on. A Reason of "error" means the run failed. MessageID is set in the
// step-finish of a step a resume completed: the id of the message the
// run goes on with (FinishPayload.Resumed).
type StepResult struct {
	Reason      model.FinishReason `json:"reason"`
	RawReason   string             `json:"rawReason,omitempty"`
	IsContinued bool               `json:"isContinued"`
	Warnings    []model.Warning    `json:"warnings,omitempty"`
	MessageID   string             `json:"messageId,omitempty"`
}

// StepMetadata describes the model response of a step. Request is
// redacted to {} (servers drop it altogether).
type StepMetadata struct {
	ID               string         `json:"id,omitempty"`
	Timestamp        string         `json:"timestamp,omitempty"`
	ModelID          string         `json:"modelId,omitempty"`
	ModelMetadata    ModelMetadata  `json:"modelMetadata"`
	ProviderMetadata map[string]any `json:"providerMetadata,omitempty"`
	Request          any            `json:"request,omitempty"`
}

// ModelMetadata names the model that answered. ModelVersion is the model
// interface's specification version ("v3", as the AI SDK's
// LanguageModelV3 that package model mirrors).
type ModelMetadata struct {
	ModelID       string `json:"modelId"`
	ModelVersion  string `json:"modelVersion"`
	ModelProvider string `json:"modelProvider"`
}

// FinishOutput is the output part of a step-finish or finish payload:
// the step's text and tool calls, usage, every step so far and, with
// structured output, the object.
type FinishOutput struct {
	Text      string            `json:"text"`
	ToolCalls []ToolCallPayload `json:"toolCalls"`
	Usage     model.Usage       `json:"usage"`
	Steps     []StepRecord      `json:"steps"`
	Object    any               `json:"object,omitempty"`
}

// StepRecord is one step as step-finish and finish payloads list it: its
// content (the assistant's parts, then the tool results), usage, warnings
// and response (the messages of the run so far).
type StepRecord struct {
	Content  StepContent     `json:"content"`
	Usage    model.Usage     `json:"usage"`
	Warnings []model.Warning `json:"warnings"`
	Request  any             `json:"request,omitempty"`
	Response StepResponse    `json:"response"`
}

// StepResponse is a step's model response: its id, time, model and the
// response messages of the run up to and including this step.
type StepResponse struct {
	ID        string          `json:"id,omitempty"`
	Timestamp string          `json:"timestamp,omitempty"`
	ModelID   string          `json:"modelId"`
	Messages  []model.Message `json:"messages"`
}

// MessageGroups are the run's messages so far: All is User then NonUser;
// User the request's input (system messages excluded); NonUser what the
// run produced (assistant and tool messages).
type MessageGroups struct {
	All     []model.Message `json:"all"`
	User    []model.Message `json:"user"`
	NonUser []model.Message `json:"nonUser"`
}

// StepContent is a step's content: the assistant's parts, then the tool
// results. It marshals as Mastra's step results list it, which is the
// message parts' shape except for tool results: {type, input, output,
// toolCallId, toolName}, without provider options.
type StepContent []model.Part

// MarshalJSON writes the parts in Mastra's step-content shape.
func (c StepContent) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("[]"), nil
	}
	out := make([]any, len(c))
	for i, p := range c {
		if p.Type != model.MessageToolResult || p.ToolResult == nil {
			out[i] = p
			continue
		}
		tr := p.ToolResult
		out[i] = stepToolResult{Type: p.Type, Input: tr.Input, Output: tr.Output, ToolCallID: tr.ToolCallID, ToolName: tr.ToolName}
	}
	return wire.MarshalNoHTML(out)
}

// stepToolResult is a tool result as step content holds it.
type stepToolResult struct {
	Type       string                 `json:"type"`
	Input      json.RawMessage        `json:"input,omitempty"`
	Output     model.ToolResultOutput `json:"output"`
	ToolCallID string                 `json:"toolCallId"`
	ToolName   string                 `json:"toolName"`
}
