package compat

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// Marshal renders s as JSON the way Mastra would send it. It is
// json.Marshal(s) with three differences, all about shapes the compat layers
// produce that jsonschema.Schema's own MarshalJSON cannot spell:
//
//   - an empty sub-schema renders as {} (MarshalJSON writes true);
//   - a non-nil but empty Required, Enum or Types renders as [] (MarshalJSON
//     omits it; the layers set "required": [] on objects without properties);
//   - a non-nil but empty AllOf, AnyOf, OneOf, PrefixItems or ItemsArray
//     renders as [].
//
// (A JSON true sub-schema decodes to the same empty jsonschema.Schema as {},
// so it comes back as {}; the two mean the same.)
//
// The false schema ({"not": {}} with nothing else, which is how
// jsonschema.Schema holds JSON false) still renders as false. Keys come out in
// a fixed order: the node's non-schema keywords in jsonschema.Schema's order
// (Extra keys last, sorted), then its sub-schema keywords. Properties follow
// PropertyOrder, then the remaining names sorted. A nil s renders as null.
func Marshal(s *jsonschema.Schema) ([]byte, error) {
	return appendSchema(nil, s)
}

// toValue renders s as a decoded JSON value (map[string]any, bool or nil).
func toValue(s *jsonschema.Schema) (any, error) {
	b, err := Marshal(s)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// isEmptySchema reports whether s is the empty schema {} (every field zero).
func isEmptySchema(s *jsonschema.Schema) bool {
	return s != nil && reflect.ValueOf(s).Elem().IsZero()
}

// isFalse reports whether s is exactly the false schema, {"not": {}}.
func isFalse(s *jsonschema.Schema) bool {
	if s == nil || s.Not == nil || !isEmptySchema(s.Not) {
		return false
	}
	n := *s
	n.Not = nil
	return isEmptySchema(&n)
}

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

func appendSchema(buf []byte, s *jsonschema.Schema) ([]byte, error) {
	if s == nil {
		return append(buf, "null"...), nil
	}
	if isFalse(s) {
		return append(buf, "false"...), nil
	}
	scalar := *s
	scalar.Defs, scalar.Definitions = nil, nil
	scalar.DependencySchemas, scalar.DependencyStrings = nil, nil
	scalar.PrefixItems, scalar.Items, scalar.ItemsArray = nil, nil, nil
	scalar.AdditionalItems, scalar.Contains, scalar.UnevaluatedItems = nil, nil, nil
	scalar.Properties, scalar.PatternProperties = nil, nil
	scalar.AdditionalProperties, scalar.PropertyNames, scalar.UnevaluatedProperties = nil, nil, nil
	scalar.AllOf, scalar.AnyOf, scalar.OneOf = nil, nil, nil
	scalar.Not, scalar.If, scalar.Then, scalar.Else = nil, nil, nil, nil
	scalar.DependentSchemas, scalar.ContentSchema = nil, nil
	scalar.PropertyOrder = nil
	emptyRequired := s.Required != nil && len(s.Required) == 0
	emptyEnum := s.Enum != nil && len(s.Enum) == 0
	emptyTypes := s.Type == "" && s.Types != nil && len(s.Types) == 0
	if emptyRequired {
		scalar.Required = nil
	}
	if emptyEnum {
		scalar.Enum = nil
	}
	if emptyTypes {
		scalar.Types = nil
	}
	b, err := json.Marshal(scalar)
	if err != nil {
		return nil, err
	}
	if string(b) == "true" {
		b = []byte("{}")
	}
	buf = append(buf, b[:len(b)-1]...)
	first := len(b) == 2

	key := func(k string) {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		kb, _ := json.Marshal(k)
		buf = append(buf, kb...)
		buf = append(buf, ':')
	}
	one := func(k string, c *jsonschema.Schema) error {
		if c == nil {
			return nil
		}
		key(k)
		var err error
		buf, err = appendSchema(buf, c)
		return err
	}
	list := func(k string, cs []*jsonschema.Schema) error {
		if cs == nil {
			return nil
		}
		key(k)
		buf = append(buf, '[')
		for i, c := range cs {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendSchema(buf, c); err != nil {
				return err
			}
		}
		buf = append(buf, ']')
		return nil
	}
	dict := func(k string, m map[string]*jsonschema.Schema, order []string) error {
		if m == nil {
			return nil
		}
		key(k)
		buf = append(buf, '{')
		for i, name := range orderedKeys(m, order) {
			if i > 0 {
				buf = append(buf, ',')
			}
			nb, _ := json.Marshal(name)
			buf = append(buf, nb...)
			buf = append(buf, ':')
			var err error
			if buf, err = appendSchema(buf, m[name]); err != nil {
				return err
			}
		}
		buf = append(buf, '}')
		return nil
	}

	if emptyTypes {
		key("type")
		buf = append(buf, "[]"...)
	}
	if emptyEnum {
		key("enum")
		buf = append(buf, "[]"...)
	}
	steps := []func() error{
		func() error { return dict("properties", s.Properties, s.PropertyOrder) },
		func() error { return dict("patternProperties", s.PatternProperties, nil) },
		func() error { return one("additionalProperties", s.AdditionalProperties) },
		func() error { return one("propertyNames", s.PropertyNames) },
		func() error {
			if emptyRequired {
				key("required")
				buf = append(buf, "[]"...)
			}
			return nil
		},
		func() error { return one("unevaluatedProperties", s.UnevaluatedProperties) },
		func() error {
			if s.Items != nil {
				return one("items", s.Items)
			}
			return list("items", s.ItemsArray)
		},
		func() error { return list("prefixItems", s.PrefixItems) },
		func() error { return one("additionalItems", s.AdditionalItems) },
		func() error { return one("contains", s.Contains) },
		func() error { return one("unevaluatedItems", s.UnevaluatedItems) },
		func() error { return list("allOf", s.AllOf) },
		func() error { return list("anyOf", s.AnyOf) },
		func() error { return list("oneOf", s.OneOf) },
		func() error { return one("not", s.Not) },
		func() error { return one("if", s.If) },
		func() error { return one("then", s.Then) },
		func() error { return one("else", s.Else) },
		func() error { return dict("dependentSchemas", s.DependentSchemas, nil) },
		func() error {
			if s.DependencySchemas == nil && s.DependencyStrings == nil {
				return nil
			}
			key("dependencies")
			buf = append(buf, '{')
			names := slices.Sorted(maps.Keys(s.DependencySchemas))
			for k := range s.DependencyStrings {
				if _, dup := s.DependencySchemas[k]; !dup {
					names = append(names, k)
				}
			}
			slices.Sort(names)
			for i, name := range names {
				if i > 0 {
					buf = append(buf, ',')
				}
				nb, _ := json.Marshal(name)
				buf = append(buf, nb...)
				buf = append(buf, ':')
				if d, ok := s.DependencySchemas[name]; ok {
					var err error
					if buf, err = appendSchema(buf, d); err != nil {
						return err
					}
				} else {
					vb, err := json.Marshal(s.DependencyStrings[name])
					if err != nil {
						return err
					}
					buf = append(buf, vb...)
				}
			}
			buf = append(buf, '}')
			return nil
		},
		func() error { return one("contentSchema", s.ContentSchema) },
		func() error { return dict("$defs", s.Defs, nil) },
		func() error { return dict("definitions", s.Definitions, nil) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return append(buf, '}'), nil
}

// orderedKeys lists m's keys: those in order first (in that order), then the
// rest sorted.
func orderedKeys(m map[string]*jsonschema.Schema, order []string) []string {
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(order))
	for _, k := range order {
		if _, ok := m[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if len(out) == len(m) {
		return out
	}
	rest := make([]string, 0, len(m)-len(out))
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
