// Package jsjson renders JSON the way JavaScript's JSON.stringify does, so that
// texts Mastra builds with JSON.stringify (validation-error footers, for
// example) come out byte for byte the same from Go.
//
// The differences from encoding/json it reproduces: object keys keep their
// source order except that array-index-like keys ("0", "17") come first in
// ascending order, as in every JavaScript object; a repeated key keeps its
// first position and its last value; numbers are printed as JavaScript
// prints a float64 (1e+21, 0.1, 100); strings escape only '"', '\\' and
// control characters (never '<', '>' or '&'); indentation follows
// JSON.stringify's rules (empty objects and arrays stay "{}" and "[]").
package jsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Stringify re-renders the JSON text raw as JSON.stringify(JSON.parse(raw),
// null, indent) would. It returns an error when raw is not valid JSON.
func Stringify(raw []byte, indent string) (string, error) {
	return StringifyPrefix(raw, indent, -1)
}

// StringifyPrefix is Stringify that stops writing once the text passes
// limit bytes: the result is the text's prefix of at least limit bytes (or
// all of it), at a cost bounded by the limit rather than by the value's
// rendering (deep nesting with indentation grows quadratically). A
// negative limit renders everything.
func StringifyPrefix(raw []byte, indent string, limit int) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", errors.New("jsjson: trailing data after JSON value")
	}
	w := &writer{indent: indent, limit: limit}
	w.write(v, "")
	return w.b.String(), nil
}

// Marshal renders a Go value as JSON.stringify would render its JSON form
// (encoding/json first, then the JavaScript rules above).
func Marshal(v any, indent string) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return Stringify(raw, indent)
}

type member struct {
	key string
	val any
}

// object is a JSON object with its members in JavaScript property order.
type object []member

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var obj object
			index := map[string]int{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				if i, ok := index[key]; ok {
					obj[i].val = val
					continue
				}
				index[key] = len(obj)
				obj = append(obj, member{key, val})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return orderKeys(obj), nil
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, errors.New("jsjson: unexpected delimiter")
	default:
		return t, nil
	}
}

// IsArrayIndex reports whether key is a canonical array index, the keys that
// JavaScript objects enumerate first, in ascending numeric order.
func IsArrayIndex(key string) bool {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	return err == nil && n < math.MaxUint32
}

// OrderKeys sorts keys (given in insertion order) into JavaScript property
// order: array indexes ascending first, then the rest in insertion order.
func OrderKeys(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if IsArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	sortIndexes(idx)
	return append(idx, rest...)
}

// sortIndexes sorts canonical array indexes numerically (shorter first,
// then by digits, which for canonical decimals is numeric order).
func sortIndexes(idx []string) {
	slices.SortFunc(idx, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
}

func orderKeys(obj object) object {
	keys := make([]string, len(obj))
	byKey := make(map[string]any, len(obj))
	for i, m := range obj {
		keys[i] = m.key
		byKey[m.key] = m.val
	}
	keys = OrderKeys(keys)
	out := make(object, len(keys))
	for i, k := range keys {
		out[i] = member{k, byKey[k]}
	}
	return out
}

// writer renders decoded values; limit >= 0 stops it past limit bytes.
type writer struct {
	b      strings.Builder
	indent string
	limit  int
}

func (w *writer) full() bool { return w.limit >= 0 && w.b.Len() > w.limit }

func (w *writer) write(v any, cur string) {
	if w.full() {
		return
	}
	b := &w.b
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			// JSON.parse turns out-of-range numbers into Infinity, which
			// JSON.stringify prints as null.
			b.WriteString("null")
			return
		}
		b.WriteString(FormatNumber(f))
	case string:
		WriteString(b, t)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		inner := cur + w.indent
		b.WriteByte('[')
		for i, e := range t {
			if w.full() {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			w.newline(inner)
			w.write(e, inner)
		}
		w.newline(cur)
		b.WriteByte(']')
	case object:
		if len(t) == 0 {
			b.WriteString("{}")
			return
		}
		inner := cur + w.indent
		b.WriteByte('{')
		for i, m := range t {
			if w.full() {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			w.newline(inner)
			WriteString(b, m.key)
			b.WriteByte(':')
			if w.indent != "" {
				b.WriteByte(' ')
			}
			w.write(m.val, inner)
		}
		w.newline(cur)
		b.WriteByte('}')
	}
}

func (w *writer) newline(cur string) {
	if w.indent == "" {
		return
	}
	w.b.WriteByte('\n')
	w.b.WriteString(cur)
}

// WriteString writes s as a JSON string literal escaped as JSON.stringify
// escapes it.
func WriteString(b *strings.Builder, s string) {
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
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Invalid UTF-8 cannot come from JSON text; render it as the
			// replacement character, as JavaScript would after decoding.
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// FormatNumber prints f as JavaScript's Number.prototype.toString does
// (shortest round-trip digits; exponent form below 1e-6 and from 1e21).
func FormatNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go: 1e+21, 1.5e-07; JavaScript: 1e+21, 1.5e-7.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		return mant + "e" + string(sign) + digits
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// UTF16Len returns the length of s in UTF-16 code units, JavaScript's
// String.prototype.length.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		n += w
	}
	return n
}

// TruncateUTF16 returns the longest prefix of s that is at most max UTF-16
// code units long, and whether s was cut. JavaScript's slice may split a
// surrogate pair, leaving a lone surrogate that every JSON decoder turns
// into U+FFFD; Go strings cannot hold half a pair, so the prefix ends in
// U+FFFD in that case.
func TruncateUTF16(s string, max int) (string, bool) {
	n := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if n+w > max {
			if w == 2 && n+1 == max {
				return s[:i] + "\ufffd", true
			}
			return s[:i], true
		}
		n += w
	}
	return s, false
}

// ReplaceKeys returns raw with the value of every object member whose key
// satisfies match (at any depth, arrays included) replaced by the string
// with, keeping everything else, key order included. The result is
// compact JSON in JavaScript's rendering.
func ReplaceKeys(raw []byte, match func(key string) bool, with string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	w := &writer{limit: -1}
	w.write(replaceKeys(v, match, with), "")
	return []byte(w.b.String()), nil
}

func replaceKeys(v any, match func(string) bool, with string) any {
	switch t := v.(type) {
	case object:
		out := make(object, len(t))
		for i, m := range t {
			if match(m.key) {
				out[i] = member{m.key, with}
			} else {
				out[i] = member{m.key, replaceKeys(m.val, match, with)}
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = replaceKeys(e, match, with)
		}
		return out
	}
	return v
}
