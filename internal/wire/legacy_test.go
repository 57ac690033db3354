package wire

// The implementations this package replaced, copied from the packages
// that had them (server/jsonutil.go, server/serialize.go,
// tools/schemajson.go, mcpserver/schemajson.go, mcpserver/rest.go), as
// the reference of the differential tests: the shared code must write
// their bytes exactly.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"slices"
	"strconv"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/zodschema"
)

// ---- package server: ordered, marshalJS ----

func legacyServerMarshalJS(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return UnescapeJS(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

func legacyAppendJSString(b []byte, s string) []byte {
	return jsjson.AppendString(b, s, jsjson.ReplaceEscaped)
}

type legacyOrdered struct {
	keys []string
	vals []*legacyOrdered
	arr  []*legacyOrdered
	kind byte
	raw  []byte
}

var legacyOrderedBuilder = jsjson.Builder[*legacyOrdered]{
	Scalar: func(v any) *legacyOrdered {
		switch t := v.(type) {
		case string:
			return &legacyOrdered{kind: 's', raw: legacyAppendJSString(nil, t)}
		case json.Number:
			return &legacyOrdered{kind: 's', raw: []byte(t)}
		case bool:
			return &legacyOrdered{kind: 's', raw: strconv.AppendBool(nil, t)}
		}
		return &legacyOrdered{kind: 's', raw: []byte("null")}
	},
	Array: func(elems []*legacyOrdered) *legacyOrdered { return &legacyOrdered{kind: 'a', arr: elems} },
	Object: func(keys []string, vals []*legacyOrdered) *legacyOrdered {
		return &legacyOrdered{kind: 'o', keys: keys, vals: vals}
	},
}

func (o *legacyOrdered) appendTo(b []byte) []byte {
	switch o.kind {
	case 'o':
		b = append(b, '{')
		for i, k := range o.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = legacyAppendJSString(b, k)
			b = append(b, ':')
			b = o.vals[i].appendTo(b)
		}
		return append(b, '}')
	case 'a':
		b = append(b, '[')
		for i, v := range o.arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendTo(b)
		}
		return append(b, ']')
	}
	return append(b, o.raw...)
}

func legacyReorderSchema(s *legacyOrdered) {
	if s == nil || s.kind != 'o' {
		return
	}
	zodschema.SortMembers(s.keys, s.vals)
	for i, k := range s.keys {
		v := s.vals[i]
		switch zodschema.Holding(k, v.kind == 'o', v.kind == 'a') {
		case zodschema.HoldsMap:
			for _, sub := range v.vals {
				legacyReorderSchema(sub)
			}
		case zodschema.HoldsList:
			for _, sub := range v.arr {
				legacyReorderSchema(sub)
			}
		case zodschema.HoldsOne:
			legacyReorderSchema(v)
		}
	}
}

// legacyServerSchema is server's schemaJSONAs after compat.Marshal,
// without the draft-07 rewrite.
func legacyServerSchema(raw []byte, draft string) ([]byte, error) {
	o, err := jsjson.Decode(raw, legacyOrderedBuilder)
	if err != nil {
		return nil, err
	}
	if o.kind != 'o' {
		return raw, nil
	}
	has := slices.Contains(o.keys, "$schema")
	if !has {
		o.keys = append([]string{"$schema"}, o.keys...)
		o.vals = append([]*legacyOrdered{{kind: 's', raw: legacyAppendJSString(nil, draft)}}, o.vals...)
	}
	legacyReorderSchema(o)
	return o.appendTo(nil), nil
}

// ---- package tools: orderedJSON ----

type legacyToolsJSON struct {
	kind  byte
	raw   json.RawMessage
	keys  []string
	vals  []*legacyToolsJSON
	elems []*legacyToolsJSON
}

func legacyToolsParse(b []byte) (*legacyToolsJSON, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := legacyToolsRead(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("tools: trailing data after a JSON value")
	}
	return n, nil
}

