package compat

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Draft07URI is the $schema value that Draft07 sets on the root.
const Draft07URI = "http://json-schema.org/draft-07/schema#"

// Draft07 returns a deep copy of s in draft-07 form. It never modifies s.
//
// Mastra's compat layers work on the draft-07 JSON Schema that Zod emits, so
// every layer starts here. The conversion, applied to every node, is:
//
//   - the root's $schema becomes [Draft07URI] (nested $schema values are kept);
//   - $defs is renamed definitions (entries already in definitions win);
//   - $ref pointers into the document ("#/...") have their keyword segments
//     rewritten to match: $defs → definitions, prefixItems → items,
//     dependentSchemas → dependencies (property names in the pointer are left
//     alone); other references ("#", anchors, other documents) are unchanged;
//   - prefixItems becomes the tuple form of items, and a 2020-12 items that sat
//     beside prefixItems becomes additionalItems;
//   - dependentSchemas and dependentRequired are folded into dependencies.
//
// Keywords draft-07 lacks but that have no draft-07 spelling ($anchor,
// $dynamicRef, unevaluatedProperties, ...) are copied unchanged. A nil s gives
// nil.
//
// The copy is a tree: a sub-schema pointer that occurs twice in s is copied
// twice, like the JSON text s stands for. A pointer cycle (a sub-schema that
// contains itself; not expressible as JSON) is cut where it closes: the
// repeated occurrence is replaced by an empty schema.
func Draft07(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	c := &cloner{draft07: true, onStack: map[*jsonschema.Schema]bool{}}
	out := c.clone(s)
	out.Schema = Draft07URI
	return out
}

// clone returns a deep copy of s with no conversion.
func clone(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	c := &cloner{onStack: map[*jsonschema.Schema]bool{}}
	return c.clone(s)
}

type cloner struct {
	draft07 bool
	onStack map[*jsonschema.Schema]bool
	// nodes counts the schema nodes copied so far (used by reference inlining
	// to bound its work).
	nodes int
}

func (c *cloner) clone(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if c.onStack[s] {
		// Pointer cycle: cut it.
		c.nodes++
		return &jsonschema.Schema{}
	}
	c.onStack[s] = true
	defer delete(c.onStack, s)
	c.nodes++

	n := *s // copies every scalar field; everything below replaces shared parts

	n.Defs = c.schemaMap(s.Defs)
	n.Definitions = c.schemaMap(s.Definitions)
	n.DependencySchemas = c.schemaMap(s.DependencySchemas)
	n.DependencyStrings = stringsMap(s.DependencyStrings)
	n.Vocabulary = maps.Clone(s.Vocabulary)
	n.Default = slices.Clone(s.Default)
	n.Examples = cloneAnySlice(s.Examples)
	n.Types = slices.Clone(s.Types)
	n.Enum = cloneAnySlice(s.Enum)
	if s.Const != nil {
		v := cloneValue(*s.Const)
		n.Const = &v
	}
	n.MultipleOf = clonePtr(s.MultipleOf)
	n.Minimum = clonePtr(s.Minimum)
	n.Maximum = clonePtr(s.Maximum)
	n.ExclusiveMinimum = clonePtr(s.ExclusiveMinimum)
	n.ExclusiveMaximum = clonePtr(s.ExclusiveMaximum)
	n.MinLength = clonePtr(s.MinLength)
	n.MaxLength = clonePtr(s.MaxLength)
	n.PrefixItems = c.schemaSlice(s.PrefixItems)
	n.Items = c.clone(s.Items)
	n.ItemsArray = c.schemaSlice(s.ItemsArray)
	n.MinItems = clonePtr(s.MinItems)
	n.MaxItems = clonePtr(s.MaxItems)
	n.AdditionalItems = c.clone(s.AdditionalItems)
	n.Contains = c.clone(s.Contains)
	n.MinContains = clonePtr(s.MinContains)
	n.MaxContains = clonePtr(s.MaxContains)
	n.UnevaluatedItems = c.clone(s.UnevaluatedItems)
	n.MinProperties = clonePtr(s.MinProperties)
	n.MaxProperties = clonePtr(s.MaxProperties)
	n.Required = slices.Clone(s.Required)
	n.DependentRequired = stringsMap(s.DependentRequired)
	n.Properties = c.schemaMap(s.Properties)
	n.PatternProperties = c.schemaMap(s.PatternProperties)
	n.AdditionalProperties = c.clone(s.AdditionalProperties)
	n.PropertyNames = c.clone(s.PropertyNames)
	n.UnevaluatedProperties = c.clone(s.UnevaluatedProperties)
	n.AllOf = c.schemaSlice(s.AllOf)
	n.AnyOf = c.schemaSlice(s.AnyOf)
	n.OneOf = c.schemaSlice(s.OneOf)
	n.Not = c.clone(s.Not)
	n.If = c.clone(s.If)
	n.Then = c.clone(s.Then)
	n.Else = c.clone(s.Else)
	n.DependentSchemas = c.schemaMap(s.DependentSchemas)
	n.ContentSchema = c.clone(s.ContentSchema)
	if s.Extra != nil {
		n.Extra = make(map[string]any, len(s.Extra))
		for k, v := range s.Extra {
			n.Extra[k] = cloneValue(v)
		}
	}
	n.PropertyOrder = slices.Clone(s.PropertyOrder)

	if c.draft07 {
		toDraft07Node(&n)
	}
	return &n
}

