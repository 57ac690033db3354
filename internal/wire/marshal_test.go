package wire

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnescapeJS: HTML-safe escapes become characters; escaped
// backslashes stay.
func TestUnescapeJS(t *testing.T) {
	in := []byte(`{"a":"\u003cb\u003e \u0026 \\u003c \u2028 \n"}`)
	want := "{\"a\":\"<b> & \\\\u003c \u2028 \\n\"}"
	if got := string(UnescapeJS(in)); got != want {
		t.Errorf("got %s want %s", got, want)
	}
	b, err := Marshal(map[string]string{"h": "<a&b>"})
	if err != nil || string(b) != `{"h":"<a&b>"}` {
		t.Errorf("%s %v", b, err)
	}
	if d := cmp.Diff(`"x\"y\\z\u0001é"`, string(AppendString(nil, "x\"y\\z\x01é", StringifyGo))); d != "" {
		t.Error(d)
	}
}

func TestMarshalNoHTMLAndMarshal(t *testing.T) {
	v := map[string]any{"s": "<&>\u2028", "n": 1.5, "a": []int{1}}
	b, err := MarshalNoHTML(v)
	if want := `{"a":[1],"n":1.5,"s":"<&>\u2028"}`; err != nil || string(b) != want {
		t.Errorf("MarshalNoHTML = %s %v, want %s", b, err, want)
	}
	b, err = Marshal(v)
	if want := "{\"a\":[1],\"n\":1.5,\"s\":\"<&>\u2028\"}"; err != nil || string(b) != want {
		t.Errorf("Marshal = %s %v, want %s", b, err, want)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal of a func succeeded")
	}
	raw := []byte(`{"a":1}`)
	if got := UnescapeJS(raw); &got[0] != &raw[0] {
		t.Error("UnescapeJS copied a text without escapes")
	}
}
