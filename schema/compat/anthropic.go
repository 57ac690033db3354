package compat

import (
	"bytes"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// AnthropicLayer prepares schemas for Claude models (model id containing
// "claude", whatever the provider, so OpenRouter's "anthropic/claude-..."
// ids match too).
//
// It applies the common rewriting (see the package documentation). Then, when
// the root is a union (anyOf, or else oneOf) whose branches are all of type
// "object", the root becomes one closed object: type "object", the branches'
// properties merged (a name whose schema differs between branches gets an
// anyOf of the distinct schemas, in order of first appearance), required the
// names required by every branch, additionalProperties false; anyOf and oneOf
// are removed. (Anthropic rejects tool input schemas whose root is not an
// object.)
//
// Mastra's one model-specific case, claude-3.5-haiku, does not change the
// model-facing schema: string minLength/maxLength are moved into the
// description for every Claude model already. For claude-3.5-haiku Mastra
// also drops those limits from the schema it validates the model's arguments
// with; see ValidationSchema.
type AnthropicLayer struct{}

// Name returns "anthropic".
func (AnthropicLayer) Name() string { return NameAnthropic }

// ShouldApply: the model id contains "claude".
func (AnthropicLayer) ShouldApply(m Model) bool { return contains(m.ModelID, "claude") }

// Process returns the Anthropic form of s (a new schema; s is not modified).
func (AnthropicLayer) Process(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	t := prepare(s)
	walk(commonRules{}, t)
	mergeRootObjectUnion(t)
	return t
}

func mergeRootObjectUnion(root *jsonschema.Schema) {
	union := root.AnyOf
	if union == nil {
		union = root.OneOf
	}
	if union == nil {
		return
	}
	var objects []*jsonschema.Schema
	for _, b := range union {
		if b != nil && !isFalse(b) && b.Type == "object" {
			objects = append(objects, b)
		}
	}
	if len(objects) == 0 || len(objects) != len(union) {
		return
	}
	root.AnyOf, root.OneOf = nil, nil
	root.Type, root.Types = "object", nil

	type variants struct {
		schemas []*jsonschema.Schema
		json    [][]byte
	}
	merged := map[string]*variants{}
	var order []string
	for _, b := range objects {
		for _, k := range propertyKeys(b) {
			p := b.Properties[k]
			j, err := Marshal(p)
			if err != nil {
				j = nil
			}
			v := merged[k]
			if v == nil {
				v = &variants{}
				merged[k] = v
				order = append(order, k)
			}
			if j != nil && slices.ContainsFunc(v.json, func(x []byte) bool { return bytes.Equal(x, j) }) {
				continue
			}
			v.schemas = append(v.schemas, p)
			v.json = append(v.json, j)
		}
	}
	root.Properties = make(map[string]*jsonschema.Schema, len(merged))
	root.PropertyOrder = order
	for k, v := range merged {
		if len(v.schemas) == 1 {
			root.Properties[k] = v.schemas[0]
		} else {
			root.Properties[k] = &jsonschema.Schema{AnyOf: v.schemas}
		}
	}
	req := slices.Clone(objects[0].Required)
	if req == nil {
		req = []string{}
	}
	for _, b := range objects[1:] {
		req = slices.DeleteFunc(req, func(k string) bool { return !slices.Contains(b.Required, k) })
	}
	root.Required = req
	root.AdditionalProperties = falseSchema()
}

// ValidationSchema returns the schema the model's arguments should be
// validated against (after RestoreOptional, when the OpenAI layers ran) for
// a tool whose input schema is original and that is called by m.
//
// It is original itself (not a copy) except for claude-3.5-haiku when the
// Anthropic layer is the selected one: Mastra validates that model's
// arguments without the string minLength/maxLength limits it moved into the
// description, because the model does not respect them. Then the result is a
// deep copy of original without minLength and maxLength on string-typed
// nodes. (Mastra does this for Zod schemas; plain JSON Schema tools keep
// their limits there. A Go tool's JSON Schema plays the part of the Zod
// schema, so the stripping is offered; callers that want the JSON Schema tool
// behaviour simply validate against original.)
func ValidationSchema(original *jsonschema.Schema, m Model) *jsonschema.Schema {
	if original == nil {
		return nil
	}
	if l := Select(m); l == nil || l.Name() != NameAnthropic || !contains(m.ModelID, "claude-3.5-haiku") {
		return original
	}
	c := clone(original)
	stripStringLengths(c)
	return c
}

func stripStringLengths(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if isStringSchema(s) {
		s.MinLength, s.MaxLength = nil, nil
	}
	eachSchemaChild(s, stripStringLengths)
}
