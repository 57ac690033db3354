package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gomastra/mastra/schema"
)

// This file holds the fuzz targets of the validation pipeline. `go test`
// runs their seeds (f.Add and testdata/fuzz) as ordinary tests; CI runs
// them briefly with -fuzz. The properties, for every input:
//
//   - nothing panics, overflows the stack or hangs;
//   - Validate and ValidateInput never modify their input and are
//     deterministic;
//   - every issue has a Zod code and a non-empty, valid UTF-8 message,
//     and there are at most MaxIssues+1 of them;
//   - ValidateInput returns the first attempt's issues when it fails, and
//     Validate's own result when the input is valid as it stands;
//   - the fast path (ValidJSON) never accepts what the full validator
//     rejects or changes, nor anything that is not JSON;
//   - for the fixed, well-behaved schemas of FuzzValidateInput: a value
//     Validate or ValidateInput accepted validates again.

// fuzzSchema is one fixed schema FuzzValidateInput validates against.
type fuzzSchema struct {
	name string
	c    *schema.Compiled
	// revalidate: an accepted value's output must validate again (true for
	// schemas without defaults inside unions, see checkSchemaValue).
	revalidate bool
}

// fuzzRichSchema exercises most keywords: enums, const, anyOf, a
// discriminated oneOf, $ref/$defs with recursion, patterns, formats,
// numeric and size bounds, prefixItems, uniqueItems, propertyNames,
// patternProperties, defaults and additionalProperties false.
const fuzzRichSchema = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "pattern": "^[a-z][a-z0-9_-]{0,15}$"},
    "kind": {"enum": ["a", "b", "c"]},
    "count": {"type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 5},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "email": {"type": "string", "format": "email"},
    "when": {"type": "string", "format": "date-time"},
    "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8}, "maxItems": 5, "uniqueItems": true},
    "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
    "shape": {"oneOf": [
      {"type": "object", "properties": {"type": {"const": "circle"}, "r": {"type": "number", "minimum": 0}}, "required": ["type", "r"]},
      {"type": "object", "properties": {"type": {"const": "rect"}, "w": {"type": "number"}, "h": {"type": "number"}}, "required": ["type", "w", "h"]}
    ]},
    "value": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
    "tree": {"$ref": "#/$defs/node"},
    "meta": {"type": "object", "additionalProperties": {"type": "string"}, "propertyNames": {"pattern": "^[a-z]+$"}, "maxProperties": 4},
    "headers": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false},
    "nick": {"type": ["string", "null"], "minLength": 2},
    "mode": {"type": "string", "default": "fast"},
    "flags": {"type": "array", "items": {"type": "boolean"}, "minItems": 1},
    "nested": {"type": "object", "properties": {"deep": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}, "required": ["deep"]},
    "not5": {"not": {"const": 5}},
    "both": {"allOf": [{"type": "number"}, {"minimum": -1}, {"maximum": 1}]}
  },
  "required": ["id", "kind"],
  "additionalProperties": false,
  "$defs": {
    "node": {
      "type": "object",
      "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
      },
      "required": ["value"],
      "additionalProperties": false
    }
  }
}`

// fuzzDraft07Schema uses draft-07 spellings: definitions, tuple items,
// additionalItems.
const fuzzDraft07Schema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false},
    "list": {"$ref": "#/definitions/list"},
    "color": {"type": "string", "enum": ["red", "green"]}
  },
  "definitions": {
    "list": {"type": ["object", "null"], "properties": {"head": {"type": "number"}, "tail": {"$ref": "#/definitions/list"}}, "required": ["head"]}
  }
}`

