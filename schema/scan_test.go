package schema

import (
	"bytes"
	"encoding/json"
	"testing"
)

// scanSchemas cover every keyword the fast path judges by itself and some
// it must hand over.
var scanSchemas = []string{
	`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer","minimum":0,"maximum":10}},"required":["a","b"],"additionalProperties":false}`,
	`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":4,"pattern":"^[a-z]+$"},"n":{"type":["number","null"],"exclusiveMinimum":0,"multipleOf":0.5}},"required":["s"]}`,
	`{"type":"object","properties":{"list":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3},"flag":{"type":"boolean"}},"required":["list"]}`,
	`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`,
	`{"type":"object","properties":{"d":{"type":"string","default":"x"},"e":{"enum":["a","b"]}}}`,
	`{"type":"array","items":{"type":"integer"}}`,
	`{"type":"string","format":"email"}`,
}

func TestFastPathAgreesWithValidate(t *testing.T) {
	values := []string{
		`{"a":1,"b":2}`, `{"a":1,"b":11}`, `{"a":1}`, `{"a":1.5,"b":2}`, `{"a":1.0,"b":2}`, `{"a":1,"b":2,"c":3}`,
		`{"a":1,"b":2,"a":3}`, `{"s":"abc"}`, `{"s":"ABC"}`, `{"s":"a"}`, `{"s":"abcde"}`, `{"s":"ab","n":null}`,
		`{"s":"ab","n":0}`, `{"s":"ab","n":1.5}`, `{"s":"ab","n":1.25}`, `{"s":"\u0061b"}`, `{"list":[]}`, `{"list":["a"]}`,
		`{"list":["a",1]}`, `{"list":["a","b","c","d"]}`, `{"list":["a"],"flag":"yes"}`, `{"o":{"x":1}}`, `{"o":{}}`, `{}`,
		`{"d":"y"}`, `{"e":"a"}`, `[1,2]`, `[1,"2"]`, `"a@b.co"`, `"nope"`, `null`, `1`, `{"a":1,"b":2} x`, `{"a":1,"b":2`,
		` {"a" : 1 , "b" : 2 } `, `{"a":-0,"b":0}`, `{"a":99999999999999999999,"b":1}`, `{"s":"ab","n":1e400}`,
	}
	for _, src := range scanSchemas {
		c, err := FromJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			checkFastPath(t, c, []byte(v))
		}
	}
}

func checkFastPath(t *testing.T, c *Compiled, data []byte) {
	t.Helper()
	if !c.ValidJSON(data) {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		t.Errorf("%s: fast path accepted invalid JSON", data)
		return
	}
	issues := newIssueList()
	_, changed := c.root.validate(v, true, nil, issues)
	if issues.found > 0 || changed {
		t.Errorf("%s: fast path accepted what Validate rejects or changes: %v (changed %v)", data, issues.items, changed)
	}
}

func FuzzFastPathAgreesWithValidate(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":2}`, `{"s":"abc","n":0.5}`, `{"list":["a"]}`, `[1]`, `{"o":{"x":1}}`} {
		f.Add([]byte(s))
	}
	var compiled []*Compiled
	for _, src := range scanSchemas {
		c, err := FromJSON([]byte(src))
		if err != nil {
			f.Fatal(err)
		}
		compiled = append(compiled, c)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range compiled {
			checkFastPath(t, c, data)
		}
	})
}

func TestRawMessageFieldsAcceptAnyJSON(t *testing.T) {
	type withRaw struct {
		Args json.RawMessage `json:"args"`
	}
	c, err := For[withRaw]()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{map[string]any{"args": map[string]any{"a": 1.0}}, map[string]any{"args": []any{1.0}}, map[string]any{"args": "x"}} {
		if _, issues := c.Validate(v); len(issues) > 0 {
			t.Errorf("%v: %v", v, issues)
		}
	}
}
