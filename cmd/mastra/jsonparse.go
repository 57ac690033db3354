package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseJSON is JSON.parse as Node.js 22 (V8) runs it: the same grammar,
// the same values (see jsvalue.go) and, on failure, the same error
// message, which the Mastra CLI shows in INVALID_JSON details. Positions in
// messages count UTF-16 code units, as JavaScript does. s must be valid
// UTF-8 (see decodeUTF8).
func parseJSON(s string) (any, error) {
	p := &jsonParser{s: s}
	p.skipWS()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.i != len(p.s) {
		return nil, p.fail(p.i, "Unexpected non-whitespace character after JSON at position %d")
	}
	return v, nil
}

// jsonSyntaxError is a SyntaxError thrown by JSON.parse.
type jsonSyntaxError struct{ msg string }

func (e *jsonSyntaxError) Error() string { return e.msg }

type jsonParser struct {
	s string
	i int
}

func (p *jsonParser) skipWS() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.fail(p.i, "")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		return p.str()
	case c == '-' || isDigit(c):
		return p.number()
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.fail(p.i, "")
}

func (p *jsonParser) literal(word string) error {
	for k := 1; k < len(word); k++ {
		at := p.i + k
		if at >= len(p.s) || p.s[at] != word[k] {
			return p.fail(at, "")
		}
	}
	p.i += len(word)
	return nil
}

func (p *jsonParser) object() (any, error) {
	obj := newObject()
	p.i++
	p.skipWS()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return obj, nil
	}
	first := true
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			if first {
				return nil, p.fail(p.i, "Expected property name or '}' in JSON at position %d")
			}
			return nil, p.fail(p.i, "Expected double-quoted property name in JSON at position %d")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipWS()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail(p.i, "Expected ':' after property name in JSON at position %d")
		}
		p.i++
		p.skipWS()
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		obj.set(key.(string), val)
		p.skipWS()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.skipWS()
			first = false
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return obj, nil
		}
		return nil, p.fail(p.i, "Expected ',' or '}' after property value in JSON at position %d")
	}
}

func (p *jsonParser) array() (any, error) {
	arr := []any{}
	p.i++
	p.skipWS()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return arr, nil
	}
	for {
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, val)
		p.skipWS()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			p.skipWS()
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return arr, nil
		}
		return nil, p.fail(p.i, "Expected ',' or ']' after array element in JSON at position %d")
	}
}

func (p *jsonParser) number() (any, error) {
	start := p.i
	i := p.i
	if p.s[i] == '-' {
		i++
		if i >= len(p.s) || !isDigit(p.s[i]) {
			return nil, p.fail(i, "No number after minus sign in JSON at position %d")
		}
	}
	if p.s[i] == '0' {
		i++
		if i < len(p.s) && isDigit(p.s[i]) {
			return nil, p.fail(i, "Unexpected number in JSON at position %d")
		}
	} else {
		for i < len(p.s) && isDigit(p.s[i]) {
			i++
		}
	}
	if i < len(p.s) && p.s[i] == '.' {
		i++
		if i >= len(p.s) || !isDigit(p.s[i]) {
			return nil, p.fail(i, "Unterminated fractional number in JSON at position %d")
		}
		for i < len(p.s) && isDigit(p.s[i]) {
			i++
		}
	}
	if i < len(p.s) && (p.s[i] == 'e' || p.s[i] == 'E') {
		i++
		if i < len(p.s) && (p.s[i] == '+' || p.s[i] == '-') {
			i++
		}
		if i >= len(p.s) || !isDigit(p.s[i]) {
			return nil, p.fail(i, "Exponent part is missing a number in JSON at position %d")
		}
		for i < len(p.s) && isDigit(p.s[i]) {
			i++
		}
	}
	p.i = i
	// The text is valid JSON number syntax, which ParseFloat accepts; out of
	// range values come back as ±Inf (JavaScript's Infinity) or 0.
	f, _ := strconv.ParseFloat(p.s[start:i], 64)
	return f, nil
}

