package processors

import (
	"math"
	"unicode"
)

// Counter counts the tokens of a text. TokenLimiter counts with one.
type Counter interface {
	CountTokens(text string) int
}

// CounterFunc is a function that counts tokens, as a Counter.
type CounterFunc func(text string) int

// CountTokens returns f(text).
func (f CounterFunc) CountTokens(text string) int { return f(text) }

// Estimate is the Counter Mastra counts with: EstimateTokens. It is
// TokenLimiter's default.
var Estimate Counter = CounterFunc(EstimateTokens)

// EstimateTokens estimates the tokens of text as Mastra 1.71 does (its
// TokenLimiter counts with tokenx 1.3.0's estimateTokenCount, no BPE
// vocabulary): the text is cut into runs of white space, of punctuation
// (.,!?;(){}[]<>:/\|@#$%^&*+=`~_-) and of other characters, and each run
// costs
//
//   - white space: nothing;
//   - a run holding a CJK character (Han, Hangul, katakana, CJK symbols
//     and full-width forms; not hiragana, as in tokenx): one token per
//     character;
//   - ASCII digits only, or at most 3 UTF-16 code units: one token;
//   - punctuation: one token per two characters, rounded up;
//   - anything else: one token per 6 characters, rounded up — per 3 when
//     the run holds a German or French accented letter (ä, ö, ü, ß, é, è,
//     ç, ñ, ...), per 3.5 for a Polish or Czech one (ą, ł, ś, č, ř, ...).
//
// Lengths are JavaScript's: UTF-16 code units (an emoji counts 2). The
// estimate is within a few tens of percent of o200k_base for English prose
// and code; for an exact count use a BPE Counter (package
// processors/o200k).
func EstimateTokens(text string) int {
	n, kind := 0, -1
	var seg segment
	for _, r := range text {
		k := classOf(r)
		if k != kind {
			if kind >= 0 {
				n += seg.tokens(kind)
			}
			seg, kind = segment{accent: noAccent}, k
		}
		seg.add(r)
	}
	if kind >= 0 {
		n += seg.tokens(kind)
	}
	return n
}

// The kinds of runs EstimateTokens cuts a text into.
const (
	kindOther = iota
	kindSpace
	kindPunct
)

// asciiKinds are the kinds of the ASCII characters.
var asciiKinds = func() (t [128]int8) {
	for r := range rune(128) {
		switch {
		case isJSSpace(r):
			t[r] = kindSpace
		case isPunct(r):
			t[r] = kindPunct
		}
	}
	return t
}()

func classOf(r rune) int {
	if r < 128 {
		return int(asciiKinds[r])
	}
	if isJSSpace(r) {
		return kindSpace
	}
	return kindOther
}

// segment is what a run's estimate depends on, gathered a character at
// a time.
type segment struct {
	units, runes  int  // UTF-16 code units, code points
	cjk, nonDigit bool // holds a CJK character, a character not a digit
	accent        int  // the first accent class with a letter in the run
}

func (s *segment) add(r rune) {
	s.runes++
	s.units += utf16Units(r)
	if r < '0' || r > '9' {
		s.nonDigit = true
	}
	if r >= 0xC0 {
		if isCJK(r) {
			s.cjk = true
		}
		if c, ok := accentOf[r]; ok && c < s.accent {
			s.accent = c
		}
	}
}

// tokens is the estimate of a run of kind k.
func (s *segment) tokens(k int) int {
	switch {
	case k == kindSpace:
		return 0
	case s.cjk:
		return s.runes
	case !s.nonDigit, s.units <= 3:
		return 1
	case k == kindPunct:
		return (s.units + 1) / 2
	}
	perTok := 6.0
	if s.accent != noAccent {
		perTok = accentClasses[s.accent].perTok
	}
	return int(math.Ceil(float64(s.units) / perTok))
}

func utf16Units(r rune) int {
	if r >= 0x10000 && r <= unicode.MaxRune {
		return 2
	}
	return 1
}

// isJSSpace reports whether r is white space as JavaScript's \s has it.
func isJSSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r == ' ', r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A,
		r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// isPunct reports whether r is one of the characters tokenx counts as
// punctuation.
func isPunct(r rune) bool {
	switch r {
	case '.', ',', '!', '?', ';', '(', ')', '{', '}', '[', ']', '<', '>', ':', '/', '\\', '|',
		'@', '#', '$', '%', '^', '&', '*', '+', '=', '`', '~', '_', '-':
		return true
	}
	return false
}

// cjkRanges are the ranges tokenx counts one token per character in.
var cjkRanges = [...][2]rune{
	{0x4E00, 0x9FFF}, {0x3400, 0x4DBF}, {0x3000, 0x303F}, {0xFF00, 0xFFEF}, {0x30A0, 0x30FF},
	{0x2E80, 0x2EFF}, {0x31C0, 0x31EF}, {0x3200, 0x32FF}, {0x3300, 0x33FF}, {0xAC00, 0xD7AF},
	{0x1100, 0x11FF}, {0x3130, 0x318F}, {0xA960, 0xA97F}, {0xD7B0, 0xD7FF},
}

func isCJK(r rune) bool {
	for _, rg := range cjkRanges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// Accented letters and the characters per token of a run holding one, in
// tokenx's order of precedence (its patterns are case-insensitive).
var accentClasses = [...]struct {
	letters string
	perTok  float64
}{
	{"äöüßẞ", 3},
	{"éèêëàâîïôûùüÿçœæáíóúñ", 3},
	{"ąćęłńóśźżěščřžýůúďťň", 3.5},
}

// noAccent is a run's accent class when it holds no accented letter.
const noAccent = len(accentClasses)

// accentOf maps each accented letter, and its upper-case form, to the
// first class that has it.
var accentOf = func() map[rune]int {
	m := map[rune]int{}
	for i := len(accentClasses) - 1; i >= 0; i-- {
		for _, r := range accentClasses[i].letters {
			m[r] = i
			if u := unicode.ToUpper(r); u >= 0x80 {
				m[u] = i
			}
		}
	}
	return m
}()
