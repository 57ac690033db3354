package server

import (
	"unicode/utf8"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/internal/v8json"
)

// v8MaxDepth bounds nesting so that a hostile body cannot exhaust the
// stack; V8 would report a stack overflow (RangeError) much deeper.
const v8MaxDepth = 10000

var v8Parser = v8json.Parser{MaxDepth: v8MaxDepth}

// v8SyntaxError returns the message JavaScript's JSON.parse (V8, as in
// Node 22) throws for src, or "" when src is valid JSON. Mastra reports it
// as the issue of an unparsable request body, so the text is V8's, word for
// word (see v8json). Each byte of src that is not UTF-8 counts as one
// U+FFFD, and a lone surrogate the message quotes (half of a pair) is
// written as U+FFFD.
func v8SyntaxError(src []byte) string {
	s := string(src)
	if !utf8.Valid(src) {
		s = string([]rune(s))
	}
	if _, err := v8Parser.Parse(s); err != nil {
		return jsjson.ToUSV(err.Error())
	}
	return ""
}
