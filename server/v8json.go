package server

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// v8SyntaxError returns the message JavaScript's JSON.parse (V8, as in
// Node 22) throws for src, or "" when src is valid JSON. Mastra reports it
// as the issue of an unparsable request body, so the text is V8's, word for
// word: "Expected property name or '}' in JSON at position 1 (line 1
// column 2)", "Unexpected end of JSON input", "Unexpected token 'x', "..."
// is not valid JSON", and so on. Positions, lines and columns count UTF-16
// code units, as JavaScript strings do.
func v8SyntaxError(src []byte) string {
	p := &v8Parser{src: []rune(string(src))}
	p.skipWS()
	if !p.value(0) {
		return p.msg
	}
	p.skipWS()
	if p.i < len(p.src) {
		return p.at("Unexpected non-whitespace character after JSON")
	}
	return ""
}

// v8MaxDepth bounds nesting so that a hostile body cannot exhaust the
// stack; V8 would report a stack overflow (RangeError) much deeper.
const v8MaxDepth = 10000

type v8Parser struct {
	src []rune
	i   int
	msg string
}

func (p *v8Parser) skipWS() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// fail records msg and returns false.
func (p *v8Parser) fail(msg string) bool {
	p.msg = msg
	return false
}

// at records a "<what> at position N (line L column C)" message
// for the current position and returns it.
func (p *v8Parser) at(what string) string {
	pos, line, col := p.location()
	p.msg = what + " at position " + strconv.Itoa(pos) +
		" (line " + strconv.Itoa(line) + " column " + strconv.Itoa(col) + ")"
	return p.msg
}

func (p *v8Parser) failAt(what string) bool {
	p.at(what)
	return false
}

// location is the current position in UTF-16 units and its 1-based line
// and column.
func (p *v8Parser) location() (pos, line, col int) {
	line, lineStart := 1, 0
	for j := 0; j < p.i && j < len(p.src); j++ {
		n := utf16Len(p.src[j])
		if p.src[j] == '\n' || (p.src[j] == '\r' && (j+1 >= len(p.src) || p.src[j+1] != '\n')) {
			line++
			lineStart = pos + n
		}
		pos += n
	}
	return pos, line, pos - lineStart + 1
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// unexpected reports the character at the current position the way V8
// does when no more specific message applies.
func (p *v8Parser) unexpected() bool {
	if p.i >= len(p.src) {
		return p.fail("Unexpected end of JSON input")
	}
	c := p.src[p.i]
	switch {
	case c == '"':
		return p.failAt("Unexpected string in JSON")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.failAt("Unexpected number in JSON")
	}
	src := string(p.src)
	switch src {
	case "undefined", "NaN", "Infinity", "[object Object]":
		return p.fail(`"` + src + `" is not valid JSON`)
	}
	units := utf16.Encode(p.src)
	pos, _, _ := p.location()
	token := string(utf16.Decode(units[pos : pos+1]))
	if c >= 0x10000 {
		token = "\uFFFD" // V8 names one UTF-16 unit: half a surrogate pair
	}
	const context = 10
	n := len(units)
	sub := func(from, to int) string { return string(utf16.Decode(units[from:min(to, n)])) }
	var msg string
	switch {
	case n <= 2*context+1:
		msg = "Unexpected token '" + token + "', \"" + src + "\" is not valid JSON"
	case pos < context:
		msg = "Unexpected token '" + token + "', \"" + sub(0, pos+context) + "\"... is not valid JSON"
	case pos < n-context:
		msg = "Unexpected token '" + token + "', ...\"" + sub(pos-context, pos+context) + "\"... is not valid JSON"
	default:
		msg = "Unexpected token '" + token + "', ...\"" + sub(pos-context, n) + "\" is not valid JSON"
	}
	return p.fail(msg)
}

func (p *v8Parser) value(depth int) bool {
	if depth > v8MaxDepth {
		return p.fail("Maximum call stack size exceeded")
	}
	if p.i >= len(p.src) {
		return p.unexpected()
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	}
	return p.unexpected()
}

func (p *v8Parser) literal(word string) bool {
	for _, want := range word {
		if p.i >= len(p.src) || p.src[p.i] != want {
			return p.unexpected()
		}
		p.i++
	}
	return true
}

func (p *v8Parser) object(depth int) bool {
	p.i++ // '{'
	p.skipWS()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		return true
	}
	first := true
	for {
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			if first {
				return p.failAt("Expected property name or '}' in JSON")
			}
			return p.failAt("Expected double-quoted property name in JSON")
		}
		first = false
		if !p.str() {
			return false
		}
		p.skipWS()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.failAt("Expected ':' after property name in JSON")
		}
		p.i++
		p.skipWS()
		if !p.value(depth + 1) {
			return false
		}
		p.skipWS()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.skipWS()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return true
		}
		return p.failAt("Expected ',' or '}' after property value in JSON")
	}
}

func (p *v8Parser) array(depth int) bool {
	p.i++ // '['
	p.skipWS()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		return true
	}
	for {
		if !p.value(depth + 1) {
			return false
		}
		p.skipWS()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.skipWS()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return true
		}
		return p.failAt("Expected ',' or ']' after array element in JSON")
	}
}

func (p *v8Parser) str() bool {
	p.i++ // opening quote
	for {
		if p.i >= len(p.src) {
			return p.failAt("Unterminated string in JSON")
		}
		c := p.src[p.i]
		switch {
		case c == '"':
			p.i++
			return true
		case c < 0x20:
			return p.failAt("Bad control character in string literal in JSON")
		case c == '\\':
			p.i++
			if p.i >= len(p.src) {
				return p.failAt("Unterminated string in JSON")
			}
			switch p.src[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i++
			case 'u':
				p.i++
				for k := 0; k < 4; k++ {
					if p.i >= len(p.src) || !isHex(p.src[p.i]) {
						return p.failAt("Bad Unicode escape in JSON")
					}
					p.i++
				}
			default:
				return p.failAt("Bad escaped character in JSON")
			}
		default:
			p.i++
		}
	}
}

func isHex(r rune) bool {
	return (r >= '0' && r <= '9') || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F')
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func (p *v8Parser) number() bool {
	if p.src[p.i] == '-' {
		p.i++
		if p.i >= len(p.src) || !isDigit(p.src[p.i]) {
			return p.failAt("No number after minus sign in JSON")
		}
	}
	if p.src[p.i] == '0' {
		p.i++
		if p.i < len(p.src) && isDigit(p.src[p.i]) {
			return p.failAt("Unexpected number in JSON")
		}
	} else {
		for p.i < len(p.src) && isDigit(p.src[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.src) && p.src[p.i] == '.' {
		p.i++
		if p.i >= len(p.src) || !isDigit(p.src[p.i]) {
			return p.failAt("Unterminated fractional number in JSON")
		}
		for p.i < len(p.src) && isDigit(p.src[p.i]) {
			p.i++
		}
	}
	if p.i < len(p.src) && (p.src[p.i] == 'e' || p.src[p.i] == 'E') {
		p.i++
		if p.i < len(p.src) && (p.src[p.i] == '+' || p.src[p.i] == '-') {
			p.i++
		}
		if p.i >= len(p.src) || !isDigit(p.src[p.i]) {
			return p.failAt("Exponent part is missing a number in JSON")
		}
		for p.i < len(p.src) && isDigit(p.src[p.i]) {
			p.i++
		}
	}
	return true
}
