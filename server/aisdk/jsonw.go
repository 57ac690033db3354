package aisdk

import (
	"bytes"
	"encoding/json"
	"iter"
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/jsjson"
)

// objectWriter appends the members of a JSON object, as JSON.stringify
// writes them: strings escaped the JavaScript way, values re-rendered with
// JavaScript's number and key-order rules. The first error is kept in err.
type objectWriter struct {
	b   []byte
	n   int
	err error
}

func (w *objectWriter) key(k string) {
	if w.n > 0 {
		w.b = append(w.b, ',')
	}
	w.n++
	w.b = jsjson.AppendString(w.b, k, jsjson.WTF8)
	w.b = append(w.b, ':')
}

func (w *objectWriter) str(k, v string) {
	w.key(k)
	w.b = jsjson.AppendString(w.b, v, jsjson.WTF8)
}

func (w *objectWriter) strOpt(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *objectWriter) num(k string, n int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(n), 10)
}

func (w *objectWriter) boolOpt(k string, v *bool) {
	if v != nil {
		w.key(k)
		w.b = strconv.AppendBool(w.b, *v)
	}
}

// anyOpt writes v unless it is nil (JavaScript's undefined member).
func (w *objectWriter) anyOpt(k string, v any) {
	if v == nil {
		return
	}
	w.any(k, v)
}

// any writes v, null when nil.
func (w *objectWriter) any(k string, v any) {
	w.key(k)
	var err error
	w.b, err = appendValue(w.b, v)
	if err != nil && w.err == nil {
		w.err = err
	}
}

func (w *objectWriter) mapOpt(k string, v map[string]any) {
	if v != nil {
		w.any(k, v)
	}
}

// appendValue appends v's JSON as JSON.stringify would write the value
// encoding/json makes of it.
func appendValue(b []byte, v any) ([]byte, error) {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsjson.AppendString(b, t, jsjson.WTF8), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case jsObject:
		return jsjson.Append(b, t, ""), nil
	}
	raw, err := marshalNoEscape(v)
	if err != nil {
		return b, err
	}
	return appendRaw(b, raw)
}

// appendRaw appends the JSON text raw re-rendered by JSON.stringify's
// rules.
func appendRaw(b, raw []byte) ([]byte, error) {
	if isPlainJSON(raw) {
		return append(b, raw...), nil
	}
	s, err := jsjson.Stringify(raw, "")
	if err != nil {
		return b, err
	}
	return append(b, s...), nil
}

// isPlainJSON reports whether raw (valid JSON) reads the same under
// JSON.stringify: compact, strings with no escapes but \", \\, \n, \r
// and \t (which JavaScript writes the same way), objects whose keys are
// neither array indexes (JavaScript lists those first) nor repeated (it
// keeps the last value), at most 32 keys each, and numbers written as
// JavaScript prints them. It recognises the common texts only, in one
// pass, so that it costs far less than a re-rendering.
func isPlainJSON(raw []byte) bool {
	const maxKeys = 32
	var keys [][]byte  // the keys of the open objects, innermost last
	var opened [16]int // where each open object's keys start in keys
	depth := 0         // open objects
	var kinds [64]byte // the open containers, '{' or '['
	nest := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			start := i + 1
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
					if i == len(raw) {
						return false
					}
					switch raw[i] {
					case '"', '\\', 'n', 'r', 't':
					default:
						return false
					}
				}
			}
			if i+1 < len(raw) && raw[i+1] == ':' {
				key := raw[start:i]
				if depth == 0 || jsjson.IsArrayIndex(string(key)) {
					return false
				}
				mine := keys[opened[depth-1]:]
				if len(mine) == maxKeys {
					return false
				}
				for _, k := range mine {
					if string(k) == string(key) {
						return false
					}
				}
				keys = append(keys, key)
			}
		case c == '-' || (c >= '0' && c <= '9'):
			end := i + 1
			for end < len(raw) && strings.IndexByte("0123456789.eE+-", raw[end]) >= 0 {
				end++
			}
			if !canonicalNumber(raw[i:end]) {
				return false
			}
			i = end - 1
		case c == '{' || c == '[':
			if nest == len(kinds) || (c == '{' && depth == len(opened)) {
				return false
			}
			kinds[nest] = c
			nest++
			if c == '{' {
				opened[depth] = len(keys)
				depth++
			}
		case c == '}' || c == ']':
			if nest == 0 {
				return false
			}
			nest--
			if kinds[nest] == '{' {
				depth--
				keys = keys[:opened[depth]]
			}
		case c == ' ', c == '\n', c == '\t', c == '\r':
			return false
		}
	}
	return true
}

