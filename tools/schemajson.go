package tools

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
)

// SchemaJSON renders s as the JSON text Mastra sends for a tool's schema in
// its chunks and stored metadata (the resumeSchema of tool-call-suspended,
// for one): JSON.stringify(standardSchemaToJSONSchema(toStandardSchema(s)))
// with its default draft-07 target. That is:
//
//   - the draft-07 form of s (compat.Draft07: $defs become definitions,
//     and so on), "$schema": "http://json-schema.org/draft-07/schema#"
//     first;
//   - every object schema with properties but no additionalProperties
//     gets additionalProperties: false (Mastra's JSON Schema override);
//   - each node's keywords in the order Zod writes them: the type, its
//     type's keywords, properties, required, additionalProperties, then
//     metadata (description, ...) and definitions.
//
// That is exactly Mastra's text for a Zod schema, which is what a schema
// inferred from a Go type stands for. For a schema given as JSON Schema,
// Mastra keeps the author's keyword order and appends "$schema"; a
// schema.Schema does not remember its keywords' order, so it is written
// in Zod's too (same keys and values, properties in their order).
//
// A nil s, or one without a JSON Schema, gives "".
func SchemaJSON(s schema.Schema) (string, error) {
	if s == nil {
		return "", nil
	}
	js := s.JSONSchema()
	if js == nil {
		return "", nil
	}
	d := compat.Draft07(js)
	closeObjects(d, map[*jsonschema.Schema]bool{})
	raw, err := compat.Marshal(d)
	if err != nil {
		return "", err
	}
	root, err := wire.Decode(raw, wire.KeepDuplicates)
	if err != nil {
		return "", err
	}
	wire.SortSchema(root)
	// JSON.stringify's spelling: strings escape no HTML characters,
	// numbers print as JavaScript prints them.
	return jsjson.Stringify(wire.AppendAsIs(nil, root, wire.EncodingJSON), "")
}

// ResumeSchemaJSON is SchemaJSON of the tool's resume schema, computed
// once; "" when the tool has none (or it cannot be rendered).
func (t *Tool) ResumeSchemaJSON() string {
	if t.resumeJSON == nil {
		text, _ := SchemaJSON(t.resume)
		return text
	}
	return t.resumeJSON()
}

// closeObjects applies Mastra's override to every node of s: an object
// schema ("type": "object") with properties and no additionalProperties
// gets additionalProperties: false. s is a fresh copy (compat.Draft07's),
// which is modified in place.
func closeObjects(s *jsonschema.Schema, seen map[*jsonschema.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Type == "object" && s.Properties != nil && s.AdditionalProperties == nil {
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	for _, m := range []map[string]*jsonschema.Schema{s.Defs, s.Definitions, s.Properties, s.PatternProperties, s.DependencySchemas, s.DependentSchemas} {
		for _, sub := range m {
			closeObjects(sub, seen)
		}
	}
	for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems, s.ItemsArray} {
		for _, sub := range l {
			closeObjects(sub, seen)
		}
	}
	for _, sub := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.AdditionalProperties, s.Contains, s.UnevaluatedItems,
		s.PropertyNames, s.UnevaluatedProperties, s.Not, s.If, s.Then, s.Else, s.ContentSchema} {
		closeObjects(sub, seen)
	}
}
