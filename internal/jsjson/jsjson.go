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
//
// Besides re-rendering JSON texts (Stringify, Marshal, ReplaceKeys) it
// prints values of other packages' JavaScript value models (Append, with
// Object and Undefined), decodes JSON keeping member order (Decode), and
// handles JavaScript strings: UTF-16 lengths and lone surrogates, which Go
// strings hold in their WTF-8 form (AppendString, UTF16Len, ToUTF16, ...).
package jsjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
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
	v, err := Decode(raw, jsBuilder)
	if err != nil {
		return "", err
	}
	w := &writer{indent: indent, limit: limit}
	w.write(v, "")
	return string(w.b), nil
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

// Builder makes the values Decode returns from the parts of a JSON text.
type Builder[V any] struct {
	// Scalar makes a string, json.Number, bool or nil (null) value.
	Scalar func(v any) V
	// Array makes an array from its elements (a non-nil slice, empty for
	// []).
	Array func(elems []V) V
	// Object makes an object from its members in source order, a repeated
	// key as often as it stands (nil slices for {}).
	Object func(keys []string, vals []V) V
}

var errTrailing = errors.New("jsjson: trailing data after JSON value")

// Decode decodes raw, one JSON value and nothing after it but white space,
// into the values b makes, keeping the order of object members and the
// text of numbers. It returns an error when raw is not valid JSON.
func Decode[V any](raw []byte, b Builder[V]) (V, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decode(dec, &b)
	if err != nil {
		return v, err
	}
	if _, err := dec.Token(); err != io.EOF {
		var zero V
		return zero, errTrailing
	}
	return v, nil
}

// decodeFirst is Decode that ignores what follows the first value.
func decodeFirst[V any](raw []byte, b Builder[V]) (V, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decode(dec, &b)
}

func decode[V any](dec *json.Decoder, b *Builder[V]) (V, error) {
	var zero V
	tok, err := dec.Token()
	if err != nil {
		return zero, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return b.Scalar(tok), nil
	}
	switch d {
	case '{':
		var keys []string
		var vals []V
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return zero, err
			}
			key, _ := kt.(string)
			val, err := decode(dec, b)
			if err != nil {
				return zero, err
			}
			keys = append(keys, key)
			vals = append(vals, val)
		}
		if _, err := dec.Token(); err != nil {
			return zero, err
		}
		return b.Object(keys, vals), nil
	case '[':
		elems := []V{}
		for dec.More() {
			val, err := decode(dec, b)
			if err != nil {
				return zero, err
			}
			elems = append(elems, val)
		}
		if _, err := dec.Token(); err != nil {
			return zero, err
		}
		return b.Array(elems), nil
	}
	return zero, errors.New("jsjson: unexpected delimiter")
}

// jsBuilder makes the values JSON.parse makes: objects are memberLists in
// JavaScript property order.
var jsBuilder = Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any {
		// A repeated key keeps its first place and its last value.
		var obj memberList
		index := map[string]int{}
		for i, key := range keys {
			if j, ok := index[key]; ok {
				obj[j].val = vals[i]
				continue
			}
			index[key] = len(obj)
			obj = append(obj, member{key, vals[i]})
		}
		return orderKeys(obj)
	},
}

type member struct {
	key string
	val any
}

// memberList is a JSON object with its members in JavaScript property
// order.
type memberList []member

// Members yields the members in order.
func (o memberList) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o {
			if !yield(m.key, m.val) {
				return
			}
		}
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

func orderKeys(obj memberList) memberList {
	keys := make([]string, len(obj))
	byKey := make(map[string]any, len(obj))
	for i, m := range obj {
		keys[i] = m.key
		byKey[m.key] = m.val
	}
	keys = OrderKeys(keys)
	out := make(memberList, len(keys))
	for i, k := range keys {
		out[i] = member{k, byKey[k]}
	}
	return out
}

// ReplaceKeys returns raw with the value of every object member whose key
// satisfies match (at any depth, arrays included) replaced by the string
// with, keeping everything else, key order included. The result is
// compact JSON in JavaScript's rendering.
func ReplaceKeys(raw []byte, match func(key string) bool, with string) ([]byte, error) {
	v, err := decodeFirst(raw, jsBuilder)
	if err != nil {
		return nil, err
	}
	w := &writer{limit: -1}
	w.write(replaceKeys(v, match, with), "")
	return w.b, nil
}

func replaceKeys(v any, match func(string) bool, with string) any {
	switch t := v.(type) {
	case memberList:
		out := make(memberList, len(t))
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
