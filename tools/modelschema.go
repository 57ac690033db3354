package tools

import (
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/schema/compat"
)

// ModelSchema is a tool's input schema as one model sees it.
type ModelSchema struct {
	// Schema is the draft-07 JSON Schema sent to the model (marshal it with
	// compat.Marshal to get Mastra's bytes).
	Schema *jsonschema.Schema
	// Layer names the compat layer that rewrote it ("" for none).
	Layer string
	// PrepareInput maps the model's decoded arguments back before
	// validation (the OpenAI layers' nulls become absent keys); nil when
	// nothing needs mapping. Pass it as Invocation.PrepareInput.
	PrepareInput func(v any) any
}

// modelSchemas caches ModelSchema per model; it lives on the Tool.
type modelSchemas struct {
	mu    sync.Mutex
	byKey map[compat.Model]*ModelSchema
}

// ModelSchema returns the input schema prepared for model m by Mastra's
// provider compat layers, chosen first-match by provider and model id
// (OpenAI reasoning, OpenAI, Google, Anthropic, DeepSeek, Meta). A tool with
// Strict set to false is never rewritten: the model gets its schema in
// draft-07 form. The result is computed once per model and shared; do not
// modify it.
func (t *Tool) ModelSchema(m compat.Model) *ModelSchema {
	t.modelSchemas.mu.Lock()
	defer t.modelSchemas.mu.Unlock()
	if ms, ok := t.modelSchemas.byKey[m]; ok {
		return ms
	}
	ms := &ModelSchema{}
	src := &jsonschema.Schema{Type: "object"}
	if t.input != nil && t.input.JSONSchema() != nil {
		src = t.input.JSONSchema()
	}
	if t.strict != nil && !*t.strict {
		ms.Schema = compat.Draft07(src)
	} else {
		ms.Schema, ms.Layer = compat.Apply(src, m)
	}
	if ms.Layer == compat.NameOpenAI || ms.Layer == compat.NameOpenAIReasoning {
		rewritten := ms.Schema
		ms.PrepareInput = func(v any) any { return compat.RestoreOptional(rewritten, v) }
	}
	if t.modelSchemas.byKey == nil {
		t.modelSchemas.byKey = map[compat.Model]*ModelSchema{}
	}
	t.modelSchemas.byKey[m] = ms
	return ms
}
