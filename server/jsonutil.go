package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
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
			switch string(raw[i+2 : i+6]) {
			case "003c", "003C":
				out = append(out, '<')
				i += 5
				continue
			case "003e", "003E":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			case "2028":
				out = utf8.AppendRune(out, '\u2028')
				i += 5
				continue
			case "2029":
				out = utf8.AppendRune(out, '\u2029')
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

// appendJSString appends s as a JSON string literal, escaping only what
// JSON.stringify escapes.
func appendJSString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, fmt.Sprintf(`\u%04x`, c)...)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
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
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("server: trailing data after JSON value")
	}
	return v, nil
}

func decodeOrdered(dec *json.Decoder) (*ordered, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &ordered{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, k)
				o.vals = append(o.vals, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := &ordered{kind: 'a', arr: []*ordered{}}
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				a.arr = append(a.arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("server: unexpected %v", t)
	case string:
		return &ordered{kind: 's', raw: appendJSString(nil, t)}, nil
	case json.Number:
		return &ordered{kind: 's', raw: []byte(t)}, nil
	case bool:
		return &ordered{kind: 's', raw: strconv.AppendBool(nil, t)}, nil
	case nil:
		return &ordered{kind: 's', raw: []byte("null")}, nil
	}
	return nil, fmt.Errorf("server: unexpected token %v", tok)
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
