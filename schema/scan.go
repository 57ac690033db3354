package schema

import (
	"strconv"
	"unicode/utf8"
)

// ValidJSON reports whether data is one JSON value that satisfies the
// schema exactly as it stands: no defaults to fill in, no keys to strip, no
// coercion. It decodes nothing and allocates nothing on the common path,
// and says false whenever it is not sure (an unusual keyword, an escape in
// a constrained string, deep nesting, invalid JSON): the caller then runs
// the full pipeline, which is authoritative. It is the fast path of tool
// execution.
func (c *Compiled) ValidJSON(data []byte) bool {
	s := scanner{data: data}
	s.ws()
	if s.i >= len(s.data) {
		return false
	}
	if !c.root.scan(&s, 0) {
		return false
	}
	s.ws()
	return s.i == len(s.data)
}

const maxScanDepth = 64

type scanner struct {
	data []byte
	i    int
}

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// fastOK reports whether the fast path can judge values of n on its own.
func (n *node) fastOK() bool {
	return !n.never && n.enum == nil && !n.hasConst && n.format == "" &&
		len(n.allOf) == 0 && len(n.anyOf) == 0 && len(n.oneOf) == 0 && n.not == nil &&
		n.refNode == nil && len(n.prefix) == 0 && !n.uniqueItems && len(n.patternProps) == 0 &&
		n.propNames == nil && n.additional == nil && n.defaults == nil &&
		n.minProps < 0 && n.maxProps < 0 && len(n.order) <= 64
}

func (n *node) scan(s *scanner, depth int) bool {
	if depth > maxScanDepth || s.i >= len(s.data) {
		return false
	}
	if n == nil {
		return skipValue(s, depth)
	}
	if !n.fastOK() {
		return false
	}
	types := n.types
	if types == 0 { // no "type": any JSON value, under the other keywords
		types = tNull | tBoolean | tObject | tArray | tNumber | tString
	}
	switch c := s.data[s.i]; {
	case c == '{':
		return types&tObject != 0 && n.scanObject(s, depth)
	case c == '[':
		return types&tArray != 0 && n.scanArray(s, depth)
	case c == '"':
		return types&tString != 0 && n.scanString(s)
	case c == 't':
		return types&tBoolean != 0 && s.literal("true")
	case c == 'f':
		return types&tBoolean != 0 && s.literal("false")
	case c == 'n':
		return (types&tNull != 0 || n.nilSlice && n.minItems <= 0) && s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return types&(tNumber|tInteger) != 0 && n.scanNumber(s)
	}
	return false
}

