package schema

import (
	"encoding/json"
	"strconv"
	"strings"
)

// ValidateInput runs Mastra's tool-input pipeline (validateToolInput) on a
// decoded input. present=false means no input at all (JavaScript's
// undefined). In order:
//
//  1. No schema: the input is accepted as is.
//  2. A missing or null input becomes {} for an object schema, [] for an
//     array schema (models send nothing when every parameter is optional).
//  3. Validate; success returns the schema's output value.
//  4. Object schemas: top-level string properties whose schema expects an
//     array (the string starts with "[") or object ("{") are JSON-parsed
//     and, when the parse gives the right kind, validated again.
//  5. Nulls at the paths of the first attempt's issues are removed from the
//     original input (all nulls in objects, recursively, when no issue
//     points at a null or missing value); step 2 again; validate again.
//  6. Object schemas declaring "prompt": a null or missing prompt takes the
//     first string among query, message and input; validate again.
//  7. Otherwise the first attempt's issues are returned.
//
// JSON has no undefined, so Mastra's undefined-to-null conversion changes
// nothing here except a missing top-level input, which becomes null.
// ValidateInput never modifies input.
func ValidateInput(s Schema, input any, present bool) (any, []Issue) {
	if s == nil {
		return input, nil
	}
	normalised := normaliseNullish(s, input, present)
	out, issues := s.Validate(normalised)
	if len(issues) == 0 {
		return out, nil
	}
	if coerced, ok := coerceStringifiedJSON(s, normalised); ok {
		if out, is := s.Validate(coerced); len(is) == 0 {
			return out, nil
		}
	}
	paths := failingNullPaths(issues, normalised)
	var stripped any
	var strippedPresent bool
	if paths != nil {
		stripped, strippedPresent = stripNullsAt(input, present, paths)
	} else {
		stripped, strippedPresent = stripNulls(input, present)
	}
	if out, is := s.Validate(normaliseNullish(s, stripped, strippedPresent)); len(is) == 0 {
		return out, nil
	}
	if aliased, ok := promptAlias(s, normalised); ok {
		if out, is := s.Validate(aliased); len(is) == 0 {
			return out, nil
		}
	}
	return nil, issues
}

func normaliseNullish(s Schema, v any, present bool) any {
	if present && v != nil {
		return v
	}
	switch TypeOf(s) {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	}
	return nil
}

func coerceStringifiedJSON(s Schema, v any) (any, bool) {
	c, ok := s.(*Compiled)
	if !ok {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	root := c.root.resolved()
	if !ok || root == nil || root.types&^tNull != tObject || len(root.props) == 0 {
		return nil, false
	}
	var out map[string]any
	for k, val := range obj {
		str, ok := val.(string)
		if !ok {
			continue
		}
		want := coercibleKind(root.props[k])
		trimmed := strings.TrimSpace(str)
		if want == "" || (want == "array" && !strings.HasPrefix(trimmed, "[")) || (want == "object" && !strings.HasPrefix(trimmed, "{")) {
			continue
		}
		var parsed any
		if json.Unmarshal([]byte(str), &parsed) != nil {
			continue
		}
		_, isArr := parsed.([]any)
		_, isObj := parsed.(map[string]any)
		if (want == "array" && !isArr) || (want == "object" && !isObj) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(obj))
			for kk, vv := range obj {
				out[kk] = vv
			}
		}
		out[k] = parsed
	}
	return out, out != nil
}

// coercibleKind is "array" or "object" when a property's schema, once
// nullable and optional wrappers are looked through, is an array or an
// object with declared properties (a Zod object; records are not coerced).
func coercibleKind(n *node) string {
	n = n.resolved()
	if n == nil {
		return ""
	}
	if n.types == 0 && len(n.anyOf) == 2 {
		for i, b := range n.anyOf {
			if b.resolved() != nil && b.resolved().types == tNull {
				return coercibleKind(n.anyOf[1-i])
			}
		}
	}
	switch n.types &^ tNull {
	case tArray:
		return "array"
	case tObject:
		if len(n.props) > 0 {
			return "object"
		}
	}
	return ""
}

// pathTrie is a set of issue paths, by segment.
type pathTrie struct {
	end  bool
	next map[string]*pathTrie
}

func (t *pathTrie) add(path []string) {
	for _, seg := range path {
		if t.next == nil {
			t.next = map[string]*pathTrie{}
		}
		child := t.next[seg]
		if child == nil {
			child = &pathTrie{}
			t.next[seg] = child
		}
		t = child
	}
	t.end = true
}

// failingNullPaths collects the paths of issues whose value is null or
// absent; nil when there are none.
func failingNullPaths(issues []Issue, v any) *pathTrie {
	var paths *pathTrie
	for _, is := range issues {
		if len(is.Path) == 0 {
			continue
		}
		if val, _, walked := valueAt(v, is.Path); walked && val == nil {
			if paths == nil {
				paths = &pathTrie{}
			}
			paths.add(is.Path)
		}
	}
	return paths
}

// valueAt follows path through objects and arrays as Mastra's
// getValueAtPath does. found=false with walked=true means the last step
// found nothing (JavaScript's undefined); walked=false means the path ran
// into a value that is not an object or array.
func valueAt(v any, path []string) (val any, found, walked bool) {
	for _, seg := range path {
		switch t := v.(type) {
		case map[string]any:
			next, ok := t[seg]
			if !ok {
				v, found = nil, false
				continue
			}
			v, found = next, true
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				v, found = nil, false
				continue
			}
			v, found = t[i], true
		default:
			return nil, false, false
		}
		if !found {
			// undefined: a further step would hit a non-object.
			continue
		}
	}
	return v, found, true
}

// stripNulls drops null object properties everywhere; nulls inside arrays
// stay. A null root becomes absent.
func stripNulls(v any, present bool) (any, bool) {
	if !present || v == nil {
		return nil, false
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e == nil {
				continue
			}
			out[k], _ = stripNulls(e, true)
		}
		return out, true
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			if e != nil {
				out[i], _ = stripNulls(e, true)
			}
		}
		return out, true
	}
	return v, true
}

// stripNullsAt drops the null object properties at the paths in t. A null
// array element at such a path stays null (Go has no undefined). Parts of
// v that no path reaches are shared, not copied.
func stripNullsAt(v any, present bool, t *pathTrie) (any, bool) {
	if !present || v == nil {
		if t != nil && t.end {
			return nil, false
		}
		return v, present
	}
	if t == nil || t.next == nil {
		return v, true
	}
	switch val := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(val))
		for k, e := range val {
			child := t.next[k]
			if e == nil && child != nil && child.end {
				continue
			}
			out[k], _ = stripNullsAt(e, true, child)
		}
		return out, true
	case []any:
		out := make([]any, len(val))
		for i, e := range val {
			out[i], _ = stripNullsAt(e, true, t.next[strconv.Itoa(i)])
		}
		return out, true
	}
	return v, true
}

func promptAlias(s Schema, v any) (any, bool) {
	js := s.JSONSchema()
	if js == nil || TypeOf(s) != "object" || js.Properties == nil {
		return nil, false
	}
	if _, ok := js.Properties["prompt"]; !ok {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	if !ok || obj["prompt"] != nil {
		return nil, false
	}
	for _, k := range []string{"query", "message", "input"} {
		if str, ok := obj[k].(string); ok {
			out := make(map[string]any, len(obj)+1)
			for kk, vv := range obj {
				out[kk] = vv
			}
			out["prompt"] = str
			return out, true
		}
	}
	return nil, false
}
