package partialjson

// This file holds the two byte-at-a-time state machines the Parser runs
// side by side over every byte it receives:
//
//   - the repair scanner, which reproduces the AI SDK's fixJson: a stack of
//     fix states, the index of the last byte that may end the repaired
//     prefix, and where the current partial literal started;
//   - a strict JSON validator (RFC 8259, the grammar JSON.parse accepts),
//     which tells whether the text so far is complete JSON and, through a
//     snapshot taken at the repair scanner's cut point, whether the
//     repaired text will parse.

// Repair scanner states (fixJson's states).
const (
	fRoot uint8 = iota
	fFinish
	fString
	fStringEscape
	fLiteral
	fNumber
	fObjStart
	fObjKey
	fObjAfterKey
	fObjBeforeValue
	fObjAfterValue
	fObjAfterComma
	fArrStart
	fArrAfterValue
	fArrAfterComma
)

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// fixStep advances the repair scanner over buf[i].
func (p *Parser) fixStep(i int) {
	c := p.buf[i]
	n := len(p.fix) - 1
	switch p.fix[n] {
	case fRoot:
		p.valueStart(c, i, fFinish)
	case fFinish:
		// Everything after a complete top-level value is ignored.
	case fObjStart:
		switch c {
		case '"':
			p.fix[n] = fObjKey
		case '}':
			p.lastValid = i
			p.fix = p.fix[:n]
		}
	case fObjAfterComma:
		if c == '"' {
			p.fix[n] = fObjKey
		}
	case fObjKey:
		switch c {
		case '"':
			p.fix[n] = fObjAfterKey
		case '\\':
			p.fix = append(p.fix, fStringEscape)
		}
	case fObjAfterKey:
		if c == ':' {
			p.fix[n] = fObjBeforeValue
		}
	case fObjBeforeValue:
		p.valueStart(c, i, fObjAfterValue)
	case fObjAfterValue:
		p.afterObjectValue(c, i)
	case fString:
		switch c {
		case '"':
			p.fix = p.fix[:n]
			p.lastValid = i
		case '\\':
			p.fix = append(p.fix, fStringEscape)
		default:
			p.lastValid = i
		}
	case fArrStart:
		if c == ']' {
			p.lastValid = i
			p.fix = p.fix[:n]
		} else {
			p.lastValid = i
			p.valueStart(c, i, fArrAfterValue)
		}
	case fArrAfterValue:
		switch c {
		case ',':
			p.fix[n] = fArrAfterComma
		case ']':
			p.lastValid = i
			p.fix = p.fix[:n]
		default:
			p.lastValid = i
		}
	case fArrAfterComma:
		p.valueStart(c, i, fArrAfterValue)
	case fStringEscape:
		p.fix = p.fix[:n]
		p.lastValid = i
	case fNumber:
		switch {
		case isDigit(c):
			p.lastValid = i
		case c == 'e' || c == 'E' || c == '-' || c == '.':
		case c == ',':
			p.fix = p.fix[:n]
			if p.top() == fArrAfterValue {
				p.afterArrayValue(c, i)
			}
			if p.top() == fObjAfterValue {
				p.afterObjectValue(c, i)
			}
		case c == '}':
			p.fix = p.fix[:n]
			if p.top() == fObjAfterValue {
				p.afterObjectValue(c, i)
			}
		case c == ']':
			p.fix = p.fix[:n]
			if p.top() == fArrAfterValue {
				p.afterArrayValue(c, i)
			}
		default:
			p.fix = p.fix[:n]
		}
	case fLiteral:
		if literalPrefix(p.buf[p.literalStart:i+1]) == "" {
			p.fix = p.fix[:n]
			switch p.top() {
			case fObjAfterValue:
				p.afterObjectValue(c, i)
			case fArrAfterValue:
				p.afterArrayValue(c, i)
			}
		} else {
			p.lastValid = i
		}
	}
}

func (p *Parser) top() uint8 { return p.fix[len(p.fix)-1] }

