package schema

import (
	"bytes"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// recordPropertyOrder sets PropertyOrder on s and every sub-schema from the
// key order of the JSON text it was decoded from (jsonschema.Schema's
// UnmarshalJSON does not keep it). Zod reports issues in declaration
// order, so the order matters for matching Mastra's messages.
func recordPropertyOrder(s *jsonschema.Schema, raw []byte) {
	if s == nil {
		return
	}
	members, ok := objectMembers(raw)
	if !ok {
		return
	}
	for _, m := range members {
		switch m.key {
		case "properties":
			props, _ := objectMembers(m.val)
			order := make([]string, 0, len(props))
			for _, p := range props {
				order = append(order, p.key)
				recordPropertyOrder(s.Properties[p.key], p.val)
			}
			s.PropertyOrder = order
		case "$defs":
			forEachMember(m.val, func(k string, v []byte) { recordPropertyOrder(s.Defs[k], v) })
		case "definitions":
			forEachMember(m.val, func(k string, v []byte) { recordPropertyOrder(s.Definitions[k], v) })
		case "patternProperties":
			forEachMember(m.val, func(k string, v []byte) { recordPropertyOrder(s.PatternProperties[k], v) })
		case "items":
			if s.Items != nil {
				recordPropertyOrder(s.Items, m.val)
			} else {
				forEachElement(m.val, func(i int, v []byte) {
					if i < len(s.ItemsArray) {
						recordPropertyOrder(s.ItemsArray[i], v)
					}
				})
			}
		case "additionalProperties":
			recordPropertyOrder(s.AdditionalProperties, m.val)
		case "additionalItems":
			recordPropertyOrder(s.AdditionalItems, m.val)
		case "not":
			recordPropertyOrder(s.Not, m.val)
		case "prefixItems":
			forEachElement(m.val, func(i int, v []byte) {
				if i < len(s.PrefixItems) {
					recordPropertyOrder(s.PrefixItems[i], v)
				}
			})
		case "anyOf", "oneOf", "allOf":
			list := map[string][]*jsonschema.Schema{"anyOf": s.AnyOf, "oneOf": s.OneOf, "allOf": s.AllOf}[m.key]
			forEachElement(m.val, func(i int, v []byte) {
				if i < len(list) {
					recordPropertyOrder(list[i], v)
				}
			})
		}
	}
}

type rawMember struct {
	key string
	val []byte
}

func objectMembers(raw []byte) ([]rawMember, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return nil, false
	}
	var out []rawMember
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out, false
		}
		k, _ := kt.(string)
		out = append(out, rawMember{k, v})
	}
	return out, true
}

func forEachMember(raw []byte, f func(k string, v []byte)) {
	members, _ := objectMembers(raw)
	for _, m := range members {
		f(m.key, m.val)
	}
}

func forEachElement(raw []byte, f func(i int, v []byte)) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return
	}
	for i, v := range list {
		f(i, v)
	}
}
