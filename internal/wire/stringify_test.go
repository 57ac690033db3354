package wire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gomastra/mastra/internal/jsjson"
)

// AppendStringified's shortcut for texts JSON.stringify would not change must
// agree with the full re-rendering on every text.
func TestAppendStringifiedAgreesWithStringify(t *testing.T) {
	texts := []string{
		`{"a":1,"b":[1,2,{"c":"d"}]}`, `{"2":1,"a":2}`, `{"a":1,"a":2}`, `{"a":{"a":1},"b":{"a":2}}`,
		`[{"a":1},{"a":2}]`, `"\u00e9"`, `"a\bb"`, `"a\"b\\c\n\r\t"`, `1.5`, `1e21`, `-0`, `-5`, `[-0]`,
		`12345678901234567890`, `123456789012345`, `{"x":"<&>"}`, `{ "a": 1 }`, `[]`, `{}`, `null`, `true`,
		`"\u2028"`, `{"10":1}`, `{"010":1}`, `{"a\"":1,"a\\":2}`, `18.5`, `18.50`, `1.0`, `-0.5`, `0.1e1`,
		`1e-7`, `0.000001`, `-1E5`, `[1,-2,3.25,{"t":-18.5}]`, `100000000000000000000`, `1e+21`, `-0.0`,
	}
	// And every value the recordings of server/aisdk hold.
	paths, _ := filepath.Glob("../../server/aisdk/testdata/convert/*.json")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Chunks []json.RawMessage `json:"chunks"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		for _, c := range f.Chunks {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(c, &m)
			texts = append(texts, string(c), string(m["payload"]))
		}
	}
	checked := 0
	for _, text := range texts {
		if text == "" {
			continue
		}
		want, err := jsjson.Stringify([]byte(text), "")
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		got, err := AppendStringified(nil, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("AppendStringified(%s) = %s, JSON.stringify writes %s", text, got, want)
		}
		checked++
	}
	if checked < 100 {
		t.Errorf("checked %d texts", checked)
	}
}