// valueStart replaces the top state with swap and enters the value that c
// starts, if any.
func (p *Parser) valueStart(c byte, i int, swap uint8) {
	var next uint8
	switch {
	case c == '"':
		next = fString
		p.lastValid = i
	case c == 'f' || c == 't' || c == 'n':
		next = fLiteral
		p.lastValid = i
		p.literalStart = i
	case c == '-':
		next = fNumber
	case isDigit(c):
		next = fNumber
		p.lastValid = i
	case c == '{':
		next = fObjStart
		p.lastValid = i
	case c == '[':
		next = fArrStart
		p.lastValid = i
	default:
		return
	}
	p.fix[len(p.fix)-1] = swap
	p.fix = append(p.fix, next)
}

func (p *Parser) afterObjectValue(c byte, i int) {
	n := len(p.fix) - 1
	switch c {
	case ',':
		p.fix[n] = fObjAfterComma
	case '}':
		p.lastValid = i
		p.fix = p.fix[:n]
	}
}

func (p *Parser) afterArrayValue(c byte, i int) {
	n := len(p.fix) - 1
	switch c {
	case ',':
		p.fix[n] = fArrAfterComma
	case ']':
		p.lastValid = i
		p.fix = p.fix[:n]
	}
}

// literalPrefix returns the literal ("true", "false" or "null", tried in
// fixJson's completion order) that s is a prefix of, or "".
func literalPrefix(s []byte) string {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s) <= len(lit) && lit[:len(s)] == string(s) {
			return lit
		}
	}
	return ""
}

// appendClosers appends what fixJson appends to the valid prefix: for each
// open state, from the innermost out, a closing quote, brace or bracket, or
// the rest of a partial literal.
func (p *Parser) appendClosers(dst []byte) []byte {
	for k := len(p.fix) - 1; k >= 0; k-- {
		switch p.fix[k] {
		case fString:
			dst = append(dst, '"')
		case fObjKey, fObjAfterKey, fObjAfterComma, fObjStart, fObjBeforeValue, fObjAfterValue:
			dst = append(dst, '}')
		case fArrStart, fArrAfterComma, fArrAfterValue:
			dst = append(dst, ']')
		case fLiteral:
			part := p.buf[p.literalStart:]
			if lit := literalPrefix(part); lit != "" {
				dst = append(dst, lit[len(part):]...)
			}
		}
	}
	return dst
}

// Strict validator modes.
const (
	mValue      uint8 = iota // a value must follow (document start, after ':' or an array ',')
	mArrFirst                // after '[': a value or ']'
	mObjFirst                // after '{': a key or '}'
	mObjKey                  // after an object ',': a key
	mAfterKey                // after a key: ':'
	mAfterValue              // after a value: ',' or a closer (or, at depth 0, only whitespace)
	mString                  // inside a string (key tells whether it is an object key)
	mEscape                  // after a backslash in a string
	mHex                     // inside \uXXXX; aux hex digits remain
	mNeg                     // after '-'
	mZero                    // after a leading 0
	mInt                     // in integer digits
	mDot                     // after '.'
	mFrac                    // in fraction digits
	mExp                     // after 'e' or 'E'
	mExpSign                 // after the exponent sign
	mExpDigits               // in exponent digits
	mLit                     // inside a literal: lit says which, aux how many bytes matched
	mError                   // not a prefix of any JSON text; sticky
)

var literals = [...]string{"true", "false", "null"}

