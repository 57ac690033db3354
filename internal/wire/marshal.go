package wire

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// MarshalNoHTML is json.Marshal without HTML escaping: '<', '>' and '&'
// stay as they are, as JSON.stringify leaves them; U+2028 and U+2029 are
// still escaped (see UnescapeJS). The result has no trailing newline.
func MarshalNoHTML(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Marshal encodes v as compact JSON in encoding/json's rendering (its map
// key order, its number text) with JSON.stringify's string escaping:
// '<', '>', '&', U+2028 and U+2029 are left as they are, and each byte
// that is not UTF-8 is the escape \ufffd (StringifyGo).
func Marshal(v any) ([]byte, error) {
	b, err := MarshalNoHTML(v)
	if err != nil {
		return nil, err
	}
	return UnescapeJS(b), nil
}

// UnescapeJS rewrites the \u003c, \u003e, \u0026, \u2028 and \u2029
// escapes encoding/json writes inside strings as the characters
// themselves, which JSON.stringify does not escape. Other escapes are
// kept. raw must be valid JSON; it is returned as is (not copied) when it
// holds no \u escape.
func UnescapeJS(raw []byte) []byte {
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

// htmlSafeEscapes are the \uXXXX escapes UnescapeJS undoes, by their hex
// digits as encoding/json writes them.
var htmlSafeEscapes = map[string]rune{
	"003c": '<', "003C": '<', "003e": '>', "003E": '>', "0026": '&',
	"2028": '\u2028', "2029": '\u2029',
}
