package processors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
)

// stringifyRaw is JSON.stringify(JSON.parse(raw)), or false when raw is
// not JSON. A text JSON.stringify would write as it is (compact, numbers
// and escapes as JavaScript writes them: most model and tool JSON) is
// returned without being parsed.
func stringifyRaw(raw []byte) (string, bool) {
	if isJSText(raw) {
		return string(raw), true
	}
	s, err := jsjson.Stringify(raw, "")
	return s, err == nil
}

// stringify is JSON.stringify(v) of a JSON value (json.RawMessage, or a
// value encoding/json writes).
func stringify(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		if s, ok := stringifyRaw(raw); ok {
			return s
		}
	}
	s, err := jsjson.Marshal(v, "")
	if err != nil {
		return fmt.Sprint(v)
	}
	return s
}

// isJSText reports whether raw is one JSON value exactly as
// JSON.stringify writes it: no white space, strings with JavaScript's
// escapes only, numbers as JavaScript prints them (at most 15 significant
// digits, no exponent, no trailing fraction zero, no -0), objects without
// a repeated key or an array-index key (JavaScript enumerates those
// first). It errs towards false: false only means "parse it".
func isJSText(raw []byte) bool {
	c := jsChecker{b: raw}
	return c.value(0) && c.i == len(raw)
}

type jsChecker struct {
	b []byte
	i int
}

func (c *jsChecker) value(depth int) bool {
	if c.i >= len(c.b) || depth > 100 {
		return false
	}
	switch ch := c.b[c.i]; {
	case ch == '{':
		return c.object(depth)
	case ch == '[':
		c.i++
		if c.i < len(c.b) && c.b[c.i] == ']' {
			c.i++
			return true
		}
		for {
			if !c.value(depth+1) || c.i >= len(c.b) {
				return false
			}
			switch c.b[c.i] {
			case ',':
				c.i++
			case ']':
				c.i++
				return true
			default:
				return false
			}
		}
	case ch == '"':
		_, _, ok := c.str()
		return ok
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	case ch == '-' || ch >= '0' && ch <= '9':
		return c.number()
	}
	return false
}

func (c *jsChecker) object(depth int) bool {
	c.i++
	if c.i < len(c.b) && c.b[c.i] == '}' {
		c.i++
		return true
	}
	var keysBuf [16][2]int
	keys := keysBuf[:0]
	for {
		start, end, ok := c.str()
		if !ok || isIndexKey(c.b[start:end]) {
			return false
		}
		for _, k := range keys {
			if bytes.Equal(c.b[k[0]:k[1]], c.b[start:end]) {
				return false
			}
		}
		keys = append(keys, [2]int{start, end})
		if c.i >= len(c.b) || c.b[c.i] != ':' {
			return false
		}
		c.i++
		if !c.value(depth+1) || c.i >= len(c.b) {
			return false
		}
		switch c.b[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return true
		default:
			return false
		}
	}
}

// str consumes a string and returns its content's bounds.
func (c *jsChecker) str() (start, end int, ok bool) {
	if c.i >= len(c.b) || c.b[c.i] != '"' {
		return 0, 0, false
	}
	c.i++
	start = c.i
	for c.i < len(c.b) {
		ch := c.b[c.i]
		switch {
		case ch == '"':
			end = c.i
			c.i++
			return start, end, true
		case ch < 0x20:
			return 0, 0, false
		case ch == '\\':
			if c.i+1 >= len(c.b) {
				return 0, 0, false
			}
			switch c.b[c.i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				c.i += 2
			case 'u':
				// JavaScript writes \u00xx, lower-case, for the control
				// characters without a short escape only.
				if c.i+6 > len(c.b) || string(c.b[c.i+2:c.i+4]) != "00" || !isLowerHex(c.b[c.i+4]) || !isLowerHex(c.b[c.i+5]) {
					return 0, 0, false
				}
				switch v := hexVal(c.b[c.i+4])<<4 | hexVal(c.b[c.i+5]); {
				case v >= 0x20, v == '\b', v == '\f', v == '\n', v == '\r', v == '\t':
					return 0, 0, false
				}
				c.i += 6
			default:
				return 0, 0, false
			}
		case ch < utf8.RuneSelf:
			c.i++
		default:
			r, n := utf8.DecodeRune(c.b[c.i:])
			if r == utf8.RuneError && n == 1 {
				return 0, 0, false
			}
			c.i += n
		}
	}
	return 0, 0, false
}

func isLowerHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' }

func hexVal(b byte) int {
	if b <= '9' {
		return int(b - '0')
	}
	return int(b-'a') + 10
}

func (c *jsChecker) literal(s string) bool {
	if !bytes.HasPrefix(c.b[c.i:], []byte(s)) {
		return false
	}
	c.i += len(s)
	return true
}

// number consumes a number JavaScript prints as it is written.
func (c *jsChecker) number() bool {
	start := c.i
	if c.b[c.i] == '-' {
		c.i++
	}
	intStart := c.i
	for c.i < len(c.b) && c.b[c.i] >= '0' && c.b[c.i] <= '9' {
		c.i++
	}
	intPart := c.b[intStart:c.i]
	if len(intPart) == 0 || len(intPart) > 1 && intPart[0] == '0' {
		return false
	}
	digits := len(intPart)
	if intPart[0] == '0' {
		digits = 0
	}
	if c.i < len(c.b) && c.b[c.i] == '.' {
		c.i++
		fracStart := c.i
		for c.i < len(c.b) && c.b[c.i] >= '0' && c.b[c.i] <= '9' {
			c.i++
		}
		frac := c.b[fracStart:c.i]
		if len(frac) == 0 || frac[len(frac)-1] == '0' {
			return false
		}
		if digits == 0 {
			lead := len(frac) - len(bytes.TrimLeft(frac, "0"))
			if lead >= 6 { // below 1e-6 JavaScript writes an exponent
				return false
			}
			digits = len(frac) - lead
		} else {
			digits += len(frac)
		}
	} else if string(c.b[start:c.i]) == "-0" {
		return false
	}
	if c.i < len(c.b) && (c.b[c.i] == 'e' || c.b[c.i] == 'E') {
		return false
	}
	return digits <= 15
}

// isIndexKey reports whether an object key (its JSON content) is an array
// index, which JavaScript enumerates before the other keys.
func isIndexKey(k []byte) bool {
	if len(k) == 0 || len(k) > 10 || len(k) > 1 && k[0] == '0' {
		return false
	}
	n := uint64(0)
	for _, ch := range k {
		if ch < '0' || ch > '9' {
			return false
		}
		n = n*10 + uint64(ch-'0')
	}
	return n < 1<<32-1
}
