package model

import (
	"context"
	"iter"

	"github.com/google/jsonschema-go/jsonschema"
)

// LanguageModel is a model a run talks to: the AI SDK's LanguageModelV2/V3
// in Go. Streaming is the primitive; a non-streaming call is the stream
// drained ([Collect]).
//
// Stream sends one request and yields the response's parts in order; it
// ends after a [PartFinish] or a [PartError] part, or with a non-nil error
// (a request that could not be made or was refused, after the provider's
// own retries), or when ctx is done. Implementations must be safe for
// concurrent use and must stop all work when the consumer stops iterating
// or ctx is cancelled.
type LanguageModel interface {
	// Provider is the AI SDK provider id, e.g. "openai.responses",
	// "anthropic.messages", "google.generative-ai" (schema compat layers
	// and tracing read it).
	Provider() string
	// ModelID is the provider's model id, e.g. "gpt-5.6-sol".
	ModelID() string
	// Stream runs one model call.
	Stream(ctx context.Context, req *Request) iter.Seq2[StreamPart, error]
}

// Request is one model call.
type Request struct {
	// Messages is the prompt: system messages first, then the
	// conversation.
	Messages []Message
	// Tools offered to the model.
	Tools []ToolDefinition
	// ToolChoice; the zero value is "auto".
	ToolChoice ToolChoice
	// Settings are the sampling settings.
	Settings CallSettings
	// ResponseFormat asks for JSON (structured output); nil is text.
	ResponseFormat *ResponseFormat
	// ProviderOptions are passed to the provider, keyed by provider name.
	ProviderOptions ProviderOptions
	// Headers are extra HTTP headers for this call.
	Headers map[string]string
}

// CallSettings are the AI SDK's common call settings; nil means the
// provider's default.
type CallSettings struct {
	MaxOutputTokens  *int     `json:"maxOutputTokens,omitempty"`
	Temperature      *float64 `json:"temperature,omitempty"`
	TopP             *float64 `json:"topP,omitempty"`
	TopK             *int     `json:"topK,omitempty"`
	PresencePenalty  *float64 `json:"presencePenalty,omitempty"`
	FrequencyPenalty *float64 `json:"frequencyPenalty,omitempty"`
	StopSequences    []string `json:"stopSequences,omitempty"`
	Seed             *int     `json:"seed,omitempty"`
	// MaxRetries overrides the provider's retry count (nil: default).
	MaxRetries *int `json:"maxRetries,omitempty"`
}

// ProviderOptions are per-provider options: provider name to options.
type ProviderOptions map[string]map[string]any

// ProviderMetadata is what a provider reports beside a part or a response,
// keyed by provider name.
type ProviderMetadata map[string]map[string]any

// ToolDefinition is a tool as offered to the model.
type ToolDefinition struct {
	// Type is "function" or "provider-defined".
	Type string `json:"type"`
	// Name is the model-facing name.
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the model-facing (compat-processed, draft-07) schema
	// of a function tool.
	InputSchema *jsonschema.Schema `json:"inputSchema,omitempty"`
	// Strict asks for strict input, where the provider supports it.
	Strict          *bool            `json:"strict,omitempty"`
	InputExamples   []map[string]any `json:"inputExamples,omitempty"`
	ProviderOptions ProviderOptions  `json:"providerOptions,omitempty"`
	// ID and Args describe a provider-defined tool ("openai.web_search").
	ID   string         `json:"id,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// Tool types.
const (
	ToolTypeFunction        = "function"
	ToolTypeProviderDefined = "provider-defined"
)

// ToolChoice tells the model whether and which tool to call.
type ToolChoice struct {
	// Type is "auto" (also the zero value), "none", "required" or "tool".
	Type string `json:"type"`
	// ToolName is the tool to call when Type is "tool".
	ToolName string `json:"toolName,omitempty"`
}

// Tool choices.
var (
	ToolChoiceAuto     = ToolChoice{Type: "auto"}
	ToolChoiceNone     = ToolChoice{Type: "none"}
	ToolChoiceRequired = ToolChoice{Type: "required"}
)

// ToolChoiceTool forces a call of the named tool.
func ToolChoiceTool(name string) ToolChoice { return ToolChoice{Type: "tool", ToolName: name} }

// ResponseFormat asks for a JSON answer, optionally matching Schema.
type ResponseFormat struct {
	// Type is "text" or "json".
	Type        string             `json:"type"`
	Schema      *jsonschema.Schema `json:"schema,omitempty"`
	Name        string             `json:"name,omitempty"`
	Description string             `json:"description,omitempty"`
}
