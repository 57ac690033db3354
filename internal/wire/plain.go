package wire

import (
	"strconv"
	"strings"

	"github.com/gomastra/mastra/internal/jsjson"
)

// isPlainJSON reports whether raw (valid JSON) reads the same under
// JSON.stringify: compact, strings with no escapes but \", \\, \n, \r
// and \t (which JavaScript writes the same way), objects whose keys are
// neither array indexes (JavaScript lists those first) nor repeated (it
// keeps the last value), at most 32 keys each, and numbers written as
// JavaScript prints them. It recognises the common texts only, in one
// pass, so that it costs far less than a re-rendering.
func isPlainJSON(raw []byte) bool {
	var p plainScan
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		ok := true
		switch {
		case c == '"':
			i, ok = p.str(raw, i)
		case c == '-' || (c >= '0' && c <= '9'):
			end := i + 1
			for end < len(raw) && strings.IndexByte("0123456789.eE+-", raw[end]) >= 0 {
				end++
			}
			ok = canonicalNumber(raw[i:end])
			i = end - 1
		case c == '{' || c == '[':
			ok = p.open(c)
		case c == '}' || c == ']':
			ok = p.close()
		case c == ' ', c == '\n', c == '\t', c == '\r':
			ok = false
		}
		if !ok {
			return false
		}
	}
	return true
}

// plainScan is isPlainJSON's state: the open containers and the keys of
// the open objects.
type plainScan struct {
	keys   [][]byte // the keys of the open objects, innermost last
	opened [16]int  // where each open object's keys start in keys
	depth  int      // open objects
	kinds  [64]byte // the open containers, '{' or '['
	nest   int
}

const plainMaxKeys = 32

// str scans the string starting at raw[i] ('"'), and records it when it
// is a key; it returns the index of the closing quote.
func (p *plainScan) str(raw []byte, i int) (int, bool) {
	start := i + 1
	for i++; i < len(raw) && raw[i] != '"'; i++ {
		if raw[i] == '\\' {
			i++
			if i == len(raw) {
				return i, false
			}
			switch raw[i] {
			case '"', '\\', 'n', 'r', 't':
			default:
				return i, false
			}
		}
	}
	if i+1 >= len(raw) || raw[i+1] != ':' {
		return i, true
	}
	key := raw[start:i]
	if p.depth == 0 || jsjson.IsArrayIndex(string(key)) {
		return i, false
	}
	mine := p.keys[p.opened[p.depth-1]:]
	if len(mine) == plainMaxKeys {
		return i, false
	}
	for _, k := range mine {
		if string(k) == string(key) {
			return i, false
		}
	}
	p.keys = append(p.keys, key)
	return i, true
}

func (p *plainScan) open(c byte) bool {
	if p.nest == len(p.kinds) || (c == '{' && p.depth == len(p.opened)) {
		return false
	}
	p.kinds[p.nest] = c
	p.nest++
	if c == '{' {
		p.opened[p.depth] = len(p.keys)
		p.depth++
	}
	return true
}

func (p *plainScan) close() bool {
	if p.nest == 0 {
		return false
	}
	p.nest--
	if p.kinds[p.nest] == '{' {
		p.depth--
		p.keys = p.keys[:p.opened[p.depth]]
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
