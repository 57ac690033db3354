package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
)

// tokenize splits text into search terms the way Mastra's tool search
// does: JavaScript's toLowerCase, then a split on runs of whitespace (the
// JavaScript \s class) and the characters -_.,;:!?()[]{}'", keeping the
// pieces at least two UTF-16 code units long. Punctuation other than the
// separators stays inside terms, and no stopwords are dropped.
func tokenize(text string) []string {
	return splitTerms(jsLower(text), nil)
}

// splitTerms appends the terms of already lowercased text to dst.
func splitTerms(lower string, dst []string) []string {
	start := -1
	for i, r := range lower {
		if isSeparator(r) {
			if start >= 0 {
				dst = appendTerm(dst, lower[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		dst = appendTerm(dst, lower[start:])
	}
	return dst
}

func appendTerm(dst []string, term string) []string {
	// Four bytes or more are two UTF-16 units or more.
	if len(term) < 4 && jsjson.UTF16Len(term) < 2 {
		return dst
	}
	return append(dst, term)
}

// isSeparator reports whether r splits terms: JavaScript's \s or one of
// -_.,;:!?()[]{}'".
func isSeparator(r rune) bool {
	switch r {
	case '-', '_', '.', ',', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}', '\'', '"':
		return true
	}
	return isJSSpace(r)
}

// isJSSpace is JavaScript's \s: the ECMAScript WhiteSpace and
// LineTerminator characters. It differs from unicode.IsSpace: U+FEFF is a
// space, U+0085 is not.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// jsLower is JavaScript's String.prototype.toLowerCase: the simple
// lowercase mappings, plus the two SpecialCasing rules that apply without
// a locale — U+0130 (İ) becomes "i" and a combining dot above, and a
// capital sigma at the end of a word becomes the final sigma ς.
func jsLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch r {
		case '\u0130':
			b.WriteString("i\u0307")
		case '\u03a3':
			if finalSigma(s, i) {
				b.WriteRune('\u03c2')
			} else {
				b.WriteRune('\u03c3')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition for the sigma at byte i of
// s: a cased letter comes before it (case-ignorable characters skipped)
// and none comes after it.
func finalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for _, r := range s[i+len("\u03a3"):] {
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

// cased is Unicode's Cased property.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: marks, format
// characters, modifiers and the word-internal punctuation of Word_Break
// MidLetter, MidNumLet and Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019', '\u2024', '\u2027',
		'\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