// fuzzGoIn is a Go input type: nested structs, pointers, slices, maps,
// optional fields.
type fuzzGoIn struct {
	Name    string            `json:"name" jsonschema:"the name"`
	Age     int               `json:"age,omitempty"`
	Score   float64           `json:"score,omitempty"`
	Home    fuzzGoAddr        `json:"home"`
	Work    *fuzzGoAddr       `json:"work,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Nick    *string           `json:"nick,omitempty"`
	Any     any               `json:"any,omitempty"`
	Matrix  [][]int           `json:"matrix,omitempty"`
	Enabled bool              `json:"enabled,omitempty"`
}

type fuzzGoAddr struct {
	Street string `json:"street"`
	Zip    *int   `json:"zip,omitempty"`
}

var fuzzFixedSchemas = sync.OnceValue(func() []fuzzSchema {
	must := func(name, text string, revalidate bool, opts ...schema.Option) fuzzSchema {
		c, err := schema.FromJSON([]byte(text), opts...)
		if err != nil {
			panic(fmt.Sprintf("fuzz schema %s: %v", name, err))
		}
		return fuzzSchema{name, c, revalidate}
	}
	goIn, err := schema.For[fuzzGoIn]()
	if err != nil {
		panic(err)
	}
	return []fuzzSchema{
		must("rich", fuzzRichSchema, true),
		must("rich/zod", fuzzRichSchema, true, schema.ZodObjects()),
		must("rich/strip", fuzzRichSchema, true, schema.StripUnknown()),
		must("draft07", fuzzDraft07Schema, true),
		{"go-type", goIn, true},
		must("linked-list", `{"type":"object","properties":{"v":{"type":"number"},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["v"]}`, true),
		must("array-root", `{"type":"array","items":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},"minItems":1}`, true),
		must("prompt", `{"type":"object","properties":{"prompt":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1}},"required":["prompt"]}`, true, schema.ZodObjects()),
		must("stringified", `{"type":"object","properties":{"list":{"type":"array","items":{"type":"number"}},"obj":{"anyOf":[{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},{"type":"null"}]}},"required":["list"]}`, true),
		must("int-range", `{"type":"integer","minimum":-5,"maximum":5}`, true),
		must("string-len", `{"type":"string","minLength":2,"maxLength":4}`, true),
		must("any", `{}`, true),
		must("true", `true`, true),
		must("false", `false`, true),
		must("not-string", `{"not":{"type":"string"}}`, true),
		must("const", `{"const":{"a":[1,2,{"b":null}]}}`, true),
		must("enum-mixed", `{"enum":[1,"1",null,true,[1],{"a":1}]}`, true),
		must("nullable-uuid", `{"type":["string","null"],"format":"uuid"}`, true),
		must("sizes", `{"type":"object","minProperties":1,"maxProperties":3,"additionalProperties":{"type":["number","boolean"]}}`, true),
		must("formats", `{"type":"array","prefixItems":[{"format":"ipv4"},{"format":"ipv6"},{"format":"uri"},{"format":"date"},{"format":"time"},{"format":"duration"},{"format":"jwt"},{"format":"hostname"},{"format":"emoji"}]}`, true),
		must("defaults", `{"type":"object","properties":{"a":{"type":"object","default":{"x":[1]}},"b":{"type":"array","default":[]},"c":{"type":"string","default":"c"}}}`, true),
	}
})

// fuzzValueSeeds are JSON values worth validating against every schema.
var fuzzValueSeeds = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `1.5`, `1e400`, `-1e400`, `1e-400`, `9007199254740993`,
	`123456789012345678901234567890`, `""`, `"a"`, `"abc"`, `"😀"`, `"\ud800"`, `"\u0000"`, `"NaN"`, `"Infinity"`,
	`[]`, `[null]`, `[1,1]`, `[1,"1"]`, `[[[[[]]]]]`, `{}`, `{"":null}`, `{"__proto__":{"a":1}}`,
	`{"id":"abc","kind":"a"}`,
	`{"id":"abc","kind":"a","count":5,"ratio":0.5,"email":"a@b.co","when":"2024-02-29T12:00:00Z","tags":["x","y"],"point":[1,2],"shape":{"type":"circle","r":1},"value":null,"tree":{"value":1,"children":[{"value":2,"children":[]}]},"meta":{"k":"v"},"headers":{"x-a":"b"},"nick":null,"flags":[true],"nested":{"deep":{"x":1}},"not5":4,"both":0}`,
	`{"id":null,"kind":null,"count":null,"ratio":null,"tags":null,"point":null,"shape":null,"tree":null,"meta":null,"nick":null,"mode":null}`,
	`{"id":"Abc","kind":"d","count":7,"ratio":1,"email":"x","when":"2023-02-29T00:00:00Z","tags":["","toolongtag","x","x"],"point":[1,2,3],"shape":{"type":"square"},"tree":{"value":1.5,"children":[{}]},"meta":{"K":1},"headers":{"y":"z"},"nick":"a","flags":[],"nested":{},"not5":5,"both":2,"extra":1}`,
	`{"id":"abc","kind":"a","tags":"[\"x\"]","shape":"{\"type\":\"rect\",\"w\":1,\"h\":2}"}`,
	`{"pair":["a",1],"list":{"head":1,"tail":{"head":2,"tail":null}},"color":"red"}`,
	`{"pair":["a",1,2],"list":{"tail":{}},"color":"blue"}`,
	`{"name":"n","home":{"street":"s","zip":null},"work":null,"tags":null,"labels":{"a":"b"},"nick":null,"any":[{}],"matrix":[[1],[2.5]]}`,
	`{"name":null,"home":null}`,
	`{"v":1,"next":{"v":2,"next":{"v":"x","next":null}}}`,
	`[{"q":"x"},{"q":null},{}]`,
	`{"query":"find it"}`, `{"prompt":null,"message":"m"}`, `{"prompt":"","input":"i"}`,
	`{"list":"[1,2]","obj":"{\"k\":\"v\"}"}`, `{"list":"[1,","obj":"{}"}`, `{"list":" [\"a\"]"}`,
	`{"a":1,"b":true,"c":false,"d":"x"}`, `{"a":{"x":[1]},"b":null}`,
	`["1.2.3.4","::1","https://x.y","2024-01-01","12:00","P1D","a.b.c","example.com","😀"]`,
	`["1.2.3.4","1.2.3.4","not a uri","2024-13-01","25:00","P","eyJhbGciOiJIUzI1NiJ9.e30.x","-bad-","a"]`,
	`"00000000-0000-0000-0000-000000000000"`, `"not-a-uuid"`,
	`{"a":[1,2,{"b":null}]}`, `{"a":[1,2,{"b":0}]}`,
}

// fuzzSchemaSeeds are schema texts for FuzzCompile, recursive $ref
// schemas included.
var fuzzSchemaSeeds = []string{
	fuzzRichSchema, fuzzDraft07Schema,
	`{}`, `true`, `false`, `null`, `[]`, `""`, `0`, ``, `{`, "\xef\xbb\xbf{}",
	`{"type":"object","properties":{"child":{"$ref":"#"}}}`,
	`{"type":"array","items":{"$ref":"#"}}`,
	`{"$defs":{"t":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}},"$ref":"#/$defs/t"}`,
	`{"definitions":{"a":{"properties":{"b":{"$ref":"#/definitions/b"}}},"b":{"properties":{"a":{"$ref":"#/definitions/a"}}}},"$ref":"#/definitions/a"}`,
	`{"type":"object","additionalProperties":{"$ref":"#"}}`,
	`{"properties":{"a":{"type":"string"}},"$ref":"#/properties/a"}`,
	`{"$ref":"#/$defs/missing"}`, `{"$ref":"http://example.com/s.json"}`, `{"$ref":"#/$defs"}`, `{"$ref":"#/x/y"}`,
	`{"$ref":"#/$defs/a~1b","$defs":{"a/b":{"type":"string"}}}`,
	`{"type":"nope"}`, `{"type":["string","nope"]}`, `{"type":5}`, `{"type":[]}`,
	`{"pattern":"("}`, `{"pattern":"(?=x)"}`, `{"patternProperties":{"(":{}}}`, `{"pattern":"a{1000}{1000}"}`,
	`{"minLength":-1,"maxLength":-2,"minItems":-3,"maxItems":-4,"minProperties":-5,"maxProperties":-6}`,
	`{"minLength":1e3}`, `{"minLength":1.5}`, `{"minLength":"1"}`, `{"minLength":99999999999999999999}`,
	`{"multipleOf":0}`, `{"multipleOf":-1}`, `{"multipleOf":1e-320}`, `{"multipleOf":1e308,"minimum":-1e308}`,
	`{"enum":[]}`, `{"enum":null}`, `{"const":null}`, `{"enum":[{"a":[1,{"b":null}]},1e400]}`,
	`{"anyOf":[]}`, `{"oneOf":[{},{}]}`, `{"allOf":[false]}`, `{"not":{"not":{}}}`, `{"not":true}`,
	`{"anyOf":[{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},{"type":"object","properties":{"k":{"enum":["b","c"]}},"required":["k"]}]}`,
	`{"prefixItems":[{"type":"string"}],"items":false,"minItems":2}`,
	`{"items":[{"type":"string"}],"additionalItems":{"type":"number"}}`,
	`{"type":"object","properties":{"a":{"default":{"b":1}}},"required":["a"]}`,
	`{"type":"object","properties":{"a":{"default":1e400}}}`,
	`{"properties":{"a":{"default":}}}`,
	`{"propertyNames":{"enum":["a"]},"additionalProperties":{"type":"number"}}`,
	`{"propertyNames":{"$ref":"#"}}`,
	`{"type":"string","nullable":true}`, `{"nullable":true}`,
	`{"format":"date-time"}`, `{"format":"starts_with","pattern":"^ab.*"}`, `{"format":"ends_with","pattern":".*z$"}`, `{"format":"includes","pattern":"mid"}`,
	`{"type":"integer","minimum":9007199254740991}`, `{"exclusiveMinimum":true}`,
	strings.Repeat(`{"items":`, 50) + `{"type":"integer"}` + strings.Repeat(`}`, 50),
	strings.Repeat(`{"anyOf":[{"type":"null"},`, 30) + `{"type":"string"}` + strings.Repeat(`]}`, 30),
}

// fuzzWatchdog crashes the process, naming the input, if one call runs
// longer than work could (60s, or $FUZZ_HANG_AFTER); the fuzzing engine
// then records the input as a failure. Go's fuzzing has no such limit of
// its own. Call it as `defer fuzzWatchdog(name, input)()`.
func fuzzWatchdog(what string, input []byte) func() {
	timer := time.AfterFunc(fuzzHangAfter(), func() {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		fmt.Fprintf(os.Stderr, "%s: still running after %v on input %q\n%s\n", what, fuzzHangAfter(), truncateBytes(input, 2000), buf)
		panic(what + ": hang")
	})
	return func() { timer.Stop() }
}

func truncateBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// decodeJSON decodes one JSON value as the tool pipeline does (UseNumber)
// or as json.Unmarshal does (float64).
func decodeJSON(raw []byte, useNumber bool) (any, bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if useNumber {
		dec.UseNumber()
	}
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

var zodCodes = map[string]bool{
	"invalid_type": true, "invalid_value": true, "too_small": true, "too_big": true,
	"invalid_format": true, "not_multiple_of": true, "unrecognized_keys": true,
	"invalid_union": true, "invalid_key": true, "invalid_element": true, "custom": true,
}

func issuesJSON(is []schema.Issue) string {
	b, err := json.Marshal(is)
	if err != nil {
		return "marshal error: " + err.Error()
	}
	return string(b)
}

func checkIssues(t *testing.T, what string, issues []schema.Issue) {
	t.Helper()
	if len(issues) > schema.MaxIssues+1 {
		t.Errorf("%s: %d issues, more than MaxIssues+1", what, len(issues))
	}
	for _, is := range issues {
		if !zodCodes[is.Code] {
			t.Errorf("%s: issue with unknown code %q: %+v", what, is.Code, is)
		}
		if is.Message == "" || !utf8.ValidString(is.Message) || strings.Contains(is.Message, "%!") {
			t.Errorf("%s: bad issue message %q", what, is.Message)
		}
	}
}

// normaliseNullishFor mirrors step 2 of ValidateInput (see its doc).
func normaliseNullishFor(c *schema.Compiled, v any, present bool) any {
	if present && v != nil {
		return v
	}
	switch c.Type() {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	}
	return nil
}

// checkSchemaValue checks every property of the file's doc comment for one
// schema and one value. raw is v's JSON text (nil when v was not decoded
// from text).
func checkSchemaValue(t *testing.T, name string, c *schema.Compiled, revalidate bool, raw []byte, v any, present bool) {
	t.Helper()
	what := fmt.Sprintf("schema %s, value %.300q", name, raw)
	snapshot := deepCopy(v)

	out, issues := c.Validate(v)
	if !reflect.DeepEqual(v, snapshot) {
		t.Fatalf("%s: Validate modified its input", what)
	}
	checkIssues(t, what, issues)
	if len(issues) == 0 && out == nil && v != nil {
		t.Errorf("%s: Validate accepted a non-null value and returned nil", what)
	}
	out2, issues2 := c.Validate(v)
	if issuesJSON(issues) != issuesJSON(issues2) || !reflect.DeepEqual(out, out2) {
		t.Errorf("%s: Validate is not deterministic:\n%s\n%s", what, issuesJSON(issues), issuesJSON(issues2))
	}
	if revalidate && len(issues) == 0 {
		if _, again := c.Validate(out); len(again) > 0 {
			t.Errorf("%s: Validate's output %v does not validate again: %s", what, out, issuesJSON(again))
		}
	}

	in, inIssues := schema.ValidateInput(c, v, present)
	if !reflect.DeepEqual(v, snapshot) {
		t.Fatalf("%s: ValidateInput modified its input", what)
	}
	checkIssues(t, what+" (ValidateInput)", inIssues)
	first := normaliseNullishFor(c, v, present)
	firstOut, firstIssues := c.Validate(first)
	switch {
	case len(firstIssues) == 0:
		if len(inIssues) > 0 || !reflect.DeepEqual(in, firstOut) {
			t.Errorf("%s: the input is valid, yet ValidateInput gave %v, %s instead of %v", what, in, issuesJSON(inIssues), firstOut)
		}
	case len(inIssues) > 0:
		if issuesJSON(inIssues) != issuesJSON(firstIssues) {
			t.Errorf("%s: ValidateInput failed with issues other than the first attempt's:\n got %s\nwant %s", what, issuesJSON(inIssues), issuesJSON(firstIssues))
		}
	default:
		if revalidate {
			if _, again := c.Validate(in); len(again) > 0 {
				t.Errorf("%s: ValidateInput's output %v does not validate again: %s", what, in, issuesJSON(again))
			}
		}
	}

	if raw != nil {
		if fv, ok := any(c).(interface{ ValidJSON([]byte) bool }); ok && fv.ValidJSON(raw) {
			if !json.Valid(raw) {
				t.Errorf("%s: ValidJSON accepted invalid JSON", what)
			} else if vn, ok := decodeJSON(raw, true); ok {
				o, is := c.Validate(vn)
				if len(is) > 0 {
					t.Errorf("%s: ValidJSON accepted a value Validate rejects: %s", what, issuesJSON(is))
				} else if !reflect.DeepEqual(o, vn) {
					t.Errorf("%s: ValidJSON accepted a value Validate changes: %v -> %v", what, vn, o)
				}
			}
		}
	}
}

func FuzzValidateInput(f *testing.F) {
	for _, s := range fuzzValueSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("[", 200) + strings.Repeat("]", 200)))
	f.Add([]byte(`{"id":"a","kind":"a","tree":` + strings.Repeat(`{"value":1,"children":[`, 100) + `{"value":2}` + strings.Repeat(`]}`, 100) + `}`))
	f.Add([]byte(`{"v":0,"next":` + strings.Repeat(`{"v":1,"next":`, 100) + `null` + strings.Repeat(`}`, 100) + `}`))
	schemas := fuzzFixedSchemas()
	f.Fuzz(func(t *testing.T, raw []byte) {
		defer fuzzWatchdog("FuzzValidateInput", raw)()
		if !json.Valid(raw) {
			for _, s := range schemas {
				if fv, ok := any(s.c).(interface{ ValidJSON([]byte) bool }); ok && fv.ValidJSON(raw) {
					t.Errorf("schema %s: ValidJSON accepted invalid JSON %q", s.name, raw)
				}
			}
			return
		}
		for _, useNumber := range []bool{true, false} {
			v, ok := decodeJSON(raw, useNumber)
			if !ok {
				continue // a number beyond float64 without UseNumber
			}
			for _, s := range schemas {
				checkSchemaValue(t, s.name, s.c, s.revalidate, raw, v, true)
			}
		}
	})
}

// TestFuzzValidateInputAbsent covers the one input text cannot express:
// no input at all.
func TestFuzzValidateInputAbsent(t *testing.T) {
	for _, s := range fuzzFixedSchemas() {
		checkSchemaValue(t, s.name, s.c, s.revalidate, nil, nil, false)
	}
}

func FuzzCompile(f *testing.F) {
	for i, s := range fuzzSchemaSeeds {
		f.Add([]byte(s), []byte(fuzzValueSeeds[i%len(fuzzValueSeeds)]))
	}
	f.Fuzz(func(t *testing.T, schemaText, value []byte) {
		defer fuzzWatchdog("FuzzCompile", append(append(append([]byte(nil), schemaText...), " | "...), value...))()
		var values [][]byte
		if json.Valid(value) {
			values = append(values, value)
		}
		for _, s := range []string{`null`, `true`, `0`, `-1.5`, `1e400`, `""`, `"abc"`, `[]`, `[1,"a",null,[{}]]`, `{}`, `{"a":1,"b":[{"c":null}],"prompt":null,"query":"q"}`} {
			values = append(values, []byte(s))
		}
		for _, opts := range [][]schema.Option{nil, {schema.StripUnknown()}, {schema.ZodObjects()}} {
			c, err := schema.FromJSON(schemaText, opts...)
			if err != nil {
				if c != nil {
					t.Errorf("FromJSON returned both a schema and an error: %v", err)
				}
				continue
			}
			if c == nil {
				t.Fatal("FromJSON returned neither a schema nor an error")
			}
			_ = c.Type()
			_ = c.Warnings()
			_ = schema.TypeOf(c)
			for _, raw := range values {
				for _, useNumber := range []bool{true, false} {
					v, ok := decodeJSON(raw, useNumber)
					if !ok {
						continue
					}
					checkSchemaValue(t, "fuzzed", c, false, raw, v, true)
				}
			}
			checkSchemaValue(t, "fuzzed", c, false, nil, nil, false)
		}
	})
}

// fuzzHangAfter is how long one call may run before fuzzWatchdog fires.
func fuzzHangAfter() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("FUZZ_HANG_AFTER")); err == nil {
		return d
	}
	return 60 * time.Second
}
