package main

import (
	"strings"

	"github.com/gomastra/mastra/internal/v8json"
)

// jsonParser makes jsvalue.go's objects.
var jsonParser = v8json.Parser{NewObject: func() v8json.Object { return newObject() }}

// parseJSON is JSON.parse as Node.js 22 (V8) runs it (see v8json): the
// same grammar, the values of jsvalue.go's model and, on failure, the same
// error message, which the Mastra CLI shows in INVALID_JSON details. s must
// be valid UTF-8 (see decodeUTF8).
func parseJSON(s string) (any, error) {
	return jsonParser.Parse(s)
}

// jsTrimSpace is String.prototype.trim: it strips JavaScript white space
// and line terminators from both ends.
func jsTrimSpace(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

// jsTrimStart is String.prototype.trimStart.
func jsTrimStart(s string) string {
	return strings.TrimLeftFunc(s, isJSSpace)
}

func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}
