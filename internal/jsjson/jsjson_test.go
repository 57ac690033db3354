package jsjson

import (
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
