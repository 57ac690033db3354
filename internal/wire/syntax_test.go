package wire

import (
	"strings"
	"testing"
)

func TestV8Messages(t *testing.T) {
	for src, want := range map[string]string{
		`{bad json`:                           `Expected property name or '}' in JSON at position 1 (line 1 column 2)`,
		`{"a":1`:                              `Expected ',' or '}' after property value in JSON at position 6 (line 1 column 7)`,
		`[1,2`:                                `Expected ',' or ']' after array element in JSON at position 4 (line 1 column 5)`,
		`{"a" 1}`:                             `Expected ':' after property name in JSON at position 5 (line 1 column 6)`,
		`{"a":1,}`:                            `Expected double-quoted property name in JSON at position 7 (line 1 column 8)`,
		`[`:                                   `Unexpected end of JSON input`,
		``:                                    `Unexpected end of JSON input`,
		`{"a":}`:                              `Unexpected token '}', "{"a":}" is not valid JSON`,
		`{"a": tru}`:                          `Unexpected token '}', "{"a": tru}" is not valid JSON`,
		`{"messages": "hi", x}`:               `Expected double-quoted property name in JSON at position 19 (line 1 column 20)`,
		`{"aaaaaaaaaaaaaaaaaaaaaaaaa": nope}`: `Unexpected token 'o', ..."aaaaaa": nope}" is not valid JSON`,
		`"abc`:                                `Unterminated string in JSON at position 4 (line 1 column 5)`,
		"{\n\"a\":01}":                        `Unexpected number in JSON at position 7 (line 2 column 6)`,
		`1 2`:                                 `Unexpected non-whitespace character after JSON at position 2 (line 1 column 3)`,
		`-x`:                                  `No number after minus sign in JSON at position 1 (line 1 column 2)`,
		`1.`:                                  `Unterminated fractional number in JSON at position 2 (line 1 column 3)`,
		`1e+`:                                 `Exponent part is missing a number in JSON at position 3 (line 1 column 4)`,
		`"\x"`:                                `Bad escaped character in JSON at position 2 (line 1 column 3)`,
		"\"\x01\"":                            `Bad control character in string literal in JSON at position 1 (line 1 column 2)`,
		`undefined`:                           `"undefined" is not valid JSON`,
		`{"ok":true}`:                         ``,
	} {
		if got := SyntaxErrorText([]byte(src)); got != want {
			t.Errorf("%q:\n got  %s\n want %s", src, got, want)
		}
	}
}

// TestV8SyntaxErrorBytes: what SyntaxErrorText adds to v8json (checked
// against Node 22 there): bytes that are not UTF-8 count one U+FFFD each,
// a quoted half of a surrogate pair is U+FFFD, nesting is bounded.
func TestV8SyntaxErrorBytes(t *testing.T) {
	for src, want := range map[string]string{
		"😀":                                   `Unexpected token '�', "😀" is not valid JSON`,
		"\xff":                                `Unexpected token '�', "�" is not valid JSON`,
		"{\"a\":\xe2\x82}":                    `Unexpected token '�', "{"a":��}" is not valid JSON`,
		`{"aaaaaaaaaaaaaaaaaaaa": 😀x}`:        `Unexpected token '�', ..."aaaaaaa": 😀x}" is not valid JSON`,
		"[\"\xe2\x82\", x]":                   `Unexpected token 'x', "["��", x]" is not valid JSON`,
		"xaaaaaaaaaaaaaaaaaaaa":               `Unexpected token 'x', "xaaaaaaaaa"... is not valid JSON`, // 21 units: context
		`"\`:                                  `Unexpected end of JSON input`,
		strings.Repeat("[", maxDepth+1) + "1": "Maximum call stack size exceeded",
		strings.Repeat("[", maxDepth) + "1" + strings.Repeat("]", maxDepth): "",
	} {
		if got := SyntaxErrorText([]byte(src)); got != want {
			t.Errorf("%.40q:\n got  %s\n want %s", src, got, want)
		}
	}
}

// TestSyntaxErrorKeepsLoneSurrogates: SyntaxError keeps a quoted half of
// a surrogate pair in its WTF-8 form (mcpserver shows it so);
// SyntaxErrorText writes it as U+FFFD.
func TestSyntaxErrorKeepsLoneSurrogates(t *testing.T) {
	src := []byte(`{"aaaaaaaaaaaaaaaaaaaa": 😀x}`)
	want := "Unexpected token '\xed\xa0\xbd', ...\"aaaaaaa\": \U0001F600x}\" is not valid JSON"
	if got := SyntaxError(src); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := SyntaxErrorText(src), `Unexpected token '�', ..."aaaaaaa": 😀x}" is not valid JSON`; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
