package jsjson

import (
	"encoding/json"
	"iter"
	"math"
	"strconv"
	"strings"
)

// Undefined is JavaScript's undefined: JSON.stringify leaves out an object
// member holding it and writes it as null in an array.
type Undefined struct{}

// Object is a JavaScript object of another package's value model, for
// Append: Members yields its own enumerable properties in JavaScript
// property order (see OrderKeys).
type Object interface {
	Members() iter.Seq2[string, any]
}

// Append appends v as JSON.stringify(v, null, indent) renders it. v is made
// of
//
//	nil                  null
//	bool                 true / false
//	float64, json.Number numbers (printed as JavaScript prints a double;
//	                     NaN and ±Infinity, 1e400 included, as null)
//	string               a JavaScript string: UTF-8, with a lone UTF-16
//	                     surrogate in its WTF-8 form (see AppendString's WTF8)
//	[]any                arrays
//	Object               objects; members holding Undefined are left out
//	Undefined            null in an array
//
// and anything else is written as null. JSON.stringify(undefined) returns
// undefined rather than a text, so a top-level Undefined is the caller's.
func Append(b []byte, v any, indent string) []byte {
	w := &writer{b: b, indent: indent, limit: -1}
	w.write(v, "")
	return w.b
}

// writer renders values; limit >= 0 stops it past limit bytes.
type writer struct {
	b      []byte
	indent string
	limit  int
}

func (w *writer) full() bool { return w.limit >= 0 && len(w.b) > w.limit }

func (w *writer) write(v any, cur string) {
	if w.full() {
		return
	}
	switch t := v.(type) {
	case nil, Undefined:
		w.b = append(w.b, "null"...)
	case bool:
		w.b = strconv.AppendBool(w.b, t)
	case float64:
		w.b = append(w.b, FormatNumber(t)...)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			// JSON.parse turns out-of-range numbers into Infinity, which
			// JSON.stringify prints as null.
			f = math.Inf(1)
		}
		w.b = append(w.b, FormatNumber(f)...)
	case string:
		w.b = AppendString(w.b, t, WTF8)
	case []any:
		if len(t) == 0 {
			w.b = append(w.b, "[]"...)
			return
		}
		inner := cur + w.indent
		w.b = append(w.b, '[')
		for i, e := range t {
			if w.full() {
				return
			}
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline(inner)
			w.write(e, inner)
		}
		w.newline(cur)
		w.b = append(w.b, ']')
	case Object:
		inner := cur + w.indent
		n := 0
		for k, val := range t.Members() {
			if _, ok := val.(Undefined); ok {
				continue
			}
			if n == 0 {
				w.b = append(w.b, '{')
			}
			if w.full() {
				return
			}
			if n > 0 {
				w.b = append(w.b, ',')
			}
			n++
			w.newline(inner)
			w.b = AppendString(w.b, k, WTF8)
			w.b = append(w.b, ':')
			if w.indent != "" {
				w.b = append(w.b, ' ')
			}
			w.write(val, inner)
		}
		if n == 0 {
			w.b = append(w.b, "{}"...)
			return
		}
		w.newline(cur)
		w.b = append(w.b, '}')
	default:
		w.b = append(w.b, "null"...)
	}
}

func (w *writer) newline(cur string) {
	if w.indent == "" {
		return
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, cur...)
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
