package compat

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

// goldenCase is one record of testdata/mastra_golden.json. The file was made
// by running @mastra/schema-compat 1.3.11 itself (on Node, outside this
// repository) over the inputs: for each layer, the JSON Schema its
// processToCompatSchema produces with io "input"; "google" (Zod inputs only)
// is the AI-SDK form from the Google layer's processToAISDKSchema; "none" is
// the conversion Mastra does when no layer applies; "restore" holds values
// given to the OpenAI layer's compat validator and the value it validated
// (null → absent) when valid. The records are hand-written cases, then
// random JSON Schemas ("fuzz-N"), then random Zod schemas ("zfuzz-N"). The
// Node harness that produced them is not part of this repository; set
// COMPAT_GOLDEN to a file of the same shape to check other records.
type goldenCase struct {
	Name    string                     `json:"name"`
	Input   json.RawMessage            `json:"input"`
	Outputs map[string]json.RawMessage `json:"outputs"`
	Restore []struct {
		In    any  `json:"in"`
		Valid bool `json:"valid"`
		Out   any  `json:"out"`
	} `json:"restore"`
}

// goldenProcessors maps a golden output name to the Go function expected to
// produce it.
var goldenProcessors = map[string]func(*jsonschema.Schema) *jsonschema.Schema{
	"openai":           OpenAILayer{}.Process,
	"openai-reasoning": OpenAIReasoningLayer{}.Process,
	"google_json":      processGoogleJSON,
	"google":           GoogleLayer{}.Process,
	"anthropic":        AnthropicLayer{}.Process,
	"deepseek":         DeepSeekLayer{}.Process,
	"meta":             MetaLayer{}.Process,
	"none":             func(s *jsonschema.Schema) *jsonschema.Schema { out, _ := Apply(s, Model{}); return out },
}

func loadGolden(t *testing.T) []goldenCase {
	t.Helper()
	path := "testdata/mastra_golden.json"
	if p := os.Getenv("COMPAT_GOLDEN"); p != "" {
		path = p
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func mustSchema(t *testing.T, raw []byte) *jsonschema.Schema {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("bad schema %s: %v", raw, err)
	}
	return withPropertyOrder(t, &s, raw)
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
	return v
}

func render(t *testing.T, s *jsonschema.Schema) any {
	t.Helper()
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	// The result must also be writable by jsonschema.Schema itself.
	if _, err := json.Marshal(s); err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return decode(t, b)
}

func TestMastraGolden(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.Name, func(t *testing.T) {
			for name, want := range c.Outputs {
				proc, ok := goldenProcessors[name]
				if !ok {
					t.Fatalf("unknown output %q", name)
				}
				in := mustSchema(t, c.Input)
				before := render(t, in)
				got := render(t, proc(in))
				w := trueAsEmpty(decode(t, want))
				if name == "google" || name == "google_json" {
					w = dropNestedDefinitions(w, true)
				}
				if diff := cmp.Diff(w, got); diff != "" {
					t.Errorf("%s: mismatch (-mastra +go):\n%s", name, diff)
				}
				if diff := cmp.Diff(before, render(t, in)); diff != "" {
					t.Errorf("%s: input modified:\n%s", name, diff)
				}
			}
			for i, r := range c.Restore {
				if !r.Valid {
					continue
				}
				compat := OpenAILayer{}.Process(mustSchema(t, c.Input))
				got := RestoreOptional(compat, cloneValue(r.In))
				if diff := cmp.Diff(r.Out, got); diff != "" {
					t.Errorf("restore %d: mismatch (-mastra +go):\n%s", i, diff)
				}
			}
		})
	}
}

// withPropertyOrder sets PropertyOrder on every node of s that has
// properties, from the key order in raw (the JSON s was decoded from), so
// that Go iterates properties in document order as JavaScript does.
func withPropertyOrder(t *testing.T, s *jsonschema.Schema, raw []byte) *jsonschema.Schema {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tree, err := decodeOrdered(dec)
	if err != nil {
		t.Fatal(err)
	}
	applyOrder(s, tree)
	return s
}

// ordered is a JSON object with its key order.
type ordered struct {
	keys []string
	vals map[string]any
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &ordered{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k.(string))
			o.vals[k.(string)] = v
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		var l []any
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token()
		return l, err
	}
	return tok, nil
}

func applyOrder(s *jsonschema.Schema, node any) {
	o, ok := node.(*ordered)
	if s == nil || !ok {
		return
	}
	if p, ok := o.vals["properties"].(*ordered); ok {
		s.PropertyOrder = p.keys
	}
	sub := func(k string, c *jsonschema.Schema) { applyOrder(c, o.vals[k]) }
	subMap := func(k string, m map[string]*jsonschema.Schema) {
		if mo, ok := o.vals[k].(*ordered); ok {
			for name, c := range m {
				applyOrder(c, mo.vals[name])
			}
		}
	}
	subList := func(k string, l []*jsonschema.Schema) {
		if lo, ok := o.vals[k].([]any); ok {
			for i, c := range l {
				if i < len(lo) {
					applyOrder(c, lo[i])
				}
			}
		}
	}
	subMap("properties", s.Properties)
	subMap("patternProperties", s.PatternProperties)
	subMap("definitions", s.Definitions)
	subMap("$defs", s.Defs)
	subMap("dependencies", s.DependencySchemas)
	subMap("dependentSchemas", s.DependentSchemas)
	sub("items", s.Items)
	subList("items", s.ItemsArray)
	subList("prefixItems", s.PrefixItems)
	for k, c := range map[string]*jsonschema.Schema{"additionalItems": s.AdditionalItems, "contains": s.Contains,
		"additionalProperties": s.AdditionalProperties, "propertyNames": s.PropertyNames, "not": s.Not,
		"if": s.If, "then": s.Then, "else": s.Else, "unevaluatedItems": s.UnevaluatedItems,
		"unevaluatedProperties": s.UnevaluatedProperties, "contentSchema": s.ContentSchema} {
		sub(k, c)
	}
	subList("allOf", s.AllOf)
	subList("anyOf", s.AnyOf)
	subList("oneOf", s.OneOf)
}

// trueAsEmpty rewrites additionalProperties: true as {}: jsonschema.Schema
// decodes both to the same empty schema, and Marshal writes it as {}.
func trueAsEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if b, ok := e.(bool); ok && b && k == "additionalProperties" {
				x[k] = map[string]any{}
			} else {
				x[k] = trueAsEmpty(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = trueAsEmpty(e)
		}
	}
	return v
}

// dropNestedDefinitions removes definitions below the root. Mastra's Google
// layer copies the root's definitions into the place of every inlined "#"
// reference; the Go port leaves them out (they are dead: every reference in
// the copy is already inlined, and Gemini does not know the keyword).
func dropNestedDefinitions(v any, root bool) any {
	switch x := v.(type) {
	case map[string]any:
		if !root {
			delete(x, "definitions")
			delete(x, "$defs")
		}
		for k, e := range x {
			x[k] = dropNestedDefinitions(e, false)
		}
	case []any:
		for i, e := range x {
			x[i] = dropNestedDefinitions(e, false)
		}
	}
	return v
}
