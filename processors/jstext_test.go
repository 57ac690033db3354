package processors

import (
	"testing"

	"github.com/gomastra/mastra/internal/jsjson"
)

var jsonTexts = []struct {
	raw  string
	fast bool // taken as it is
}{
	{`{"location":"Paris","units":"metric","days":[1,2,3]}`, true},
	{`{"a":{"b":[true,false,null,"x"]},"c":-12.5,"d":0,"e":0.25,"f":""}`, true},
	{`"plain"`, true},
	{`[]`, true},
	{`{}`, true},
	{`123456789012345`, true},
	{`0.000001`, true},
	{`"tab\there \"quoted\" back\\slash \u001f é 😀"`, true},
	{"{\"k\":\"\u2028\"}", true}, // (the character itself)
	{`{"k":"\u2028"}`, false},
	{`{"location": "Paris"}`, false}, // white space
	{` {"a":1}`, false},              // leading space
	{`{"a":1} `, false},              // trailing space
	{`{"a":1.50}`, false},            // trailing zero
	{`{"a":1e3}`, false},             // exponent
	{`{"a":-0}`, false},              // -0
	{`{"a":0.0000001}`, false},       // JavaScript writes 1e-7
	{`1234567890123456789`, false},   // more than 15 digits
	{`{"a":1,"a":2}`, false},         // repeated key
	{`{"b":1,"2":2}`, false},         // array-index key
	{`"\u003chtml\u003e"`, false},    // escapes JavaScript does not write
	{`"a\/b"`, false},
	{`"\u00e9"`, false},
	{`"\u000A"`, false},
	{`"\u000a"`, false},     // JavaScript writes \n
	{`{"a":[1,2,]}`, false}, // not JSON
	{`{"a":1`, false},
	{`[1 2]`, false},
	{`tru`, false},
	{"\"bad \xff utf-8\"", false},
	{`{"4294967295":1}`, true}, // not an index: 2^32-1
	{`{"0":1}`, false},
	{`{"01":1}`, true},
}

// A text taken as it is is exactly what JSON.stringify(JSON.parse(text))
// writes.
func TestIsJSText(t *testing.T) {
	for _, c := range jsonTexts {
		got := isJSText([]byte(c.raw))
		if got != c.fast {
			t.Errorf("isJSText(%s) = %v, want %v", c.raw, got, c.fast)
		}
		if got {
			if s, err := jsjson.Stringify([]byte(c.raw), ""); err != nil || s != c.raw {
				t.Errorf("isJSText(%s), but JSON.stringify writes %s (%v)", c.raw, s, err)
			}
		}
	}
}

func FuzzIsJSText(f *testing.F) {
	for _, c := range jsonTexts {
		f.Add([]byte(c.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !isJSText(raw) {
			return
		}
		if s, err := jsjson.Stringify(raw, ""); err != nil || s != string(raw) {
			t.Errorf("isJSText(%q), but JSON.stringify writes %q (%v)", raw, s, err)
		}
	})
}
