package jsjson

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JavaScript strings are sequences of UTF-16 code units and may hold a lone
// surrogate (JSON.parse('"\ud800"')), which UTF-8 cannot. Where that
// matters a Go string holds one in its three-byte WTF-8 form (ED A0..BF
// 80..BF, bytes Go's UTF-8 decoder refuses); the functions below read and
// write that form.

// Invalid says how AppendString writes what in s is not UTF-8.
type Invalid uint8

const (
	// Replace writes each byte that is not UTF-8 as U+FFFD, the character
	// a JavaScript string decoded from those bytes holds.
	Replace Invalid = iota
	// ReplaceEscaped writes each byte that is not UTF-8 as the escape
	// \ufffd, as encoding/json does.
	ReplaceEscaped
	// WTF8 writes a lone surrogate in its WTF-8 form as the lowercase
	// \udXXX escape JSON.stringify writes for it, and other bytes that are
	// not UTF-8 as Replace does.
	WTF8
)

// AppendString appends s as a JSON string literal escaped as JSON.stringify
// escapes it: only '"', '\\' and control characters, never '<', '>', '&'
// or U+2028; invalid says how bytes that are not UTF-8 are written.
func AppendString(b []byte, s string, invalid Invalid) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0 // s[start:i] is still to be copied
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			if invalid == WTF8 {
				if u, ok := SurrogateAt(s, i); ok {
					b = append(b, s[start:i]...)
					b = append(b, '\\', 'u', hex[u>>12], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
					i += 3
					start = i
					continue
				}
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size > 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			if invalid == ReplaceEscaped {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, "\ufffd"...)
			}
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		if e := shortEscapes[c]; e != 0 {
			b = append(b, '\\', e)
		} else {
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// shortEscapes are the two-character escapes JSON.stringify writes, by the
// character escaped; other control characters are written as \u00XX.
var shortEscapes = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// WriteString writes s as a JSON string literal escaped as JSON.stringify
// escapes it, bytes that are not UTF-8 as U+FFFD (AppendString with
// Replace).
func WriteString(b *strings.Builder, s string) {
	var buf [128]byte
	b.Write(AppendString(buf[:0], s, Replace))
}

// SurrogateAt reports whether s holds the WTF-8 form of a surrogate code
// point (U+D800..U+DFFF) at byte i, and which.
func SurrogateAt(s string, i int) (uint16, bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
		return 0xD000 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F), true
	}
	return 0, false
}

// AppendWTF8 appends the code point or UTF-16 code unit r to b, a lone
// surrogate in its WTF-8 form (which Go's UTF-8 encoder refuses).
func AppendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// ToUTF16 returns s as UTF-16 code units (JavaScript's view of a string),
// lone surrogates kept and each other byte that is not UTF-8 as U+FFFD.
func ToUTF16(s string) []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if u, ok := SurrogateAt(s, i); ok {
			out = append(out, u)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

// FromUTF16 is the inverse of ToUTF16: surrogate pairs become code points,
// lone surrogates their WTF-8 form.
func FromUTF16(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
			c = 0x10000 + (c-0xD800)<<10 + rune(u[i+1]-0xDC00)
			i++
		}
		b = AppendWTF8(b, c)
	}
	return string(b)
}

// ToUSV replaces lone surrogates by U+FFFD, as the URL and Fetch standards
// do before encoding a string as UTF-8.
func ToUSV(s string) string {
	if !strings.Contains(s, "\xED") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if _, ok := SurrogateAt(s, i); ok {
			b.WriteString("\ufffd")
			i += 3
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// UTF16Len returns the length of s in UTF-16 code units, JavaScript's
// String.prototype.length: a lone surrogate (WTF-8) and each byte that is
// not UTF-8 count one.
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if _, ok := SurrogateAt(s, i); ok {
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

// TruncateUTF16 returns the longest prefix of s that is at most max UTF-16
// code units long, and whether s was cut. JavaScript's slice may split a
// surrogate pair, leaving a lone surrogate that every JSON decoder turns
// into U+FFFD; Go strings cannot hold half a pair, so the prefix ends in
// U+FFFD in that case.
func TruncateUTF16(s string, max int) (string, bool) {
	n := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		if n+w > max {
			if w == 2 && n+1 == max {
				return s[:i] + "\ufffd", true
			}
			return s[:i], true
		}
		n += w
	}
	return s, false
}
