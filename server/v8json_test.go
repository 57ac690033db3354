package server

import (
	"strings"
	"testing"
)

// TestV8SyntaxErrorBytes: what v8SyntaxError adds to v8json (checked
// against Node 22 there): bytes that are not UTF-8 count one U+FFFD each,
// a quoted half of a surrogate pair is U+FFFD, nesting is bounded.
func TestV8SyntaxErrorBytes(t *testing.T) {
	for src, want := range map[string]string{
		"😀":                                     `Unexpected token '�', "😀" is not valid JSON`,
		"\xff":                                  `Unexpected token '�', "�" is not valid JSON`,
		"{\"a\":\xe2\x82}":                      `Unexpected token '�', "{"a":��}" is not valid JSON`,
		`{"aaaaaaaaaaaaaaaaaaaa": 😀x}`:          `Unexpected token '�', ..."aaaaaaa": 😀x}" is not valid JSON`,
		"[\"\xe2\x82\", x]":                     `Unexpected token 'x', "["��", x]" is not valid JSON`,
		"xaaaaaaaaaaaaaaaaaaaa":                 `Unexpected token 'x', "xaaaaaaaaa"... is not valid JSON`, // 21 units: context
		`"\`:                                    `Unexpected end of JSON input`,
		strings.Repeat("[", v8MaxDepth+1) + "1": "Maximum call stack size exceeded",
		strings.Repeat("[", v8MaxDepth) + "1" + strings.Repeat("]", v8MaxDepth): "",
	} {
		if got := v8SyntaxError([]byte(src)); got != want {
			t.Errorf("%.40q:\n got  %s\n want %s", src, got, want)
		}
	}
}
