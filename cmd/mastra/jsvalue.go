package main

import (
	"iter"
	"math"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
)

// The CLI handles JSON the way the Mastra CLI (Node.js) does: it parses
// with JSON.parse, rearranges plain objects, and prints with
// JSON.stringify. Values are therefore held in a small JavaScript-shaped
// model rather than in map[string]any, so that key order, number
// rendering and string escaping come out byte for byte the same (parsing
// is v8json's, printing jsjson's):
//
//	nil        JSON null
//	bool       true / false
//	float64    every number (JSON.parse makes doubles; 1e400 is +Inf and prints as null)
//	string     UTF-8; a lone UTF-16 surrogate (from a "\ud800" escape) is kept
//	           as its 3-byte WTF-8 form and printed back as "\ud800"
//	[]any      arrays
//	*jsObject  objects, in JavaScript property order
//	undefined  a property that JSON.stringify leaves out
type undefinedType = jsjson.Undefined

// undefined is JavaScript's undefined: an object member holding it is
// omitted from the output, as JSON.stringify omits it.
var undefined = undefinedType{}

// jsObject is a JSON object with JavaScript's property order: keys that are
// canonical array indexes ("0", "17") first in ascending order, then the
// other keys in insertion order. Setting an existing key keeps its place;
// deleting and setting it again moves it to the end.
type jsObject struct {
	keys []string
	vals map[string]any
}

func newObject() *jsObject { return &jsObject{vals: map[string]any{}} }

// objectOf builds an object from alternating keys and values.
func objectOf(kv ...any) *jsObject {
	o := newObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// lookup is a property read: a missing key reads as undefined.
func (o *jsObject) lookup(k string) any {
	if v, ok := o.vals[k]; ok {
		return v
	}
	return undefined
}

func (o *jsObject) has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

func (o *jsObject) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// Set is set, for v8json (JSON.parse fills objects with it).
func (o *jsObject) Set(k string, v any) { o.set(k, v) }

// Members yields the properties in JavaScript enumeration order, for
// jsjson (JSON.stringify prints them).
func (o *jsObject) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, k := range o.ownKeys() {
			if !yield(k, o.vals[k]) {
				return
			}
		}
	}
}

func (o *jsObject) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *jsObject) len() int { return len(o.keys) }

// ownKeys returns the keys in JavaScript enumeration order (Object.keys).
func (o *jsObject) ownKeys() []string {
	return jsjson.OrderKeys(append([]string(nil), o.keys...))
}

// clone is a shallow copy ({...o}).
func (o *jsObject) clone() *jsObject {
	c := &jsObject{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

// isNullish reports whether v is null or undefined (the ?? operator's test).
func isNullish(v any) bool {
	return v == nil || v == undefined
}

// coalesce is JavaScript's a ?? b ?? c: the first operand that is neither
// null nor undefined, else the last operand.
func coalesce(vs ...any) any {
	for _, v := range vs[:len(vs)-1] {
		if !isNullish(v) {
			return v
		}
	}
	return vs[len(vs)-1]
}

// truthy is JavaScript's ToBoolean.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil, undefinedType:
		return false
	case bool:
		return t
	case float64:
		return t != 0 && !math.IsNaN(t)
	case string:
		return t != ""
	}
	return true
}

// isObject is `v && typeof v === 'object'` (arrays included).
func isObject(v any) bool {
	switch v.(type) {
	case *jsObject, []any:
		return true
	}
	return false
}

// entries is Object.entries(v) for an object or an array (index keys).
func entries(v any) ([]string, []any) {
	switch t := v.(type) {
	case *jsObject:
		keys := t.ownKeys()
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = t.vals[k]
		}
		return keys, vals
	case []any:
		keys := make([]string, len(t))
		for i := range t {
			keys[i] = jsjson.FormatNumber(float64(i))
		}
		return keys, t
	case string:
		// Spreading a string copies one property per UTF-16 code unit.
		units := jsjson.ToUTF16(t)
		keys := make([]string, len(units))
		vals := make([]any, len(units))
		for i := range units {
			keys[i] = jsjson.FormatNumber(float64(i))
			vals[i] = jsjson.FromUTF16(units[i : i+1])
		}
		return keys, vals
	}
	return nil, nil
}

// property is v[k] for any value (undefined when v has no such own
// property; inherited properties of plain objects are not modelled).
func property(v any, k string) any {
	if o, ok := v.(*jsObject); ok {
		return o.lookup(k)
	}
	return undefined
}

// stringify renders v as JSON.stringify(v, null, pretty ? 2 : 0) does.
func stringify(v any, pretty bool) string {
	if v == undefined {
		return "undefined"
	}
	indent := ""
	if pretty {
		indent = "  "
	}
	return string(jsjson.Append(nil, v, indent))
}

// toUSV replaces lone surrogates by U+FFFD, as the URL and Fetch standards
// do before encoding a string as UTF-8.
func toUSV(s string) string { return jsjson.ToUSV(s) }

// decodeUTF8 decodes bytes as the WHATWG UTF-8 decoder does (TextDecoder,
// Response.text()): a leading byte-order mark is dropped and each maximal
// invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte, dropBOM bool) string {
	if dropBOM && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		out = append(out, "\ufffd"...)
		i += invalidPrefixLen(b[i:])
	}
	return string(out)
}

// invalidPrefixLen returns the length of the maximal subpart of an
// ill-formed UTF-8 sequence at the start of b (at least 1).
func invalidPrefixLen(b []byte) int {
	lo, hi := byte(0x80), byte(0xBF)
	var need int
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
