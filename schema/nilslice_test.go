package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/gomastra/mastra/schema"
)

type nilSliceIn struct {
	Items  []string         `json:"items"`
	Maybe  *[]string        `json:"maybe,omitempty"`
	ByName map[string][]int `json:"byName,omitempty"`
	Fixed  [2]int           `json:"fixed,omitempty"`
}

// TestNilSlicesServeAsArrays: a Go slice field is served as "type":
// "array" (a model is not told null is allowed), a *[]T stays nullable.
func TestNilSlicesServeAsArrays(t *testing.T) {
	c, err := schema.For[nilSliceIn]()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(c.JSONSchema())
	want := `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}},` +
		`"maybe":{"type":["null","array"],"items":{"type":"string"}},` +
		`"byName":{"type":"object","additionalProperties":{"type":"array","items":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}}},` +
		`"fixed":{"type":"array","items":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"minItems":2,"maxItems":2}},` +
		`"required":["items"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("served schema\n got %s\nwant %s", got, want)
	}
}

type nilSliceOut struct {
	Items []string `json:"items"`
	Tags  []string `json:"tags" schema:"minItems=1"`
}

// TestNilSlicesValidateAsEmpty: Go encodes a nil slice as null, so a
// value a Go program produced (a tool's output) must pass: null is read
// as the empty array, against the slice's own constraints.
func TestNilSlicesValidateAsEmpty(t *testing.T) {
	c := schema.MustFor[nilSliceOut]()
	data, _ := json.Marshal(nilSliceOut{Tags: []string{"a"}})
	v, _ := decodeJSON(data, true)
	if out, is := c.Validate(v); len(is) > 0 {
		t.Errorf("%s: %s", data, issueLines(is))
	} else if got, _ := json.Marshal(out); string(got) != string(data) {
		t.Errorf("output %s, want the input %s", got, data)
	}
	if !c.ValidJSON(data) {
		t.Errorf("fast path refuses %s", data)
	}
	data, _ = json.Marshal(nilSliceOut{})
	v, _ = decodeJSON(data, true)
	_, is := c.Validate(v)
	if got, want := issueLines(is), "too_small tags: Too small: expected array to have >=1 items"; got != want {
		t.Errorf("%s:\n got %s\nwant %s", data, got, want)
	}
	if c.ValidJSON(data) {
		t.Errorf("fast path accepts %s", data)
	}
}

// TestUnsignedIntegersGetTheSafeMaximum: uint, uint64 and uintptr are
// bounded above too (jsonschema-go gives them only a minimum of 0).
func TestUnsignedIntegersGetTheSafeMaximum(t *testing.T) {
	type in struct {
		U   uint    `json:"u"`
		U64 uint64  `json:"u64"`
		P   uintptr `json:"p"`
	}
	c := schema.MustFor[in]()
	for name, p := range c.JSONSchema().Properties {
		got, _ := json.Marshal(p)
		if want := `{"type":"integer","minimum":0,"maximum":9007199254740991}`; string(got) != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if _, is := c.Validate(map[string]any{"u": 1e16, "u64": 0, "p": 0}); issueLines(is) != "too_big u: Too big: expected int to be <=9007199254740991" {
		t.Errorf("issues: %s", issueLines(is))
	}
}