// canonicalNumber reports whether JavaScript prints the number as it is
// written (a short integer, or what FormatNumber makes of it).
func canonicalNumber(tok []byte) bool {
	plainInt := len(tok) <= 15
	for _, d := range tok {
		if d < '0' || d > '9' {
			plainInt = plainInt && d == '-' && len(tok) > 1 && tok[1] != '0'
		}
	}
	if plainInt {
		return true
	}
	f, err := strconv.ParseFloat(string(tok), 64)
	return err == nil && jsjson.FormatNumber(f) == string(tok)
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// jsObject is an ordered JSON object of the package's own making (the
// snapshots of data-tool-agent and data-tool-workflow parts), written
// member by member, JavaScript's undefined members left out.
type jsObject []member

type member struct {
	key string
	val any
}

// Members implements jsjson.Object. Values that are not jsjson's value
// model (strings, float64, bool, nil, []any, jsObject) are converted.
func (o jsObject) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o {
			if !yield(m.key, jsValue(m.val)) {
				return
			}
		}
	}
}

// MarshalJSON makes jsObject usable wherever encoding/json is.
func (o jsObject) MarshalJSON() ([]byte, error) { return jsjson.Append(nil, o, ""), nil }

// set replaces the value of key (keeping its position) or appends it.
func (o jsObject) set(key string, v any) jsObject {
	for i := range o {
		if o[i].key == key {
			o[i].val = v
			return o
		}
	}
	return append(o, member{key, v})
}

// get returns the value of key.
func (o jsObject) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// clone copies the member list (values are shared).
func (o jsObject) clone() jsObject { return append(jsObject(nil), o...) }

// jsValue converts a value to jsjson's value model: our own objects and
// jsjson's scalars pass through; anything else goes through its JSON.
func jsValue(v any) any {
	switch t := v.(type) {
	case nil, string, bool, float64, json.Number, jsObject, jsjson.Undefined:
		return v
	case int:
		return float64(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsValue(e)
		}
		return out
	case []jsObject:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out
	}
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil
	}
	dv, err := decodeOrdered(raw)
	if err != nil {
		return nil
	}
	return dv
}

// orderedBuilder decodes JSON into jsjson's value model with jsObject
// objects, keeping member order.
var orderedBuilder = jsjson.Builder[any]{
	Scalar: func(v any) any { return v },
	Array:  func(elems []any) any { return elems },
	Object: func(keys []string, vals []any) any {
		o := make(jsObject, 0, len(keys))
		for i, k := range keys {
			o = o.set(k, vals[i])
		}
		return o.jsOrdered()
	},
}

// jsOrdered puts array-index keys first, in ascending order, as every
// JavaScript object enumerates them.
func (o jsObject) jsOrdered() jsObject {
	keys := make([]string, len(o))
	for i, m := range o {
		keys[i] = m.key
	}
	ordered := jsjson.OrderKeys(keys)
	same := true
	for i := range keys {
		if keys[i] != ordered[i] {
			same = false
			break
		}
	}
	if same {
		return o
	}
	out := make(jsObject, 0, len(o))
	for _, k := range ordered {
		v, _ := o.get(k)
		out = append(out, member{k, v})
	}
	return out
}

// decodeOrdered decodes a JSON text keeping object member order.
func decodeOrdered(raw []byte) (any, error) {
	return jsjson.Decode(raw, orderedBuilder)
}