func legacyToolsRead(dec *json.Decoder) (*legacyToolsJSON, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &legacyToolsJSON{kind: '{'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := legacyToolsRead(dec)
				if err != nil {
					return nil, err
				}
				n.keys, n.vals = append(n.keys, k), append(n.vals, v)
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &legacyToolsJSON{kind: '['}
			for dec.More() {
				v, err := legacyToolsRead(dec)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, errors.New("tools: unexpected JSON delimiter")
	default:
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		return &legacyToolsJSON{raw: raw}, nil
	}
}

func (n *legacyToolsJSON) appendTo(b []byte) []byte {
	switch n.kind {
	case '{':
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			kb, _ := json.Marshal(k)
			b = append(b, kb...)
			b = append(b, ':')
			b = n.vals[i].appendTo(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, e := range n.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendTo(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

func legacyZodOrder(n *legacyToolsJSON) {
	if n == nil || n.kind != '{' {
		return
	}
	zodschema.SortMembers(n.keys, n.vals)
	for i, k := range n.keys {
		v := n.vals[i]
		switch zodschema.Holding(k, v.kind == '{', v.kind == '[') {
		case zodschema.HoldsMap:
			for _, sub := range v.vals {
				legacyZodOrder(sub)
			}
		case zodschema.HoldsList:
			for _, sub := range v.elems {
				legacyZodOrder(sub)
			}
		case zodschema.HoldsOne:
			legacyZodOrder(v)
		}
	}
}

// legacyToolsSchema is tools.SchemaJSON after compat.Marshal; it returns
// the text before and after JSON.stringify's re-rendering.
func legacyToolsSchema(raw []byte) (string, string, error) {
	root, err := legacyToolsParse(raw)
	if err != nil {
		return "", "", err
	}
	legacyZodOrder(root)
	mid := root.appendTo(nil)
	out, err := jsjson.Stringify(mid, "")
	return string(mid), out, err
}

// ---- package mcpserver: orderedObject ----

type legacyMCPObject struct {
	keys []string
	vals []any
}

func (o *legacyMCPObject) set(key string, val any) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = val
			return
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, val)
}

func (o *legacyMCPObject) get(key string) (any, bool) {
	if i := slices.Index(o.keys, key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

func (o *legacyMCPObject) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, k := range jsjson.OrderKeys(slices.Clone(o.keys)) {
			v, _ := o.get(k)
			if !yield(k, v) {
				return
			}
		}
	}
}

func legacyMCPDecode(raw []byte) (any, error) {
	return jsjson.Decode(bytes.TrimSpace(raw), jsjson.Builder[any]{
		Scalar: func(v any) any { return v },
		Array:  func(elems []any) any { return elems },
		Object: func(keys []string, vals []any) any {
			o := &legacyMCPObject{}
			for i, k := range keys {
				o.set(k, vals[i])
			}
			return o
		},
	})
}

func legacyMCPReorder(o *legacyMCPObject) {
	zodschema.SortMembers(o.keys, o.vals)
	for i, k := range o.keys {
		v := o.vals[i]
		obj, isObj := v.(*legacyMCPObject)
		list, isList := v.([]any)
		switch zodschema.Holding(k, isObj, isList) {
		case zodschema.HoldsMap:
			for _, sub := range obj.vals {
				if so, ok := sub.(*legacyMCPObject); ok {
					legacyMCPReorder(so)
				}
			}
		case zodschema.HoldsList:
			for _, sub := range list {
				if so, ok := sub.(*legacyMCPObject); ok {
					legacyMCPReorder(so)
				}
			}
		case zodschema.HoldsOne:
			legacyMCPReorder(obj)
		}
	}
}

// legacyMCPSchema is mcpserver's orderSchema.
func legacyMCPSchema(raw []byte, dialect string) ([]byte, error) {
	v, err := legacyMCPDecode(raw)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*legacyMCPObject)
	if !ok {
		return raw, nil
	}
	if _, has := obj.get("$schema"); dialect != "" && !has {
		obj.keys = append([]string{"$schema"}, obj.keys...)
		obj.vals = append([]any{dialect}, obj.vals...)
	}
	if t, _ := obj.get("type"); t == "object" {
		if _, has := obj.get("properties"); !has {
			obj.set("properties", &legacyMCPObject{})
		}
	}
	legacyMCPReorder(obj)
	return jsjson.Append(nil, obj, ""), nil
}

// legacyMCPStringify is mcpserver's jsStringify.
func legacyMCPStringify(raw []byte) string {
	s, err := jsjson.Stringify(raw, "")
	if err != nil {
		return string(raw)
	}
	return s
}

// legacyMCPError is mcpserver's writeError body; legacyMCPIssues its
// writeIssues body.
func legacyMCPError(msg string) string {
	raw, _ := json.Marshal(map[string]string{"error": msg})
	return legacyMCPStringify(raw)
}

func legacyMCPIssues(msg string, issues []Issue) string {
	raw, _ := json.Marshal(struct {
		Error  string  `json:"error"`
		Issues []Issue `json:"issues"`
	}{msg, issues})
	return legacyMCPStringify(raw)
}

// legacyServerError is server's writeError body.
func legacyServerError(msg string, issues []Issue) string {
	b := append(legacyAppendJSString([]byte(`{"error":`), msg), ',')
	if issues == nil {
		return string(b[:len(b)-1]) + "}"
	}
	v, err := legacyServerMarshalJS(issues)
	if err != nil {
		panic(err)
	}
	return string(b) + `"issues":` + string(v) + "}"
}
