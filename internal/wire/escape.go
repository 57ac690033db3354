package wire

import (
	"encoding/json"

	"github.com/gomastra/mastra/internal/jsjson"
)

// Escaping is how AppendString writes a string. The three JSON.stringify
// escapings escape only '"', '\\' and control characters (never '<',
// '>', '&', U+2028 or U+2029) and differ only in what they write for
// bytes that are not UTF-8.
type Escaping uint8

const (
	// Stringify is JSON.stringify's escaping of a JavaScript string held
	// in Go: a lone surrogate in its WTF-8 form is written as the escape
	// \udXXX, each other byte that is not UTF-8 as U+FFFD.
	Stringify Escaping = iota
	// StringifyReplaced is JSON.stringify's escaping of a string that went
	// through encoding/json first: each byte that is not UTF-8 (the bytes
	// of a WTF-8 surrogate included) is written as U+FFFD.
	StringifyReplaced
	// StringifyGo is JSON.stringify's escaping with each byte that is not
	// UTF-8 written as the escape \ufffd, as encoding/json writes it: the
	// escaping of Marshal's strings.
	StringifyGo
	// EncodingJSON is encoding/json's escaping: also '<', '>', '&',
	// U+2028 and U+2029 as \u escapes, bytes that are not UTF-8 as
	// \ufffd.
	EncodingJSON
)

// AppendString appends s to b as a JSON string literal escaped e's way.
func AppendString(b []byte, s string, e Escaping) []byte {
	switch e {
	case StringifyReplaced:
		return jsjson.AppendString(b, s, jsjson.Replace)
	case StringifyGo:
		return jsjson.AppendString(b, s, jsjson.ReplaceEscaped)
	case EncodingJSON:
		q, _ := json.Marshal(s) // a string always marshals
		return append(b, q...)
	}
	return jsjson.AppendString(b, s, jsjson.WTF8)
}
