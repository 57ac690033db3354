package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/schema/compat"
)

// JSON Schema dialects Mastra's MCP server declares: tools' own schemas
// are advertised as 2020-12 (the dialect MCP 2026-07-28 assumes), the
// agent and workflow tools as draft-07 (their schemas pass through
// Mastra's tool builder first).
const (
	draft202012 = "https://json-schema.org/draft/2020-12/schema"
	draft07     = "http://json-schema.org/draft-07/schema#"
)

// emptyObjectSchema is what a tool without an input schema advertises.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// renderSchema renders s as JSON Schema with "$schema": dialect first
// (kept if s names its own dialect) and every node's keywords in the
// order Zod writes them. A nil s renders as nil.
func renderSchema(s schema.Schema, dialect string) (json.RawMessage, error) {
	if s == nil || s.JSONSchema() == nil {
		return nil, nil
	}
	raw, err := compat.Marshal(s.JSONSchema())
	if err != nil {
		return nil, fmt.Errorf("mcpserver: render schema: %w", err)
	}
	return orderSchema(raw, dialect)
}

// orderSchema rewrites a JSON Schema text with "$schema": dialect first
// (when dialect is not empty and the schema has none), "properties": {}
// on a top-level object schema without properties, and keywords in Zod's
// order.
func orderSchema(raw []byte, dialect string) (json.RawMessage, error) {
	v, err := decodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*orderedObject)
	if !ok { // the true/false schema
		return raw, nil
	}
	if dialect != "" && !obj.has("$schema") {
		obj.keys = append([]string{"$schema"}, obj.keys...)
		obj.vals = append([]any{dialect}, obj.vals...)
	}
	if t, _ := obj.get("type"); t == "object" && !obj.has("properties") {
		// Zod writes the properties of every object, even none.
		obj.Set("properties", &orderedObject{})
	}
	reorderKeywords(obj)
	return obj.appendJSON(nil), nil
}

// formSchema is a schema as an input-request form: no "$schema" (forms
// are a restricted flat subset of JSON Schema and carry no dialect).
func formSchema(raw []byte) (*orderedObject, error) {
	v, err := decodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*orderedObject)
	if !ok {
		return nil, fmt.Errorf("mcpserver: a form schema must be an object")
	}
	obj.remove("$schema")
	reorderKeywords(obj)
	return obj, nil
}

// zodKeywordOrder ranks JSON Schema keywords in the order Zod 4's
// toJSONSchema writes them; keywords it does not list keep their relative
// order between the structural ones and the annotations.
var zodKeywordOrder = func() map[string]int {
	structural := []string{
		"$schema", "$id", "$ref", "$comment", "type", "const", "enum",
		"minLength", "maxLength", "format", "contentEncoding", "contentMediaType", "pattern",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "prefixItems", "items", "additionalItems",
		"contains", "minContains", "maxContains",
		"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
		"anyOf", "oneOf", "allOf", "not", "if", "then", "else",
	}
	m := make(map[string]int, len(structural)+10)
	for i, k := range structural {
		m[k] = i
	}
	other := len(structural)
	for i, k := range []string{"default", "title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions"} {
		m[k] = other + 1 + i
	}
	m[""] = other
	return m
}()

func keywordRank(k string) int {
	if r, ok := zodKeywordOrder[k]; ok {
		return r
	}
	return zodKeywordOrder[""]
}

// Keywords whose value holds sub-schemas.
var (
	schemaMapKeywords  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	schemaListKeywords = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true, "items": true}
	schemaOneKeywords  = map[string]bool{"items": true, "additionalProperties": true, "additionalItems": true, "contains": true,
		"propertyNames": true, "not": true, "if": true, "then": true, "else": true, "unevaluatedItems": true, "unevaluatedProperties": true}
)

// reorderKeywords sorts every schema node's keywords by keywordRank
// (stable), recursing into sub-schemas.
func reorderKeywords(o *orderedObject) {
	idx := make([]int, len(o.keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return keywordRank(o.keys[a]) - keywordRank(o.keys[b]) })
	keys, vals := make([]string, len(idx)), make([]any, len(idx))
	for i, j := range idx {
		keys[i], vals[i] = o.keys[j], o.vals[j]
	}
	o.keys, o.vals = keys, vals
	for i, k := range o.keys {
		switch v := o.vals[i].(type) {
		case *orderedObject:
			if schemaMapKeywords[k] {
				for _, sub := range v.vals {
					if so, ok := sub.(*orderedObject); ok {
						reorderKeywords(so)
					}
				}
			} else if schemaOneKeywords[k] {
				reorderKeywords(v)
			}
		case []any:
			if schemaListKeywords[k] {
				for _, sub := range v {
					if so, ok := sub.(*orderedObject); ok {
						reorderKeywords(so)
					}
				}
			}
		}
	}
}

// orderedObject is a JSON object that keeps its members' order.
type orderedObject struct {
	keys []string
	vals []any
}

func (o *orderedObject) Set(key string, val any) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = val
			return
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, val)
}

func (o *orderedObject) has(key string) bool { return slices.Contains(o.keys, key) }

func (o *orderedObject) get(key string) (any, bool) {
	if i := slices.Index(o.keys, key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

func (o *orderedObject) remove(key string) {
	if i := slices.Index(o.keys, key); i >= 0 {
		o.keys = slices.Delete(o.keys, i, i+1)
		o.vals = slices.Delete(o.vals, i, i+1)
	}
}

// appendJSON renders o as JSON.stringify would.
func (o *orderedObject) appendJSON(b []byte) []byte {
	return jsjson.Append(b, o, "")
}

// Members makes orderedObject a jsjson.Object: its members in
// JavaScript property order (array-index keys first).
func (o *orderedObject) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, k := range jsjson.OrderKeys(slices.Clone(o.keys)) {
			v, _ := o.get(k)
			if !yield(k, v) {
				return
			}
		}
	}
}

// MarshalJSON renders o in its member order.
func (o *orderedObject) MarshalJSON() ([]byte, error) { return o.appendJSON(nil), nil }

// decodeOrdered decodes JSON keeping object member order: objects become
// *orderedObject, arrays []any, numbers json.Number (their text kept).
func decodeOrdered(raw []byte) (any, error) {
	v, err := jsjson.Decode(bytes.TrimSpace(raw), jsjson.Builder[any]{
		Scalar: func(v any) any { return v },
		Array:  func(elems []any) any { return elems },
		Object: func(keys []string, vals []any) any {
			o := &orderedObject{}
			for i, k := range keys {
				o.Set(k, vals[i])
			}
			return o
		},
	})
	if err != nil {
		return nil, fmt.Errorf("mcpserver: decode JSON: %w", err)
	}
	return v, nil
}