func (s *scanner) literal(lit string) bool {
	if len(s.data)-s.i < len(lit) || string(s.data[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

func (n *node) scanObject(s *scanner, depth int) bool {
	s.i++ // {
	var seen uint64
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return n.requiredSeen(seen)
	}
	for {
		s.ws()
		start, end, escaped, ok := scanStringToken(s)
		if !ok || escaped {
			return false
		}
		s.ws()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		key := s.data[start:end]
		if pn, declared := n.props[string(key)]; declared {
			bit := uint64(1) << n.propIndex(string(key))
			if seen&bit != 0 {
				return false // duplicate key: leave it to the full decoder
			}
			seen |= bit
			if !pn.scan(s, depth+1) {
				return false
			}
		} else {
			if n.noAdditional {
				return false // unknown key to reject or strip
			}
			if !skipValue(s, depth+1) {
				return false
			}
		}
		if more, ok := s.separator('}'); !ok {
			return false
		} else if !more {
			return n.requiredSeen(seen)
		}
	}
}

// separator moves past the ',' or the closer after a member or element:
// more is true after a ',', false after the closer; ok is false for
// anything else.
func (s *scanner) separator(closer byte) (more, ok bool) {
	s.ws()
	if s.i >= len(s.data) {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		return true, true
	case closer:
		s.i++
		return false, true
	}
	return false, false
}

func (n *node) propIndex(key string) int {
	for i, k := range n.order {
		if k == key {
			return i
		}
	}
	return 63
}

func (n *node) requiredSeen(seen uint64) bool {
	for i, k := range n.order {
		if n.required[k] && seen&(uint64(1)<<i) == 0 {
			return false
		}
	}
	return true
}

func (n *node) scanArray(s *scanner, depth int) bool {
	s.i++ // [
	count := 0
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return n.countOK(0)
	}
	for {
		s.ws()
		if n.itemsFalse {
			return false
		}
		if !n.items.scan(s, depth+1) {
			return false
		}
		count++
		if more, ok := s.separator(']'); !ok {
			return false
		} else if !more {
			return n.countOK(count)
		}
	}
}

func (n *node) countOK(count int) bool {
	return (n.minItems < 0 || count >= n.minItems) && (n.maxItems < 0 || count <= n.maxItems)
}

func (n *node) scanString(s *scanner) bool {
	start, end, escaped, ok := scanStringToken(s)
	if !ok {
		return false
	}
	if n.minLen < 0 && n.maxLen < 0 && n.pattern == nil && n.patternSrc == "" {
		return true
	}
	raw := s.data[start:end]
	if escaped || !utf8.Valid(raw) || (n.patternSrc != "" && n.pattern == nil) {
		return false
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		l := utf8.RuneCount(raw)
		if (n.minLen >= 0 && l < n.minLen) || (n.maxLen >= 0 && l > n.maxLen) {
			return false
		}
	}
	return n.pattern == nil || n.pattern.Match(raw)
}

// scanStringToken moves past a JSON string and returns its contents' span
// and whether it holds escapes.
func scanStringToken(s *scanner) (start, end int, escaped, ok bool) {
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return 0, 0, false, false
	}
	s.i++
	start = s.i
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			end = s.i
			s.i++
			return start, end, escaped, true
		case c == '\\':
			escaped = true
			if s.i+1 >= len(s.data) {
				return 0, 0, false, false
			}
			switch s.data[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.data) || !isHex4(s.data[s.i+2:s.i+6]) {
					return 0, 0, false, false
				}
				s.i += 6
			default:
				return 0, 0, false, false
			}
		case c < 0x20:
			return 0, 0, false, false
		default:
			s.i++
		}
	}
	return 0, 0, false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (n *node) scanNumber(s *scanner) bool {
	start := s.i
	neg := false
	if s.data[s.i] == '-' {
		neg = true
		s.i++
	}
	intStart := s.i
	if s.i >= len(s.data) {
		return false
	}
	if s.data[s.i] == '0' {
		s.i++
	} else if s.data[s.i] >= '1' && s.data[s.i] <= '9' {
		for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
		}
	} else {
		return false
	}
	intEnd := s.i
	fraction := false
	if s.i < len(s.data) && s.data[s.i] == '.' {
		fraction = true
		s.i++
		d := s.i
		for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return false
		}
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		fraction = true
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		d := s.i
		for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
		}
		if s.i == d {
			return false
		}
	}
	if fraction && n.types&tNumber == 0 {
		return false // "1.0" for an integer: the full path decides
	}
	var f float64
	if !fraction && intEnd-intStart <= 15 {
		var v int64
		for _, c := range s.data[intStart:intEnd] {
			v = v*10 + int64(c-'0')
		}
		if neg {
			v = -v
		}
		f = float64(v)
	} else {
		// Long or exponent forms may overflow to ±Inf, which no schema
		// accepts (Zod's numbers are finite).
		var err error
		if f, err = strconv.ParseFloat(string(s.data[start:s.i]), 64); err != nil {
			return false
		}
	}
	return (n.minimum == nil || f >= *n.minimum) && (n.maximum == nil || f <= *n.maximum) &&
		(n.exclMin == nil || f > *n.exclMin) && (n.exclMax == nil || f < *n.exclMax) &&
		(n.multipleOf == nil || isMultiple(f, *n.multipleOf))
}

// skipValue moves past any valid JSON value.
func skipValue(s *scanner, depth int) bool {
	var any node
	any.types = tNull | tBoolean | tObject | tArray | tNumber | tString
	any.minLen, any.maxLen, any.minItems, any.maxItems, any.minProps, any.maxProps = -1, -1, -1, -1, -1, -1
	return any.scan(s, depth)
}
