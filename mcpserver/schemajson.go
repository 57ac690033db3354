package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/zodschema"
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

// reorderKeywords puts every schema node's keywords in Zod's order
// (stable), recursing into sub-schemas.
func reorderKeywords(o *orderedObject) {
	zodschema.SortMembers(o.keys, o.vals)
	for i, k := range o.keys {
		v := o.vals[i]
		obj, isObj := v.(*orderedObject)
		list, isList := v.([]any)
		switch zodschema.Holding(k, isObj, isList) {
		case zodschema.HoldsMap:
			for _, sub := range obj.vals {
				if so, ok := sub.(*orderedObject); ok {
					reorderKeywords(so)
				}
			}
		case zodschema.HoldsList:
			for _, sub := range list {
				if so, ok := sub.(*orderedObject); ok {
					reorderKeywords(so)
				}
			}
		case zodschema.HoldsOne:
			reorderKeywords(obj)
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
