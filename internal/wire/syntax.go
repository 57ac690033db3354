package wire

import (
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/v8json"
)

// maxDepth bounds nesting so that a hostile body cannot exhaust the
// stack; V8 would report a stack overflow (RangeError) much deeper.
const maxDepth = 10000

var v8Parser = v8json.Parser{MaxDepth: maxDepth}

// SyntaxError returns the message JavaScript's JSON.parse (V8, as in Node
// 22) throws for src, or "" when src is valid JSON. Mastra reports it as
// the issue of an unparsable request body, so the text is V8's, word for
// word (see v8json). Each byte of src that is not UTF-8 counts as one
// U+FFFD; a lone surrogate the message quotes (half of a pair cut by
// V8's context) is kept in its WTF-8 form, as a JavaScript string holds
// it (see SyntaxErrorText).
func SyntaxError(src []byte) string {
	s := string(src)
	if !utf8.Valid(src) {
		s = string([]rune(s))
	}
	if _, err := v8Parser.Parse(s); err != nil {
		return err.Error()
	}
	return ""
}

// SyntaxErrorText is SyntaxError with a lone surrogate written as U+FFFD
// (jsjson.ToUSV): the text package server and the chat route show.
func SyntaxErrorText(src []byte) string { return jsjson.ToUSV(SyntaxError(src)) }
