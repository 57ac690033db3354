// Package v8json is JSON.parse as V8 (Node.js 22) runs it: the same
// grammar, the same values and, for a text it rejects, the same exception
// message word for word ("Expected property name or '}' in JSON at position
// 1 (line 1 column 2)", "Unexpected end of JSON input", "Unexpected token
// 'x', "..." is not valid JSON", ...), which Mastra passes on: the server
// as the issue of an unparsable request body, the CLI in INVALID_JSON
// details. Positions, lines and columns count UTF-16 code units, as
// JavaScript strings do. testdata/jsonparse-v8.json, recorded from Node 22,
// is the reference.
//
// Values are those of jsjson's model: nil, bool, float64 (1e400 is +Inf),
// string (UTF-8; a lone surrogate from an escape such as "\ud800" kept in
// its WTF-8 form), []any, and objects the caller makes (Parser.NewObject).
package v8json

import (
	"fmt"
	"strconv"

	"github.com/gomastra/mastra/internal/jsjson"
)

// Object is an object JSON.parse fills: Set defines a property, called in
// source order (a repeated key is set again).
type Object interface {
	Set(key string, val any)
}

// Parser is a JSON.parse configuration.
type Parser struct {
	// NewObject makes an empty object for each JSON object. When it is
	// nil, Parse only checks the text and returns a nil value.
	NewObject func() Object
	// MaxDepth, when positive, bounds nesting: a value nested deeper fails
	// with V8's stack overflow, so that a hostile text cannot exhaust the
	// stack (V8 itself overflows at a depth set by its stack size).
	MaxDepth int
}

// Error is the exception JSON.parse throws.
type Error struct {
	// Name is "SyntaxError", or "RangeError" past MaxDepth.
	Name    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Parse is JSON.parse(s). s must be valid UTF-8 (decode bytes first, as
// JavaScript does when it makes a string); a lone surrogate in WTF-8 form
// counts as one UTF-16 code unit. A failure is an *Error.
func (p Parser) Parse(s string) (any, error) {
	ps := &parser{s: s, newObject: p.NewObject, maxDepth: p.MaxDepth}
	ps.skipWS()
	v, err := ps.value(0)
	if err != nil {
		return nil, err
	}
	ps.skipWS()
	if ps.i != len(ps.s) {
		return nil, ps.fail(ps.i, "Unexpected non-whitespace character after JSON at position %d")
	}
	if p.NewObject == nil {
		return nil, nil
	}
	return v, nil
}

type parser struct {
	s         string
	i         int
	newObject func() Object
	maxDepth  int
}

func (p *parser) skipWS() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.maxDepth > 0 && depth > p.maxDepth {
		return nil, &Error{Name: "RangeError", Message: "Maximum call stack size exceeded"}
	}
	if p.i >= len(p.s) {
		return nil, p.fail(p.i, "")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		return p.str()
	case c == '-' || isDigit(c):
		return p.number()
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.fail(p.i, "")
}

func (p *parser) literal(word string) error {
	for k := 1; k < len(word); k++ {
		at := p.i + k
		if at >= len(p.s) || p.s[at] != word[k] {
			return p.fail(at, "")
		}
	}
	p.i += len(word)
	return nil
}

func (p *parser) object(depth int) (any, error) {
	var obj Object
	if p.newObject != nil {
		obj = p.newObject()
	}
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
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if obj != nil {
			obj.Set(key.(string), val)
		}
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

func (p *parser) array(depth int) (any, error) {
	arr := []any{}
	p.i++
	p.skipWS()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return arr, nil
	}
	for {
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.newObject != nil {
			arr = append(arr, val)
		}
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

func (p *parser) number() (any, error) {
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

func (p *parser) str() (any, error) {
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
				// V8 reads the end of the text as the escaped character.
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
				u, bad := p.hex4(i)
				if bad >= 0 {
					return nil, p.fail(bad, "Bad Unicode escape in JSON at position %d")
				}
				i += 4
				r := rune(u)
				// Join an escaped surrogate pair; keep a lone surrogate.
				if u >= 0xD800 && u <= 0xDBFF && i+2 < len(p.s) && p.s[i+1] == '\\' && p.s[i+2] == 'u' {
					if lo, bad := p.hex4(i + 2); bad < 0 && lo >= 0xDC00 && lo <= 0xDFFF {
						r = 0x10000 + (rune(u)-0xD800)<<10 + rune(lo-0xDC00)
						i += 6
					}
				}
				b = jsjson.AppendWTF8(b, r)
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

// hex4 reads the four hex digits after the 'u' at index at; bad is the
// index of the first one missing or not a hex digit, or -1.
func (p *parser) hex4(at int) (u uint16, bad int) {
	for j := at + 1; j <= at+4; j++ {
		if j >= len(p.s) {
			return 0, j
		}
		d, ok := hexVal(p.s[j])
		if !ok {
			return 0, j
		}
		u = u<<4 | uint16(d)
	}
	return u, -1
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
func (p *parser) fail(at int, template string) error {
	if template == "" {
		if at >= len(p.s) {
			return syntaxError("Unexpected end of JSON input")
		}
		switch c := p.s[at]; {
		case c == '"':
			template = "Unexpected string in JSON at position %d"
		case c == '-' || isDigit(c):
			template = "Unexpected number in JSON at position %d"
		default:
			return syntaxError(p.unexpectedToken(at))
		}
	}
	pos := jsjson.UTF16Len(p.s[:at])
	line, col := p.location(at)
	return syntaxError(fmt.Sprintf(template, pos) + fmt.Sprintf(" (line %d column %d)", line, col))
}

func syntaxError(msg string) *Error { return &Error{Name: "SyntaxError", Message: msg} }

// location is V8's line and column of byte offset at (a "\r\n" pair is one
// line break; columns count UTF-16 code units from 1).
func (p *parser) location(at int) (line, col int) {
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
	return line, 1 + jsjson.UTF16Len(p.s[lineStart:at])
}

// unexpectedToken is V8's "Unexpected token" message, which quotes the
// source (or ten code units either side of the error when the source is
// longer than twenty). The token is one UTF-16 code unit: half of a
// surrogate pair is a lone surrogate.
func (p *parser) unexpectedToken(at int) string {
	switch p.s {
	case "NaN", "Infinity", "undefined", "[object Object]":
		return fmt.Sprintf("%q is not valid JSON", p.s)
	}
	const context = 10
	units := jsjson.ToUTF16(p.s)
	pos := jsjson.UTF16Len(p.s[:at])
	token := jsjson.FromUTF16(units[pos : pos+1])
	n := len(units)
	if n <= 2*context {
		return "Unexpected token '" + token + "', \"" + p.s + "\" is not valid JSON"
	}
	switch {
	case pos < context:
		return "Unexpected token '" + token + "', \"" + jsjson.FromUTF16(units[:pos+context]) + "\"... is not valid JSON"
	case pos < n-context:
		return "Unexpected token '" + token + "', ...\"" + jsjson.FromUTF16(units[pos-context:pos+context]) + "\"... is not valid JSON"
	default:
		return "Unexpected token '" + token + "', ...\"" + jsjson.FromUTF16(units[pos-context:]) + "\" is not valid JSON"
	}
}
