package compat

import (
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// nodeRules is one layer's per-node rewriting: pre runs on a node before its
// sub-schemas are visited, post after (Mastra's preProcessJSONNode and
// postProcessJSONNode).
type nodeRules interface {
	pre(s *jsonschema.Schema)
	post(s *jsonschema.Schema)
}

// walk visits s and its sub-schemas depth first, calling r.pre before and
// r.post after a node's children, and rewriting the tree in place. It visits
// exactly the positions the json-schema-traverse package (which Mastra uses)
// visits: properties, patternProperties, definitions, $defs, dependencies,
// items (single and tuple), additionalItems, contains, additionalProperties,
// propertyNames, not, if, then, else, allOf, anyOf and oneOf. The children are
// read after pre has run, so a pre rewrite that adds sub-schemas (the allOf
// merge) has them visited. The false schema stands for JSON false, which is
// not an object and is not visited.
func walk(r nodeRules, s *jsonschema.Schema) {
	if s == nil || isFalse(s) {
		return
	}
	r.pre(s)
	eachChild(s, func(c *jsonschema.Schema) { walk(r, c) })
	r.post(s)
}

// eachChild calls fn on every direct sub-schema of s in a traversed position.
func eachChild(s *jsonschema.Schema, fn func(*jsonschema.Schema)) {
	for _, m := range []map[string]*jsonschema.Schema{s.Definitions, s.Defs, s.Properties, s.PatternProperties, s.DependencySchemas} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if c := m[k]; c != nil {
				fn(c)
			}
		}
	}
	for _, c := range []*jsonschema.Schema{s.Items, s.AdditionalItems, s.Contains, s.AdditionalProperties, s.PropertyNames, s.Not, s.If, s.Then, s.Else} {
		if c != nil {
			fn(c)
		}
	}
	for _, l := range [][]*jsonschema.Schema{s.ItemsArray, s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range l {
			if c != nil {
				fn(c)
			}
		}
	}
}

// propertyKeys lists s's property names in document order: PropertyOrder
// first, then the others sorted (the order Marshal writes them in).
func propertyKeys(s *jsonschema.Schema) []string {
	return orderedKeys(s.Properties, s.PropertyOrder)
}

// PropertyKeys lists s's property names in the order Marshal writes
// them: PropertyOrder first, then the others sorted.
func PropertyKeys(s *jsonschema.Schema) []string { return propertyKeys(s) }

// assign copies every keyword present in src onto dst, as JavaScript's
// Object.assign(dst, src) does on the JSON objects: keywords src lacks are
// left alone on dst. src's parts are shared, not copied.
func assign(dst, src *jsonschema.Schema) {
	dv := reflect.ValueOf(dst).Elem()
	sv := reflect.ValueOf(src).Elem()
	t := sv.Type()
	for i := range t.NumField() {
		switch t.Field(i).Name {
		case "Type", "Types", "Items", "ItemsArray", "DependencySchemas", "DependencyStrings",
			"Extra", "PropertyOrder", "Properties":
			continue
		}
		if fv := sv.Field(i); !fv.IsZero() {
			dv.Field(i).Set(fv)
		}
	}
	if src.Type != "" || src.Types != nil {
		dst.Type, dst.Types = src.Type, src.Types
	}
	if src.Items != nil || src.ItemsArray != nil {
		dst.Items, dst.ItemsArray = src.Items, src.ItemsArray
	}
	if src.DependencySchemas != nil || src.DependencyStrings != nil {
		dst.DependencySchemas, dst.DependencyStrings = src.DependencySchemas, src.DependencyStrings
	}
	if src.Properties != nil {
		dst.Properties, dst.PropertyOrder = src.Properties, src.PropertyOrder
	}
	for k, v := range src.Extra {
		if dst.Extra == nil {
			dst.Extra = map[string]any{}
		}
		dst.Extra[k] = v
	}
}

// setExtra sets a keyword jsonschema.Schema has no field for.
func setExtra(s *jsonschema.Schema, k string, v any) {
	if s.Extra == nil {
		s.Extra = map[string]any{}
	}
	s.Extra[k] = v
}

// deleteExtra removes a keyword jsonschema.Schema has no field for.
func deleteExtra(s *jsonschema.Schema, k string) {
	delete(s.Extra, k)
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
}

// closeObjects is the post-order pass Mastra's JSON Schema conversion runs on
// every schema before any layer (the "override" of its standard-schema
// conversion): an object node whose type is exactly "object" and that has
// properties, but no truthy additionalProperties, gets additionalProperties:
// false. It runs even when no layer applies.
func closeObjects(s *jsonschema.Schema) {
	walk(closeRules{}, s)
}

type closeRules struct{}

func (closeRules) pre(*jsonschema.Schema) {}

func (closeRules) post(s *jsonschema.Schema) {
	if s.Type == "object" && s.Properties != nil && (s.AdditionalProperties == nil || isFalse(s.AdditionalProperties)) {
		s.AdditionalProperties = falseSchema()
	}
}

// prepare is the start of every pipeline: a draft-07 deep copy with objects
// closed.
func prepare(s *jsonschema.Schema) *jsonschema.Schema {
	t := Draft07(s)
	closeObjects(t)
	return t
}
