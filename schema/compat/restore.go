package compat

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxRefHops bounds how many $ref links RestoreOptional follows without
// descending into the value (a chain of references to references).
const maxRefHops = 64

// RestoreOptional undoes, on a model's answer, the OpenAI layers' change of
// optional properties into required nullable ones, so that the answer can be
// validated against the original schema.
//
// v is a decoded JSON value (nil, bool, float64 or json.Number or any Go
// integer, string, []any, map[string]any, as encoding/json produces) and
// compatSchema the schema an OpenAI layer produced. RestoreOptional walks
// them together and, in every object whose schema node lists names in its
// "x-optional" keyword, deletes the keys listed there whose value is null.
// The walk follows Mastra's: at a node with anyOf it uses the first non-null
// branch whose type matches the value's JSON type (an integral number also
// matches "number"), else the first non-null branch, merged over the node;
// arrays are walked with items (a tuple form is not walked); objects with
// properties; anything else is left as is. Unlike Mastra it also follows
// $ref ("#", "#/definitions/X", "#/$defs/X", resolved against compatSchema),
// so nulls inside recursive and shared definitions are restored too.
//
// RestoreOptional mutates v in place: keys are deleted from, and nested
// values replaced in, the maps and slices reachable from v (nothing else is
// touched, and compatSchema is only read). It returns v. With a nil
// compatSchema, or a schema without x-optional lists, v comes back
// unchanged.
func RestoreOptional(compatSchema *jsonschema.Schema, v any) any {
	if compatSchema == nil {
		return v
	}
	r := restorer{root: compatSchema}
	return r.walk(v, compatSchema, 0)
}

type restorer struct{ root *jsonschema.Schema }

// view is a node merged with the anyOf branch chosen for a value.
type view struct {
	typ        string
	types      []string
	items      *jsonschema.Schema
	properties map[string]*jsonschema.Schema
	optional   []string
	ref        string
}

func (v view) hasType(t string) bool { return v.typ == t || slices.Contains(v.types, t) }

func viewOf(s *jsonschema.Schema) view {
	return view{typ: s.Type, types: s.Types, items: s.Items, properties: s.Properties, optional: optionalList(s), ref: s.Ref}
}

// over returns v with the keywords b has replacing v's (JavaScript's
// {...schema, ...branch}).
func (v view) over(b *jsonschema.Schema) view {
	if b.Type != "" || b.Types != nil {
		v.typ, v.types = b.Type, b.Types
	}
	if b.Items != nil || b.ItemsArray != nil {
		v.items = b.Items
	}
	if b.Properties != nil {
		v.properties = b.Properties
	}
	if _, ok := b.Extra[XOptional]; ok {
		v.optional = optionalList(b)
	}
	if b.Ref != "" {
		v.ref = b.Ref
	}
	return v
}

func (r *restorer) walk(val any, s *jsonschema.Schema, hops int) any {
	if s == nil {
		return val
	}
	v := resolveBranch(s, val)
	if v.ref != "" && v.typ == "" && v.types == nil {
		if hops >= maxRefHops {
			return val
		}
		if t := r.lookup(v.ref); t != nil {
			return r.walk(val, t, hops+1)
		}
		return val
	}
	if v.hasType("array") {
		arr, ok := val.([]any)
		if !ok || v.items == nil {
			return val
		}
		for i := range arr {
			arr[i] = r.walk(arr[i], v.items, 0)
		}
		return arr
	}
	if !v.hasType("object") {
		return val
	}
	obj, ok := val.(map[string]any)
	if !ok || v.properties == nil {
		return val
	}
	for k, e := range obj {
		if e == nil && slices.Contains(v.optional, k) {
			delete(obj, k)
		} else if p := v.properties[k]; p != nil {
			obj[k] = r.walk(e, p, 0)
		}
	}
	return obj
}

func (r *restorer) lookup(ref string) *jsonschema.Schema {
	if ref == "#" {
		return r.root
	}
	if name, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
		return r.root.Definitions[name]
	}
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		return r.root.Defs[name]
	}
	return nil
}

// resolveBranch picks the anyOf branch for val, as Mastra's #resolveAnyOf.
func resolveBranch(s *jsonschema.Schema, val any) view {
	base := viewOf(s)
	if s.AnyOf == nil {
		return base
	}
	var nonNull []*jsonschema.Schema
	for _, b := range s.AnyOf {
		if b != nil && b.Type != "null" {
			nonNull = append(nonNull, b)
		}
	}
	if t := jsonType(val); t != "" {
		for _, b := range nonNull {
			if b.Type == t || slices.Contains(b.Types, t) {
				return base.over(b)
			}
		}
		if t == "integer" {
			for _, b := range nonNull {
				if b.Type == "number" || slices.Contains(b.Types, "number") {
					return base.over(b)
				}
			}
		}
	}
	if len(nonNull) > 0 {
		return base.over(nonNull[0])
	}
	return base
}

// jsonType names val's JSON Schema type ("integer" for integral numbers);
// "" for null and for values that are not decoded JSON.
func jsonType(val any) string {
	switch x := val.(type) {
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		return numberType(x)
	case float32:
		return numberType(float64(x))
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return "number"
		}
		return numberType(f)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	}
	return ""
}

func numberType(f float64) string {
	if !math.IsInf(f, 0) && !math.IsNaN(f) && f == math.Trunc(f) {
		return "integer"
	}
	return "number"
}