func (c *cloner) schemaMap(m map[string]*jsonschema.Schema) map[string]*jsonschema.Schema {
	if m == nil {
		return nil
	}
	out := make(map[string]*jsonschema.Schema, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = c.clone(m[k])
	}
	return out
}

func (c *cloner) schemaSlice(ss []*jsonschema.Schema) []*jsonschema.Schema {
	if ss == nil {
		return nil
	}
	out := make([]*jsonschema.Schema, len(ss))
	for i, s := range ss {
		out[i] = c.clone(s)
	}
	return out
}

// toDraft07Node converts one (already copied) node in place.
func toDraft07Node(n *jsonschema.Schema) {
	if n.Defs != nil {
		if n.Definitions == nil {
			n.Definitions = n.Defs
		} else {
			for k, v := range n.Defs {
				if _, ok := n.Definitions[k]; !ok {
					n.Definitions[k] = v
				}
			}
		}
		n.Defs = nil
	}
	n.Ref = draft07Ref(n.Ref)
	if n.PrefixItems != nil {
		if n.Items != nil && n.AdditionalItems == nil {
			n.AdditionalItems = n.Items
		}
		n.Items = nil
		if n.ItemsArray == nil {
			n.ItemsArray = n.PrefixItems
		}
		n.PrefixItems = nil
	}
	if n.DependentSchemas != nil {
		if n.DependencySchemas == nil {
			n.DependencySchemas = map[string]*jsonschema.Schema{}
		}
		for k, v := range n.DependentSchemas {
			if _, ok := n.DependencyStrings[k]; ok {
				continue
			}
			if _, ok := n.DependencySchemas[k]; !ok {
				n.DependencySchemas[k] = v
			}
		}
		n.DependentSchemas = nil
	}
	if n.DependentRequired != nil {
		if n.DependencyStrings == nil {
			n.DependencyStrings = map[string][]string{}
		}
		for k, v := range n.DependentRequired {
			if _, ok := n.DependencySchemas[k]; ok {
				continue
			}
			if _, ok := n.DependencyStrings[k]; !ok {
				n.DependencyStrings[k] = v
			}
		}
		n.DependentRequired = nil
	}
}

// draft07Ref rewrites the keyword segments of a same-document JSON pointer
// reference for the draft-07 spelling of the keywords.
func draft07Ref(ref string) string {
	if !strings.HasPrefix(ref, "#/") {
		return ref
	}
	segs := strings.Split(ref[2:], "/")
	changed := false
	for i := 0; i < len(segs); {
		switch segs[i] {
		case "$defs":
			segs[i] = "definitions"
			changed = true
			i += 2
		case "dependentSchemas":
			segs[i] = "dependencies"
			changed = true
			i += 2
		case "prefixItems":
			segs[i] = "items"
			changed = true
			i += 2
		case "definitions", "properties", "patternProperties", "dependencies", "allOf", "anyOf", "oneOf":
			i += 2 // the next segment is a name or an index
		case "items":
			if i+1 < len(segs) && isIndex(segs[i+1]) {
				i += 2
			} else {
				i++
			}
		default:
			i++
		}
	}
	if !changed {
		return ref
	}
	return "#/" + strings.Join(segs, "/")
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func stringsMap(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

func cloneAnySlice(s []any) []any {
	if s == nil {
		return nil
	}
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = cloneValue(v)
	}
	return out
}

// cloneValue deep-copies the JSON-shaped parts of v (maps, slices, raw JSON);
// any other value is returned as is.
func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case []any:
		return cloneAnySlice(x)
	case []string:
		return slices.Clone(x)
	case json.RawMessage:
		return slices.Clone(x)
	default:
		return v
	}
}
