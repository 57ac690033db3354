package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
)

// marshalJS encodes v as compact JSON the way JSON.stringify writes it:
// '<', '>', '&', U+2028 and U+2029 are left as they are (encoding/json
// escapes them).
func marshalJS(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return unescapeJS(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// unescapeJS rewrites the \u003c, \u003e, \u0026, \u2028 and \u2029
// escapes encoding/json writes inside strings as the characters
// themselves, which JSON.stringify does not escape. Other escapes are kept.
// raw must be valid JSON; it is returned as is when there is nothing to do.
func unescapeJS(raw []byte) []byte {
	if !bytes.Contains(raw, []byte(`\u`)) {
		return raw
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			out = append(out, c)
			continue
		}
		if raw[i+1] == 'u' && i+5 < len(raw) {
			if r, ok := htmlSafeEscapes[string(raw[i+2:i+6])]; ok {
				out = utf8.AppendRune(out, r)
				i += 5
				continue
			}
		}
		// Any other escape: copy the backslash and the escaped byte, so an
		// escaped backslash is never taken for the start of an escape.
		out = append(out, c, raw[i+1])
		i++
	}
	return out
}

// htmlSafeEscapes are the \uXXXX escapes unescapeJS undoes, by their hex
// digits as encoding/json writes them.
var htmlSafeEscapes = map[string]rune{
	"003c": '<', "003C": '<', "003e": '>', "003E": '>', "0026": '&',
	"2028": '\u2028', "2029": '\u2029',
}

// appendJSString appends s as a JSON string literal, escaping only what
// JSON.stringify escapes; a byte that is not UTF-8 is written as \ufffd,
// as encoding/json (marshalJS) writes it.
func appendJSString(b []byte, s string) []byte {
	return jsjson.AppendString(b, s, jsjson.ReplaceEscaped)
}

// object builds a JSON object with its keys in the order they are added.
type object struct{ b []byte }

func newObject() *object { return &object{b: []byte{'{'}} }

// raw adds key with a JSON value.
func (o *object) raw(key string, v []byte) *object {
	if len(o.b) > 1 {
		o.b = append(o.b, ',')
	}
	o.b = appendJSString(o.b, key)
	o.b = append(o.b, ':')
	o.b = append(o.b, v...)
	return o
}

// str adds key with a string value.
func (o *object) str(key, v string) *object { return o.raw(key, appendJSString(nil, v)) }

// boolean adds key with a boolean value.
func (o *object) boolean(key string, v bool) *object { return o.raw(key, strconv.AppendBool(nil, v)) }

// value adds key with v encoded by marshalJS.
func (o *object) value(key string, v any) error {
	b, err := marshalJS(v)
	if err != nil {
		return err
	}
	o.raw(key, b)
	return nil
}

func (o *object) bytes() []byte { return append(o.b, '}') }

// ordered is a decoded JSON value that keeps its object keys in order.
type ordered struct {
	keys []string
	vals []*ordered
	arr  []*ordered
	// kind is 'o' (object), 'a' (array) or 's' (scalar, in raw).
	kind byte
	raw  []byte
}

// parseOrdered decodes a JSON text keeping key order; numbers keep their
// text.
func parseOrdered(b []byte) (*ordered, error) {
	return jsjson.Decode(b, orderedBuilder)
}

var orderedBuilder = jsjson.Builder[*ordered]{
	Scalar: func(v any) *ordered {
		switch t := v.(type) {
		case string:
			return &ordered{kind: 's', raw: appendJSString(nil, t)}
		case json.Number:
			return &ordered{kind: 's', raw: []byte(t)}
		case bool:
			return &ordered{kind: 's', raw: strconv.AppendBool(nil, t)}
		}
		return &ordered{kind: 's', raw: []byte("null")}
	},
	Array:  func(elems []*ordered) *ordered { return &ordered{kind: 'a', arr: elems} },
	Object: func(keys []string, vals []*ordered) *ordered { return &ordered{kind: 'o', keys: keys, vals: vals} },
}

// get returns the value under key of an object, or nil.
func (o *ordered) get(key string) *ordered {
	if o == nil || o.kind != 'o' {
		return nil
	}
	for i, k := range o.keys {
		if k == key {
			return o.vals[i]
		}
	}
	return nil
}

func (o *ordered) appendTo(b []byte) []byte {
	switch o.kind {
	case 'o':
		b = append(b, '{')
		for i, k := range o.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSString(b, k)
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
