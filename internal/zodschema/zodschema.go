// Package zodschema holds the keyword order of the JSON Schemas that Zod
// 4's toJSONSchema writes, which Mastra's schema texts follow (tool and
// workflow schemas on the HTTP API, resume schemas in stream chunks, MCP
// tool schemas), so that every package that renders one orders it the
// same way.
package zodschema

import "sort"

// rank orders the keywords of one schema node: structural keywords in
// Zod's order, keywords it does not know after them (in their own
// order), then metadata and definitions.
var rank = func() map[string]int {
	keys := []string{
		"$schema", "$id", "$ref", "$comment", "type", "const", "enum",
		"minLength", "maxLength", "format", "contentEncoding", "contentMediaType", "pattern",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "prefixItems", "items", "additionalItems",
		"contains", "minContains", "maxContains",
		"properties", "required", "additionalProperties", "patternProperties", "propertyNames",
		"minProperties", "maxProperties", "dependencies", "dependentRequired", "dependentSchemas",
		"anyOf", "oneOf", "allOf", "not", "if", "then", "else",
	}
	m := make(map[string]int, len(keys)+10)
	for i, k := range keys {
		m[k] = i
	}
	unknown := len(keys)
	for i, k := range []string{"default", "title", "description", "examples", "deprecated", "readOnly", "writeOnly", "$defs", "definitions"} {
		m[k] = unknown + 1 + i
	}
	m[""] = unknown
	return m
}()

// Rank is a keyword's place in a schema node (smaller first).
func Rank(keyword string) int {
	if r, ok := rank[keyword]; ok {
		return r
	}
	return rank[""]
}

// SortMembers puts one schema node's members (keys and their values, in
// parallel) in Zod's order; the sort is stable, so keywords of the same
// rank keep their order.
func SortMembers[V any](keys []string, vals []V) {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return Rank(keys[idx[a]]) < Rank(keys[idx[b]]) })
	k2 := make([]string, len(keys))
	v2 := make([]V, len(vals))
	for i, j := range idx {
		k2[i], v2[i] = keys[j], vals[j]
	}
	copy(keys, k2)
	copy(vals, v2)
}

// Holds says what a keyword's value holds: an object whose member values
// are schemas (properties, $defs, ...), an array of schemas (anyOf,
// prefixItems, array-form items, ...), one schema (items, not, ...), or
// no schema.
type Holds int

const (
	HoldsNone Holds = iota
	HoldsMap
	HoldsList
	HoldsOne
)

var (
	maps  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	lists = map[string]bool{"anyOf": true, "oneOf": true, "allOf": true, "prefixItems": true, "items": true}
	ones  = map[string]bool{"items": true, "additionalProperties": true, "additionalItems": true, "contains": true,
		"propertyNames": true, "not": true, "if": true, "then": true, "else": true, "unevaluatedItems": true, "unevaluatedProperties": true}
)

// Holding is what keyword's value holds, given whether the value is an
// object or an array (items is one schema or, in its array form, a list).
func Holding(keyword string, isObject, isArray bool) Holds {
	switch {
	case maps[keyword] && isObject:
		return HoldsMap
	case lists[keyword] && isArray:
		return HoldsList
	case ones[keyword] && isObject:
		return HoldsOne
	}
	return HoldsNone
}
