package compat

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Model identifies the model a schema is prepared for, as Mastra's
// ModelInformation does: Provider is the AI-SDK provider string (for example
// "openai.chat", "google.generative-ai", "anthropic.messages", "groq.chat",
// "openrouter") and ModelID the provider's model id (for example "gpt-4o",
// "o3-mini", "google/gemini-2.5-flash"). Matching is by case-sensitive
// substring, exactly as Mastra does.
//
// SupportsStructuredOutputs is carried for parity with Mastra, which passes
// the model's flag to every layer; no layer of @mastra/schema-compat 1.3.11
// reads it.
type Model struct {
	Provider                  string
	ModelID                   string
	SupportsStructuredOutputs bool
}

// Layer is one provider compatibility layer.
type Layer interface {
	// Name is the layer's short name (one of the Name* constants).
	Name() string
	// ShouldApply reports whether the layer is meant for m.
	ShouldApply(m Model) bool
	// Process returns the model-facing form of s: a new schema in draft-07
	// form; s is never modified. Process(nil) is nil. Process does not
	// consult ShouldApply.
	Process(s *jsonschema.Schema) *jsonschema.Schema
}

// Layer names, as returned by Layer.Name and Apply.
const (
	NameOpenAIReasoning = "openai-reasoning"
	NameOpenAI          = "openai"
	NameGoogle          = "google"
	NameAnthropic       = "anthropic"
	NameDeepSeek        = "deepseek"
	NameMeta            = "meta"
)

// Layers returns the layers in Mastra's order: OpenAI reasoning, OpenAI,
// Google, Anthropic, DeepSeek, Meta. The slice is new on every call.
func Layers() []Layer {
	return []Layer{OpenAIReasoningLayer{}, OpenAILayer{}, GoogleLayer{}, AnthropicLayer{}, DeepSeekLayer{}, MetaLayer{}}
}

// Select returns the first layer of Layers whose ShouldApply is true for m,
// or nil.
func Select(m Model) Layer {
	for _, l := range Layers() {
		if l.ShouldApply(m) {
			return l
		}
	}
	return nil
}

// Apply returns the model-facing schema for m and the name of the layer that
// produced it ("" when none applies). The result is always a new schema; s is
// never modified.
//
// When a layer applies, the result is its Process(s). When none does, the
// result is what Mastra sends in that case: Draft07(s) with every node whose
// type is exactly "object" and that has properties but no
// additionalProperties given additionalProperties: false (Mastra's
// JSON Schema conversion closes objects this way before any layer runs, so
// every layer's output has it too). Nothing else changes: constraints stay
// keywords and optional properties stay optional.
//
// Apply(nil, m) returns (nil, ""). Callers that honour a tool's
// `strict: false` (which opts it out of all layers in Mastra) pass a zero
// Model, which selects no layer.
func Apply(s *jsonschema.Schema, m Model) (*jsonschema.Schema, string) {
	if s == nil {
		return nil, ""
	}
	if l := Select(m); l != nil {
		return l.Process(s), l.Name()
	}
	return prepare(s), ""
}

// DeepSeekLayer prepares schemas for DeepSeek models: model id containing
// "deepseek" but not "r1" (Mastra: R1 does fine without it). It applies the
// common rewriting only (see the package documentation).
type DeepSeekLayer struct{}

// Name returns "deepseek".
func (DeepSeekLayer) Name() string { return NameDeepSeek }

// ShouldApply: the model id contains "deepseek" and not "r1".
func (DeepSeekLayer) ShouldApply(m Model) bool {
	return contains(m.ModelID, "deepseek") && !contains(m.ModelID, "r1")
}

// Process returns the DeepSeek form of s (a new schema; s is not modified).
func (DeepSeekLayer) Process(s *jsonschema.Schema) *jsonschema.Schema { return processCommon(s) }

// MetaLayer prepares schemas for Meta (Llama) models: model id containing
// "meta". It applies the common rewriting only (see the package
// documentation).
type MetaLayer struct{}

// Name returns "meta".
func (MetaLayer) Name() string { return NameMeta }

// ShouldApply: the model id contains "meta".
func (MetaLayer) ShouldApply(m Model) bool { return contains(m.ModelID, "meta") }

// Process returns the Meta form of s (a new schema; s is not modified).
func (MetaLayer) Process(s *jsonschema.Schema) *jsonschema.Schema { return processCommon(s) }

func processCommon(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	t := prepare(s)
	walk(commonRules{}, t)
	return t
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