// vstate is the strict validator's state apart from its container stack
// (kept by the caller; depth says how much of it is live).
type vstate struct {
	mode  uint8
	aux   uint8
	lit   uint8
	key   bool
	depth int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// complete reports whether the bytes fed so far form one whole JSON text.
func (v *vstate) complete() bool {
	if v.depth != 0 {
		return false
	}
	switch v.mode {
	case mAfterValue, mZero, mInt, mFrac, mExpDigits:
		return true
	}
	return false
}

// step feeds c to the strict validator. cont is the container stack ('{'
// or '['); the possibly grown stack is returned. Bytes that pop a
// container only lower v.depth, so a caller may run step on a copy of a
// vstate over a shared stack as long as it feeds no byte that opens one.
func step(v *vstate, cont []byte, c byte) []byte {
	switch v.mode {
	case mValue, mArrFirst:
		if isSpace(c) {
			return cont
		}
		if c == ']' && v.mode == mArrFirst {
			v.depth--
			v.mode = mAfterValue
			return cont
		}
		switch {
		case c == '{' || c == '[':
			cont = append(cont[:v.depth], c)
			v.depth++
			if c == '{' {
				v.mode = mObjFirst
			} else {
				v.mode = mArrFirst
			}
		case c == '"':
			v.mode, v.key = mString, false
		case c == '-':
			v.mode = mNeg
		case c == '0':
			v.mode = mZero
		case isDigit(c):
			v.mode = mInt
		case c == 't':
			v.mode, v.lit, v.aux = mLit, 0, 1
		case c == 'f':
			v.mode, v.lit, v.aux = mLit, 1, 1
		case c == 'n':
			v.mode, v.lit, v.aux = mLit, 2, 1
		default:
			v.mode = mError
		}
	case mObjFirst, mObjKey:
		switch {
		case isSpace(c):
		case c == '"':
			v.mode, v.key = mString, true
		case c == '}' && v.mode == mObjFirst:
			v.depth--
			v.mode = mAfterValue
		default:
			v.mode = mError
		}
	case mAfterKey:
		switch {
		case isSpace(c):
		case c == ':':
			v.mode = mValue
		default:
			v.mode = mError
		}
	case mAfterValue:
		if isSpace(c) {
			return cont
		}
		if v.depth == 0 {
			v.mode = mError
			return cont
		}
		top := cont[v.depth-1]
		switch {
		case c == ',' && top == '{':
			v.mode = mObjKey
		case c == ',':
			v.mode = mValue
		case c == '}' && top == '{', c == ']' && top == '[':
			v.depth--
		default:
			v.mode = mError
		}
	case mString:
		switch {
		case c == '"':
			if v.key {
				v.mode = mAfterKey
			} else {
				v.mode = mAfterValue
			}
			v.key = false
		case c == '\\':
			v.mode = mEscape
		case c < 0x20:
			v.mode = mError
		}
	case mEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			v.mode = mString
		case 'u':
			v.mode, v.aux = mHex, 4
		default:
			v.mode = mError
		}
	case mHex:
		if !isHex(c) {
			v.mode = mError
			return cont
		}
		v.aux--
		if v.aux == 0 {
			v.mode = mString
		}
	case mNeg:
		switch {
		case c == '0':
			v.mode = mZero
		case isDigit(c):
			v.mode = mInt
		default:
			v.mode = mError
		}
	case mZero, mInt, mFrac:
		switch {
		case isDigit(c) && v.mode != mZero:
		case c == '.' && v.mode != mFrac:
			v.mode = mDot
		case c == 'e' || c == 'E':
			v.mode = mExp
		default:
			v.mode = mAfterValue
			return step(v, cont, c)
		}
	case mDot:
		if isDigit(c) {
			v.mode = mFrac
		} else {
			v.mode = mError
		}
	case mExp:
		switch {
		case c == '+' || c == '-':
			v.mode = mExpSign
		case isDigit(c):
			v.mode = mExpDigits
		default:
			v.mode = mError
		}
	case mExpSign:
		if isDigit(c) {
			v.mode = mExpDigits
		} else {
			v.mode = mError
		}
	case mExpDigits:
		if !isDigit(c) {
			v.mode = mAfterValue
			return step(v, cont, c)
		}
	case mLit:
		lit := literals[v.lit]
		if c != lit[v.aux] {
			v.mode = mError
			return cont
		}
		v.aux++
		if int(v.aux) == len(lit) {
			v.mode = mAfterValue
		}
	}
	return cont
}

// incompleteUTF8 returns how many trailing bytes of b are the start of a
// UTF-8 sequence still waiting for its continuation bytes.
func incompleteUTF8(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c&0xC0 == 0x80 {
			continue // continuation byte
		}
		need := 0
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 2
		case c >= 0xE0 && c <= 0xEF:
			need = 3
		case c >= 0xF0 && c <= 0xF4:
			need = 4
		}
		if need > k {
			return k
		}
		return 0
	}
	return 0
}
