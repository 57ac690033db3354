package compat

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

func TestRestoreOptionalRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		value  string // valid for schema; optional keys absent
		answer string // what a strict-mode model sends: the absent keys as null
	}{
		{
			name:   "flat",
			schema: `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1},"units":{"enum":["c","f"]}},"required":["city"]}`,
			value:  `{"city":"Oslo"}`,
			answer: `{"city":"Oslo","days":null,"units":null}`,
		},
		{
			name:   "nested objects and arrays",
			schema: `{"type":"object","properties":{"user":{"type":"object","properties":{"name":{"type":"string"},"nick":{"type":"string"},"tags":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"number"}},"required":["k"]}}},"required":["name"]},"note":{"type":"string"}},"required":["user"]}`,
			value:  `{"user":{"name":"a","tags":[{"k":"x"},{"k":"y","v":2}]}}`,
			answer: `{"user":{"name":"a","nick":null,"tags":[{"k":"x","v":null},{"k":"y","v":2}]},"note":null}`,
		},
		{
			name:   "optional object present with optional inside",
			schema: `{"type":"object","properties":{"addr":{"type":"object","properties":{"street":{"type":"string"},"zip":{"type":"string","pattern":"^[0-9]+$"}},"required":["street"]}}}`,
			value:  `{"addr":{"street":"s"}}`,
			answer: `{"addr":{"street":"s","zip":null}}`,
		},
		{
			name:   "type arrays and unions",
			schema: `{"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":["object","array"],"properties":{"x":{"type":"integer"}},"items":{"type":"string"}},"c":{"anyOf":[{"type":"object","properties":{"p":{"type":"string"},"q":{"type":"string"}},"required":["p"]},{"type":"integer"}]}},"required":["a","c"]}`,
			value:  `{"a":null,"b":{},"c":{"p":"z"}}`,
			answer: `{"a":null,"b":{"x":null},"c":{"p":"z","q":null}}`,
		},
		{
			name:   "integer answer picks the integer branch",
			schema: `{"type":"object","properties":{"c":{"anyOf":[{"type":"object","properties":{"p":{"type":"string"}}},{"type":"number"}]}},"required":["c"]}`,
			value:  `{"c":3}`,
			answer: `{"c":3}`,
		},
		{
			name:   "recursion through $defs",
			schema: `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"$defs":{"Node":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/Node"}},"required":["v"]}}}`,
			value:  `{"root":{"v":1,"next":{"v":2}}}`,
			answer: `{"root":{"v":1,"next":{"v":2,"next":null}}}`,
		},
		{
			name:   "recursion through the root",
			schema: `{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`,
			value:  `{"name":"a","kids":[{"name":"b"},{"name":"c","kids":[]}]}`,
			answer: `{"name":"a","kids":[{"name":"b","kids":null},{"name":"c","kids":[]}]}`,
		},
		{
			name:   "allOf",
			schema: `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"boolean"}}}]}`,
			value:  `{"a":"x"}`,
			answer: `{"a":"x","b":null}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := mustSchema(t, []byte(tt.schema))
			resolved, err := orig.Resolve(nil)
			if err != nil {
				t.Fatal(err)
			}
			want := decode(t, []byte(tt.value))
			if err := resolved.Validate(want); err != nil {
				t.Fatalf("test value invalid: %v", err)
			}
			for _, m := range []Model{{Provider: "openai.chat", ModelID: "gpt-4o"}, {Provider: "openai.chat", ModelID: "o3-mini"}} {
				compat, layer := Apply(orig, m)
				if layer != NameOpenAI && layer != NameOpenAIReasoning {
					t.Fatalf("layer %q", layer)
				}
				answer := decode(t, []byte(tt.answer))
				got := RestoreOptional(compat, answer)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: restored (-want +got):\n%s", layer, diff)
				}
				if err := resolved.Validate(got); err != nil {
					t.Errorf("%s: restored value invalid: %v", layer, err)
				}
			}
		})
	}
}

func TestRestoreOptionalKeepsOtherNulls(t *testing.T) {
	orig := mustSchema(t, []byte(`{"type":"object","properties":{"req":{"type":["string","null"]},"opt":{"type":"string"},"list":{"type":"array","items":{"type":["integer","null"]}}},"required":["req","list"]}`))
	compat := OpenAILayer{}.Process(orig)
	got := RestoreOptional(compat, decode(t, []byte(`{"req":null,"opt":null,"list":[null,1],"extra":null}`)))
	want := decode(t, []byte(`{"req":null,"list":[null,1],"extra":null}`))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestRestoreOptionalOddValues(t *testing.T) {
	compat := OpenAILayer{}.Process(mustSchema(t, []byte(`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{"type":"string"}}},"l":{"type":"array","items":{"type":"object","properties":{"y":{"type":"string"}}}}}}`)))
	for _, v := range []any{nil, "s", 1.5, true, []any{nil}, map[string]any{"o": "not an object", "l": map[string]any{}},
		map[string]any{"o": []any{}, "l": []any{nil, "x", map[string]any{"y": nil}}}, json.Number("3")} {
		RestoreOptional(compat, v) // must not panic
	}
	got := RestoreOptional(compat, map[string]any{"l": []any{nil, map[string]any{"y": nil}}})
	want := map[string]any{"l": []any{nil, map[string]any{}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	// A reference loop without progress terminates.
	loop := &jsonschema.Schema{Ref: "#/definitions/A", Definitions: map[string]*jsonschema.Schema{"A": {Ref: "#/definitions/A"}}}
	if got := RestoreOptional(loop, map[string]any{"a": nil}); len(got.(map[string]any)) != 1 {
		t.Error("changed")
	}
	// Mutation is in place: the returned map is the given one.
	in := map[string]any{"o": nil}
	out := RestoreOptional(compat, in).(map[string]any)
	if len(in) != 0 || len(out) != 0 {
		t.Error("not in place")
	}
	// Any Go integer counts as an integer.
	if jsonType(int64(2)) != "integer" || jsonType(2.5) != "number" || jsonType(json.Number("4")) != "integer" || jsonType(nil) != "" {
		t.Error("jsonType")
	}
}
