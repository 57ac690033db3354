package main

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
)

// The CLI handles JSON the way the Mastra CLI (Node.js) does: it parses
// with JSON.parse, rearranges plain objects, and prints with
// JSON.stringify. Values are therefore held in a small JavaScript-shaped
// model rather than in map[string]any, so that key order, number
// rendering and string escaping come out byte for byte the same:
//
//	nil        JSON null
//	bool       true / false
//	float64    every number (JSON.parse makes doubles; 1e400 is +Inf and prints as null)
//	string     UTF-8; a lone UTF-16 surrogate (from a "\ud800" escape) is kept
//	           as its 3-byte WTF-8 form and printed back as "\ud800"
//	[]any      arrays
//	*jsObject  objects, in JavaScript property order
//	undefined  a property that JSON.stringify leaves out
type undefinedType struct{}

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

func (o *jsObject) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
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
		units := toUTF16(t)
		keys := make([]string, len(units))
		vals := make([]any, len(units))
		for i := range units {
			keys[i] = jsjson.FormatNumber(float64(i))
			vals[i] = fromUTF16(units[i : i+1])
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
	w := jsonWriter{}
	if pretty {
		w.indent = "  "
	}
	if v == undefined {
		return "undefined"
	}
	w.value(v, "")
	return w.b.String()
}

type jsonWriter struct {
	b      strings.Builder
	indent string
}

func (w *jsonWriter) value(v any, cur string) {
	b := &w.b
	switch t := v.(type) {
	case nil, undefinedType:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case float64:
		b.WriteString(jsjson.FormatNumber(t))
	case string:
		writeJSString(b, t)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		inner := cur + w.indent
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			w.newline(inner)
			w.value(e, inner)
		}
		w.newline(cur)
		b.WriteByte(']')
	case *jsObject:
		inner := cur + w.indent
		n := 0
		for _, k := range t.ownKeys() {
			val := t.vals[k]
			if val == undefined {
				continue
			}
			if n == 0 {
				b.WriteByte('{')
			} else {
				b.WriteByte(',')
			}
			n++
			w.newline(inner)
			writeJSString(b, k)
			b.WriteByte(':')
			if w.indent != "" {
				b.WriteByte(' ')
			}
			w.value(val, inner)
		}
		if n == 0 {
			b.WriteString("{}")
			return
		}
		w.newline(cur)
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func (w *jsonWriter) newline(cur string) {
	if w.indent == "" {
		return
	}
	w.b.WriteByte('\n')
	w.b.WriteString(cur)
}

// writeJSString writes s as JSON.stringify writes a string: only '"', '\\'
// and control characters are escaped (never '<', '>', '&', U+2028), and a
// lone surrogate (WTF-8 in s) is written as a lowercase \uXXXX escape.
func writeJSString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		if u, ok := surrogateAt(s, i); ok {
			b.WriteString(`\u`)
			b.WriteByte(hex[u>>12])
			b.WriteByte(hex[u>>8&0xf])
			b.WriteByte(hex[u>>4&0xf])
			b.WriteByte(hex[u&0xf])
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// surrogateAt reports whether s holds the WTF-8 encoding of a surrogate
// code point (U+D800..U+DFFF) at byte i, and which.
func surrogateAt(s string, i int) (uint16, bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F), true
	}
	return 0, false
}

// appendWTF8 appends the UTF-16 code unit or code point r to b, writing a
// lone surrogate as its 3-byte WTF-8 form (which Go's UTF-8 encoder
// refuses).
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// toUTF16 returns s as UTF-16 code units (JavaScript's string view),
// keeping lone surrogates.
func toUTF16(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if u, ok := surrogateAt(s, i); ok {
			out = append(out, u)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// fromUTF16 is the inverse of toUTF16: pairs become code points, lone
// surrogates stay as WTF-8.
func fromUTF16(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			c = 0x10000 + (c-0xD800)<<10 + rune(u[i+1]-0xDC00)
			i++
		}
		b = appendWTF8(b, c)
	}
	return string(b)
}

// toUSV replaces lone surrogates by U+FFFD, as the URL and Fetch standards
// do before encoding a string as UTF-8.
func toUSV(s string) string {
	if !strings.Contains(s, "\xED") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if _, ok := surrogateAt(s, i); ok {
			b.WriteString("\ufffd")
			i += 3
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

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