func (p *jsonParser) str() (any, error) {
	i := p.i + 1
	var b []byte
	runStart := i
	for {
		if i >= len(p.s) {
			return nil, p.fail(len(p.s), "Unterminated string in JSON at position %d")
		}
		c := p.s[i]
		switch {
		case c == '"':
			p.i = i + 1
			if b == nil {
				return p.s[runStart:i], nil
			}
			return string(append(b, p.s[runStart:i]...)), nil
		case c < 0x20:
			return nil, p.fail(i, "Bad control character in string literal in JSON at position %d")
		case c == '\\':
			b = append(b, p.s[runStart:i]...)
			i++
			if i >= len(p.s) {
				return nil, p.fail(i, "")
			}
			switch e := p.s[i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				u, err := p.hex4(i)
				if err != nil {
					return nil, err
				}
				i += 4
				r := rune(u)
				// Join an escaped surrogate pair; keep a lone surrogate.
				if u >= 0xD800 && u <= 0xDBFF && i+2 < len(p.s) && p.s[i+1] == '\\' && p.s[i+2] == 'u' {
					if lo, err := p.hex4(i + 2); err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
						r = 0x10000 + (rune(u)-0xD800)<<10 + rune(lo-0xDC00)
						i += 6
					}
				}
				b = appendWTF8(b, r)
			default:
				return nil, p.fail(i, "Bad escaped character in JSON at position %d")
			}
			i++
			runStart = i
		default:
			i++
		}
	}
}

// hex4 reads the four hex digits after the 'u' at index at.
func (p *jsonParser) hex4(at int) (uint16, error) {
	var u uint16
	for k := 1; k <= 4; k++ {
		j := at + k
		if j >= len(p.s) {
			return 0, p.fail(j, "Bad Unicode escape in JSON at position %d")
		}
		d, ok := hexVal(p.s[j])
		if !ok {
			return 0, p.fail(j, "Bad Unicode escape in JSON at position %d")
		}
		u = u<<4 | uint16(d)
	}
	return u, nil
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// fail builds V8's message for an error at byte offset at. A template
// (with one %d for the position) wins; without one, the message depends on
// the character found there, as V8's ReportUnexpectedToken does.
func (p *jsonParser) fail(at int, template string) error {
	if template == "" {
		if at >= len(p.s) {
			return &jsonSyntaxError{"Unexpected end of JSON input"}
		}
		switch c := p.s[at]; {
		case c == '"':
			template = "Unexpected string in JSON at position %d"
		case c == '-' || isDigit(c):
			template = "Unexpected number in JSON at position %d"
		default:
			return &jsonSyntaxError{p.unexpectedToken(at)}
		}
	}
	pos := utf16Len(p.s[:at])
	line, col := p.location(at)
	return &jsonSyntaxError{fmt.Sprintf(template, pos) + fmt.Sprintf(" (line %d column %d)", line, col)}
}

// location is V8's line and column of byte offset at (a "\r\n" pair is one
// line break; columns count UTF-16 code units from 1).
func (p *jsonParser) location(at int) (line, col int) {
	line = 1
	lineStart := 0
	for i := 0; i < at; i++ {
		c := p.s[i]
		if c == '\r' && i < at-1 && p.s[i+1] == '\n' {
			i++
			c = '\n'
		}
		if c == '\r' || c == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return line, 1 + utf16Len(p.s[lineStart:at])
}

// unexpectedToken is V8's "Unexpected token" message, which quotes the
// source (or ten code units either side of the error when the source is
// longer than twenty).
func (p *jsonParser) unexpectedToken(at int) string {
	switch p.s {
	case "NaN", "Infinity", "undefined", "[object Object]":
		return fmt.Sprintf("%q is not valid JSON", p.s)
	}
	const context = 10
	units := toUTF16(p.s)
	pos := utf16Len(p.s[:at])
	token := fromUTF16(units[pos : pos+1])
	n := len(units)
	if n <= 2*context {
		return "Unexpected token '" + token + "', \"" + p.s + "\" is not valid JSON"
	}
	switch {
	case pos < context:
		return "Unexpected token '" + token + "', \"" + fromUTF16(units[:pos+context]) + "\"... is not valid JSON"
	case pos < n-context:
		return "Unexpected token '" + token + "', ...\"" + fromUTF16(units[pos-context:pos+context]) + "\"... is not valid JSON"
	default:
		return "Unexpected token '" + token + "', ...\"" + fromUTF16(units[pos-context:]) + "\" is not valid JSON"
	}
}

// utf16Len is the length of s in UTF-16 code units (String.prototype.length).
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if _, ok := surrogateAt(s, i); ok {
			n++
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// jsTrimSpace is String.prototype.trim: it strips JavaScript white space
// and line terminators from both ends.
func jsTrimSpace(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

// jsTrimStart is String.prototype.trimStart.
func jsTrimStart(s string) string {
	return strings.TrimLeftFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
