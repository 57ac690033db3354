package jsjson

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestStringifyMatchesJavaScript(t *testing.T) {
	tests := []struct{ in, indent, want string }{
		{`{"b":1,"a":2}`, "", `{"b":1,"a":2}`},
		{`{"b":1,"10":2,"2":3,"a":4}`, "", `{"2":3,"10":2,"b":1,"a":4}`},
		{`{"a":1,"b":2,"a":3}`, "", `{"a":3,"b":2}`},
		{`{"01":1,"1":2}`, "", `{"1":2,"01":1}`},
		{`[1.0, 1e21, 1e-7, 0.1, -0, 100, 1E2, 123456789012345678901234]`, "", `[1,1e+21,1e-7,0.1,0,100,100,1.2345678901234569e+23]`},
		{`1e400`, "", `null`},
		{`"<a&b>\u2028\u0001\/"`, "", "\"<a&b>\u2028\\u0001/\""},
		{`{}`, "  ", `{}`},
		{`{"a":[],"b":{},"c":[1,{"d":null}]}`, "  ", "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null\n    }\n  ]\n}"},
	}
	for _, tt := range tests {
		got, err := Stringify([]byte(tt.in), tt.indent)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Stringify(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a":1} 2`, `nul`} {
		if _, err := Stringify([]byte(bad), ""); err == nil {
			t.Errorf("Stringify(%q) accepted invalid JSON", bad)
		}
	}
}

func TestTruncateUTF16(t *testing.T) {
	s := strings.Repeat("a", 199) + "😀b"
	got, cut := TruncateUTF16(s, 200)
	if !cut || got != strings.Repeat("a", 199)+"\ufffd" {
		t.Errorf("a split surrogate pair must end in U+FFFD, got %q", got[190:])
	}
	if got, cut := TruncateUTF16("héllo", 200); cut || got != "héllo" {
		t.Errorf("short strings are kept: %q %v", got, cut)
	}
	if n := UTF16Len("a😀é"); n != 4 {
		t.Errorf("UTF16Len = %d, want 4", n)
	}
}

func TestReplaceKeys(t *testing.T) {
	got, err := ReplaceKeys([]byte(`{"z":1,"apiToken":"s","n":{"Password":"p","k":[{"token":1}]}}`),
		func(k string) bool {
			return strings.Contains(strings.ToLower(k), "token") || strings.Contains(strings.ToLower(k), "password")
		}, "[REDACTED]")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":1,"apiToken":"[REDACTED]","n":{"Password":"[REDACTED]","k":[{"token":"[REDACTED]"}]}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFormatNumber(t *testing.T) {
	for f, want := range map[float64]string{0: "0", 1: "1", -1.5: "-1.5", 1e21: "1e+21", 1.5e-7: "1.5e-7", 123e-20: "1.23e-18", 9007199254740991: "9007199254740991"} {
		if got := FormatNumber(f); got != want {
			t.Errorf("FormatNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

// props is an Object of another value model.
type props []any

func (p props) Members() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for i := 0; i+1 < len(p); i += 2 {
			if !yield(p[i].(string), p[i+1]) {
				return
			}
		}
	}
}

func TestAppend(t *testing.T) {
	v := props{"a", []any{1.5, math.Inf(1), Undefined{}, nil, int8(3)}, "u", Undefined{}, "s", "<\xed\xa0\xbd\U0001F600\x01>", "e", props{"x", Undefined{}}, "n", json.Number("1E2")}
	if got, want := string(Append(nil, v, "")), `{"a":[1.5,null,null,null,null],"s":"<\ud83d`+"\U0001F600"+`\u0001>","e":{},"n":100}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := string(Append([]byte("x="), props{"a", []any{}, "b", props{}}, "  ")), "x={\n  \"a\": [],\n  \"b\": {}\n}"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestAppendString(t *testing.T) {
	s := "\"\\\n\x1f<\u2028\xff\xed\xa0\x80é"
	for mode, want := range map[Invalid]string{
		Replace:        `"\"\\\n\u001f<` + "\u2028\ufffd\ufffd\ufffd\ufffd" + `é"`,
		ReplaceEscaped: `"\"\\\n\u001f<` + "\u2028" + `\ufffd\ufffd\ufffd\ufffdé"`,
		WTF8:           `"\"\\\n\u001f<` + "\u2028\ufffd" + `\ud800é"`,
	} {
		if got := string(AppendString(nil, s, mode)); got != want {
			t.Errorf("mode %d: got %s want %s", mode, got, want)
		}
	}
}

func TestUTF16(t *testing.T) {
	s := "a\U0001F600\xed\xa0\xbd" // a, a surrogate pair, a lone high surrogate
	u := ToUTF16(s)
	if want := []uint16{'a', 0xD83D, 0xDE00, 0xD83D}; !slices.Equal(u, want) || UTF16Len(s) != 4 {
		t.Errorf("ToUTF16 = %x, UTF16Len = %d", u, UTF16Len(s))
	}
	if got := FromUTF16(u); got != s {
		t.Errorf("FromUTF16 = %q", got)
	}
	if got := FromUTF16(u[1:2]); got != "\xed\xa0\xbd" {
		t.Errorf("half a pair = %q", got)
	}
	if got := ToUSV(s); got != "a\U0001F600\ufffd" {
		t.Errorf("ToUSV = %q", got)
	}
}

func TestDecode(t *testing.T) {
	b := Builder[string]{
		Scalar: func(v any) string { return fmt.Sprintf("%T(%v)", v, v) },
		Array:  func(e []string) string { return "[" + strings.Join(e, " ") + "]" },
		Object: func(k, v []string) string { return fmt.Sprint(k, v) },
	}
	got, err := Decode([]byte(`{"b":[1.50,"x",true,null],"a":{},"b":[]}`), b)
	if want := "[b a b] [[json.Number(1.50) string(x) bool(true) <nil>(<nil>)] [] [] []]"; err != nil || got != want {
		t.Errorf("got %s %v\nwant %s", got, err, want)
	}
	if _, err := Decode([]byte(`{} {}`), b); err == nil {
		t.Error("trailing data accepted")
	}
}
