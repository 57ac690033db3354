package wire

import (
	"encoding/json"
	"testing"
)

func TestAppendString(t *testing.T) {
	tests := []struct {
		in   string
		e    Escaping
		want string
	}{
		{"<a&b>\u2028\u2029", Stringify, "\"<a&b>\u2028\u2029\""},
		{"<a&b>\u2028\u2029", StringifyReplaced, "\"<a&b>\u2028\u2029\""},
		{"<a&b>\u2028\u2029", StringifyGo, "\"<a&b>\u2028\u2029\""},
		{"<a&b>\u2028\u2029", EncodingJSON, `"\u003ca\u0026b\u003e\u2028\u2029"`},
		{"\"\\\b\f\n\r\t\x01\x7f", Stringify, `"\"\\\b\f\n\r\t\u0001` + "\x7f\""},
		{"\"\\\b\f\n\r\t\x01\x7f", EncodingJSON, `"\"\\\b\f\n\r\t\u0001` + "\x7f\""},
		{"a\xffb", Stringify, "\"a\ufffdb\""},
		{"a\xffb", StringifyReplaced, "\"a\ufffdb\""},
		{"a\xffb", StringifyGo, `"a\ufffdb"`},
		{"a\xffb", EncodingJSON, `"a\ufffdb"`},
		{"\xed\xa0\xbd", Stringify, `"\ud83d"`},
		{"\xed\xa0\xbd", StringifyReplaced, "\"\ufffd\ufffd\ufffd\""},
		{"\xed\xa0\xbd", StringifyGo, `"\ufffd\ufffd\ufffd"`},
		{"é😀\ufffd", StringifyGo, "\"é😀\ufffd\""},
	}
	for _, tt := range tests {
		if got := string(AppendString([]byte("x"), tt.in, tt.e)); got != "x"+tt.want {
			t.Errorf("AppendString(%q, %d) = %s, want %s", tt.in, tt.e, got[1:], tt.want)
		}
	}
	// EncodingJSON is encoding/json's escaping, byte for byte.
	for _, s := range nastyStrings {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s, EncodingJSON); string(got) != string(want) {
			t.Errorf("EncodingJSON(%q) = %s, json.Marshal %s", s, got, want)
		}
	}
}
