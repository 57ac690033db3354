package schema_test

import (
	"encoding/json"
	"fmt"
	"github.com/gomastra/mastra/internal/jsonvalue"
	"runtime"
	"strings"
	"testing"

	"github.com/gomastra/mastra/schema"
)

// Bad values and bad schemas, one kind per test: validation returns issues
// or a value and compilation an error or a schema, never a panic or a
// crash, in memory proportional to the input. Memory is checked with
// runtime.MemStats (bytes allocated); no test measures wall-clock time.
//
// Tests whose t.Skip message starts with "BUG" pin down a known bug: each
// passes once the bug is fixed and its t.Skip removed.

func mustSchema(t *testing.T, text string, opts ...schema.Option) *schema.Compiled {
	t.Helper()
	c, err := schema.FromJSON([]byte(text), opts...)
	if err != nil {
		t.Fatalf("FromJSON(%s): %v", text, err)
	}
	return c
}

// allocated returns the bytes allocated while f ran (the tests using it
// are not parallel).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func issueLines(is []schema.Issue) string {
	var lines []string
	for _, i := range is {
		lines = append(lines, i.Code+" "+i.PathString()+": "+i.Message)
	}
	return strings.Join(lines, "\n")
}

func nested(depth int, leaf any) any {
	v := leaf
	for i := 0; i < depth; i++ {
		v = []any{v}
	}
	return v
}

// TestBadInputCyclicRefs: schemas whose $ref (through allOf, anyOf, oneOf
// or not) leads back to the same value without consuming any of it. Zod
// cannot express them; a JSON Schema from an MCP server can hold one.
// Compile must reject them (or Validate report them): recursing until the
// Go stack overflows is a fatal error no recover can catch, which kills the
// whole process (an agent server, say). It used to.
func TestBadInputCyclicRefs(t *testing.T) {
	for _, text := range []string{
		`{"$ref":"#"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"anyOf":[{"$ref":"#"}]}`,
		`{"anyOf":[{"type":"string"},{"$ref":"#"}]}`,
		`{"oneOf":[{"$ref":"#"},{"type":"null"}]}`,
		`{"allOf":[{"$ref":"#"}]}`,
		`{"not":{"$ref":"#"}}`,
		`{"$ref":"#/properties/a","properties":{"a":{"$ref":"#"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"#/properties/a"}}}`,
		`{"type":"array","items":{"$ref":"#/items"}}`,
		`{"type":"object","properties":{"s":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/x"}]}}}`,
	} {
		t.Run(text, func(t *testing.T) {
			c, err := schema.FromJSON([]byte(text))
			if err != nil {
				return // rejected: fine
			}
			for _, v := range []any{nil, "s", 1.0, []any{[]any{}}, map[string]any{"a": map[string]any{}, "s": "x"}} {
				_, _ = c.Validate(v)
				_, _ = schema.ValidateInput(c, v, true)
			}
		})
	}
}

// TestBadInputRecursiveSchemas: recursion that consumes the value is
// fine, at any depth the decoder allows.
func TestBadInputRecursiveSchemas(t *testing.T) {
	list := mustSchema(t, `{"type":"object","properties":{"v":{"type":"number"},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["v"]}`)
	var v any = nil
	for i := 0; i < 1000; i++ {
		v = map[string]any{"v": float64(i), "next": v}
	}
	if _, is := list.Validate(v); len(is) > 0 {
		t.Errorf("1000-long list: %s", issueLines(is))
	}
	v = map[string]any{"v": "bad", "next": v}
	for i := 0; i < 1000; i++ {
		v = map[string]any{"v": float64(i), "next": v}
	}
	// Zod's union: no branch matched and none got past its type checks,
	// so one "Invalid input" at the first union.
	_, is := list.Validate(v)
	if issueLines(is) != "invalid_union next: Invalid input" {
		t.Errorf("want one union issue, got %d: %.200s", len(is), issueLines(is))
	}

	tree := mustSchema(t, `{"$defs":{"t":{"type":"array","items":{"$ref":"#/$defs/t"}}},"$ref":"#/$defs/t"}`)
	for _, depth := range []int{0, 1, 100, 2000} {
		if _, is := tree.Validate(nested(depth, []any{})); len(is) > 0 {
			t.Errorf("depth %d: %s", depth, issueLines(is))
		}
		_, is := schema.ValidateInput(tree, nested(depth, "leaf"), true)
		if len(is) != 1 || is[0].Message != "Invalid input: expected array, received string" || len(is[0].Path) != depth {
			t.Errorf("depth %d: %d issues, %.200s", depth, len(is), issueLines(is))
		}
	}
}

// TestBadInputDeepValues: values nested far deeper than JSON text can be
// (encoding/json stops at 10000), built in Go, against schemas that do not
// follow them all the way down.
func TestBadInputDeepValues(t *testing.T) {
	const depth = 100000
	deepArr := nested(depth, "leaf")
	var deepObj any = "leaf"
	for i := 0; i < depth; i++ {
		deepObj = map[string]any{"a": deepObj, "n": nil}
	}
	for _, text := range []string{
		`{}`, `true`, `{"type":"array"}`, `{"type":"array","items":{"type":"array"}}`, `{"type":"object"}`,
		`{"type":"object","properties":{"a":{"type":"object"}},"required":["a"]}`,
		`{"type":"array","items":{"type":"array","items":{"type":"string"}}}`,
		`{"type":"string"}`, `{"enum":[1,2]}`, `{"const":[[[]]]}`, `{"type":"array","uniqueItems":true}`,
		`{"anyOf":[{"type":"string"},{"type":"array","maxItems":0}]}`,
	} {
		c := mustSchema(t, text)
		for name, v := range map[string]any{"arrays": deepArr, "objects": deepObj} {
			t.Run(text+"/"+name, func(t *testing.T) {
				_, is := c.Validate(v)
				_, is2 := schema.ValidateInput(c, v, true)
				checkIssues(t, text, is)
				checkIssues(t, text, is2)
			})
		}
	}
	// JSON text: 100000 levels is an encoding/json error before any schema
	// is involved; 9999 decodes.
	var v any
	if err := json.Unmarshal([]byte(strings.Repeat("[", 100000)+strings.Repeat("]", 100000)), &v); err == nil {
		t.Errorf("encoding/json decoded 100000 levels")
	}
	if err := json.Unmarshal([]byte(strings.Repeat("[", 9999)+strings.Repeat("]", 9999)), &v); err != nil {
		t.Fatal(err)
	}
	c := mustSchema(t, fuzzRichSchema)
	if _, is := schema.ValidateInput(c, v, true); len(is) != 1 {
		t.Errorf("9999 levels against the rich schema: %s", issueLines(is))
	}
}

// TestBadInputDeepRecursiveValueMemory: a value d levels deep through a
// recursive schema must not cost O(d²) memory (it did when each level
// copied the path so far: ~1 GB for these 20 KB of JSON).
func TestBadInputDeepRecursiveValueMemory(t *testing.T) {
	c := mustSchema(t, `{"$defs":{"t":{"type":"array","items":{"$ref":"#/$defs/t"}}},"$ref":"#/$defs/t"}`)
	v := nested(9999, "leaf")
	var is []schema.Issue
	n := allocated(func() { _, is = c.Validate(v) })
	if len(is) != 1 {
		t.Errorf("want one issue, got %d", len(is))
	}
	if n > 64<<20 {
		t.Errorf("validating 9999 levels allocated %d MB", n>>20)
	}
}

// TestBadInputNullStrippingMemory: the null-stripping retry must not be
// quadratic in the nesting depth (it was, ~100 MB here, when it built the
// dotted path of every node of the input).
func TestBadInputNullStrippingMemory(t *testing.T) {
	c := mustSchema(t, `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	for _, raw := range []string{
		`{"a":1,"c":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"a":1,"c":` + strings.Repeat(`{"k":`, 9999) + "1" + strings.Repeat("}", 9999) + `}`,
	} {
		v, _ := decodeJSON([]byte(raw), true)
		var is []schema.Issue
		n := allocated(func() { _, is = schema.ValidateInput(c, v, true) })
		if issueLines(is) != "invalid_type b: Invalid input: expected number, received undefined" {
			t.Errorf("issues: %s", issueLines(is))
		}
		if n > 32<<20 {
			t.Errorf("%d bytes of input: allocated %d MB", len(raw), n>>20)
		}
	}
}

func TestBadInputHugeValues(t *testing.T) {
	size := 10 << 20
	if testing.Short() {
		size = 1 << 20
	}
	huge := strings.Repeat("a", size)
	for _, c := range []struct {
		schema, want string
	}{
		{`{"type":"string","maxLength":5}`, `too_big root: Too big: expected string to have <=5 characters`},
		{`{"type":"string","minLength":5}`, ``},
		{`{"type":"string","pattern":"^a+$"}`, ``},
		{`{"type":"string","pattern":"^(a|b)*c$"}`, `invalid_format root: Invalid string: must match pattern /^(a|b)*c$/`},
		{`{"type":"string","format":"email"}`, `invalid_format root: Invalid email address`},
		{`{"type":"string","format":"uri"}`, `invalid_format root: Invalid URL`},
		{`{"type":"string","format":"date-time"}`, `invalid_format root: Invalid ISO datetime`},
		{`{"type":"string","format":"uuid"}`, `invalid_format root: Invalid UUID`},
		{`{"type":"string","format":"hostname"}`, `invalid_format root: Invalid hostname`},
		{`{"type":"string","format":"jwt"}`, `invalid_format root: Invalid JWT`},
		{`{"type":"string","format":"emoji"}`, `invalid_format root: Invalid emoji`},
		{`{"type":"string","format":"ipv6"}`, `invalid_format root: Invalid IPv6 address`},
		{`{"enum":["a","b"]}`, `invalid_value root: Invalid option: expected one of "a"|"b"`},
		{`{"type":"number"}`, `invalid_type root: Invalid input: expected number, received string`},
	} {
		t.Run(c.schema, func(t *testing.T) {
			s := mustSchema(t, c.schema)
			var is []schema.Issue
			n := allocated(func() { _, is = schema.ValidateInput(s, huge, true) })
			if got := issueLines(is); got != c.want {
				t.Errorf("issues %q, want %q", got, c.want)
			}
			if n > 8*uint64(size) {
				t.Errorf("validating a 10 MB string allocated %d MB", n>>20)
			}
		})
	}

	const keys = 100000
	obj := make(map[string]any, keys)
	for i := 0; i < keys; i++ {
		obj[fmt.Sprintf("k%06d", i)] = float64(i)
	}
	for _, c := range []struct {
		schema string
		issues int
		code   string
	}{
		{`{"type":"object","properties":{"a":{}},"additionalProperties":false}`, 1, "unrecognized_keys"},
		{`{"type":"object","additionalProperties":{"type":"number"}}`, 0, ""},
		{`{"type":"object","propertyNames":{"pattern":"^k[0-9]+$"}}`, 0, ""},
		// One invalid key per key: validation stops after MaxIssues+1.
		{`{"type":"object","propertyNames":{"maxLength":3}}`, schema.MaxIssues + 1, "invalid_key"},
		{`{"type":"object","patternProperties":{"^k":{"type":"number","minimum":0}}}`, 0, ""},
		{`{"type":"object","maxProperties":10}`, 1, "too_big"},
		{`{"type":"object","properties":{"k000001":{"type":"string"}},"required":["zz"]}`, 2, "invalid_type"},
	} {
		t.Run(c.schema, func(t *testing.T) {
			s := mustSchema(t, c.schema)
			out, is := schema.ValidateInput(s, obj, true)
			if len(is) != c.issues || (c.issues > 0 && is[0].Code != c.code) {
				t.Errorf("%d issues (want %d %s): %.300s", len(is), c.issues, c.code, issueLines(is))
			}
			if c.issues == 0 && len(out.(map[string]any)) != keys {
				t.Errorf("output lost keys")
			}
		})
	}
	stripped, is := mustSchema(t, `{"type":"object","properties":{"k000001":{}},"additionalProperties":false}`, schema.StripUnknown()).Validate(obj)
	if len(is) > 0 || len(stripped.(map[string]any)) != 1 || len(obj) != keys {
		t.Errorf("strip: %d issues, %d keys left, input %d keys", len(is), len(stripped.(map[string]any)), len(obj))
	}

	arr := make([]any, 1000000)
	for i := range arr {
		arr[i] = float64(i)
	}
	if _, is := mustSchema(t, `{"type":"array","items":{"type":"number","minimum":0},"maxItems":2000000}`).Validate(arr); len(is) > 0 {
		t.Errorf("1M numbers: %s", issueLines(is[:1]))
	}
	arr[999999] = "x"
	if _, is := mustSchema(t, `{"type":"array","items":{"type":"number"}}`).Validate(arr); len(is) != 1 || is[0].PathString() != "999999" {
		t.Errorf("1M numbers, last bad: %.200s", issueLines(is))
	}
}

// TestBadInputUniqueItemsLarge: uniqueItems on a large array finishes (a
// pairwise comparison would take minutes here: the test relies on the
// test timeout, not on a clock).
func TestBadInputUniqueItemsLarge(t *testing.T) {
	arr := make([]any, 200000)
	for i := range arr {
		arr[i] = map[string]any{"n": float64(i), "s": fmt.Sprint(i)}
	}
	c := mustSchema(t, `{"type":"array","uniqueItems":true}`)
	if _, is := c.Validate(arr); len(is) != 0 {
		t.Errorf("distinct items reported: %s", issueLines(is))
	}
	arr[len(arr)-1] = map[string]any{"s": "0", "n": json.Number("0.0")}
	if _, is := c.Validate(arr); issueLines(is) != "custom root: Invalid input: expected unique items" {
		t.Errorf("duplicate: %s", issueLines(is))
	}
}

// TestBadInputNullsEverywhere replaces every value of a valid input by
// null, one at a time and all at once.
func TestBadInputNullsEverywhere(t *testing.T) {
	valid := `{"id":"abc","kind":"a","count":5,"ratio":0.5,"email":"a@b.co","when":"2024-02-29T12:00:00Z","tags":["x","y"],"point":[1,2],"shape":{"type":"circle","r":1},"value":"v","tree":{"value":1,"children":[{"value":2,"children":[]}]},"meta":{"k":"v"},"headers":{"x-a":"b"},"nick":"ab","mode":"slow","flags":[true],"nested":{"deep":{"x":1}},"not5":4,"both":0}`
	for _, s := range fuzzFixedSchemas() {
		if !strings.HasPrefix(s.name, "rich") {
			continue
		}
		v, _ := decodeJSON([]byte(valid), true)
		if _, is := s.c.Validate(v); len(is) > 0 {
			t.Fatalf("%s: the valid input is not: %s", s.name, issueLines(is))
		}
		variants := nullsAt(v)
		if len(variants) < 30 {
			t.Fatalf("only %d variants", len(variants))
		}
		for i, variant := range variants {
			raw, _ := json.Marshal(variant)
			checkSchemaValue(t, fmt.Sprintf("%s/%d", s.name, i), s.c, s.revalidate, raw, variant, true)
		}
	}
	// Mastra's null stripping: optional nulls go, required ones are
	// reported as null.
	c := mustSchema(t, fuzzRichSchema)
	v, _ := decodeJSON([]byte(`{"id":"abc","kind":"a","count":null,"tags":null,"tree":null,"nick":null,"mode":null}`), true)
	out, is := schema.ValidateInput(c, v, true)
	if len(is) > 0 {
		t.Fatalf("optional nulls: %s", issueLines(is))
	}
	if b, _ := json.Marshal(out); string(b) != `{"id":"abc","kind":"a","mode":"fast","nick":null}` {
		t.Errorf("optional nulls: got %s", b)
	}
	v, _ = decodeJSON([]byte(`{"id":null,"kind":"a","tags":[null]}`), true)
	_, is = schema.ValidateInput(c, v, true)
	if got := issueLines(is); got != "invalid_type id: Invalid input: expected string, received null\ninvalid_type tags.0: Invalid input: expected string, received null" {
		t.Errorf("required nulls: %s", got)
	}
}

// nullsAt returns copies of v with one value (at any depth) replaced by
// null, and one with every leaf null.
func nullsAt(v any) []any {
	var out []any
	var paths [][]any
	var collect func(cur any, path []any)
	collect = func(cur any, path []any) {
		switch t := cur.(type) {
		case map[string]any:
			for k, e := range t {
				p := append(append([]any{}, path...), k)
				paths = append(paths, p)
				collect(e, p)
			}
		case []any:
			for i, e := range t {
				p := append(append([]any{}, path...), i)
				paths = append(paths, p)
				collect(e, p)
			}
		}
	}
	collect(v, nil)
	for _, p := range paths {
		c := deepCopy(v)
		cur := c
		for i, seg := range p {
			last := i == len(p)-1
			switch s := seg.(type) {
			case string:
				m := cur.(map[string]any)
				if last {
					m[s] = nil
				}
				cur = m[s]
			case int:
				a := cur.([]any)
				if last {
					a[s] = nil
				}
				cur = a[s]
			}
		}
		out = append(out, c)
	}
	// Every scalar nulled, the shape kept.
	return append(out, jsonvalue.Map(v, func(any) any { return nil }))
}

func TestBadInputNumbers(t *testing.T) {
	for _, c := range []struct {
		schema, value, want string
	}{
		{`{"type":"integer"}`, `1e400`, `invalid_type root: Invalid input: expected int, received number`},
		{`{"type":"integer"}`, `1.0`, ``},
		{`{"type":"integer"}`, `1e2`, ``},
		{`{"type":"integer"}`, `-0`, ``},
		{`{"type":"integer"}`, `4.9e-324`, `invalid_type root: Invalid input: expected int, received number`},
		{`{"type":"integer"}`, `123456789012345678901234567890`, ``},
		// JavaScript reads 1e400 as Infinity, which z.number() rejects.
		{`{"type":"number","maximum":5}`, `1e400`, `invalid_type root: Invalid input: expected number, received number`},
		{`{"type":"number"}`, `-1e400`, `invalid_type root: Invalid input: expected number, received number`},
		{`{"type":"number","minimum":0}`, `-1e-400`, ``},
		{`{"type":"number","multipleOf":0.1}`, `0.3`, ``},
		{`{"type":"number","multipleOf":1e-320}`, `1e300`, `not_multiple_of root: Invalid number: must be a multiple of 1e-320`},
		{`{"const":1}`, `1.0`, ``},
		{`{"enum":[{"a":[1]}]}`, `{"a":[1.0]}`, ``},
		{`{"type":"array","uniqueItems":true}`, `[1,1.0,1e0]`, `custom root: Invalid input: expected unique items`},
	} {
		t.Run(c.schema+" "+c.value, func(t *testing.T) {
			s := mustSchema(t, c.schema)
			for _, useNumber := range []bool{true, false} {
				v, ok := decodeJSON([]byte(c.value), useNumber)
				if !ok {
					continue
				}
				_, is := s.Validate(v)
				if got := issueLines(is); got != c.want {
					t.Errorf("UseNumber=%v: %q, want %q", useNumber, got, c.want)
				}
			}
		})
	}
	// Go numbers of every kind are numbers.
	s := mustSchema(t, `{"type":"integer","minimum":0}`)
	for _, v := range []any{int8(1), int16(1), int32(1), int64(1 << 62), uint(1), uint8(1), uint16(1), uint32(1), uint64(1 << 63), float32(2), json.Number("3")} {
		if _, is := s.Validate(v); len(is) > 0 {
			t.Errorf("%T %v: %s", v, v, issueLines(is))
		}
	}
}

// TestBadInputInfiniteNumbers: a number literal beyond float64 is Infinity
// in JavaScript, which Zod's z.number() rejects.
func TestBadInputInfiniteNumbers(t *testing.T) {
	for _, text := range []string{`{"type":"number"}`, `{"type":["number","null"]}`, `{"type":"number","minimum":0}`, `{"anyOf":[{"type":"number"},{"type":"string"}]}`} {
		s := mustSchema(t, text)
		for _, v := range []string{`1e400`, `-1e400`} {
			if _, is := s.Validate(json.Number(v)); len(is) == 0 && !(strings.Contains(text, "minimum") && v[0] == '-') {
				t.Errorf("%s accepts %s", text, v)
			}
			if s.ValidJSON([]byte(v)) {
				t.Errorf("%s: fast path accepts %s", text, v)
			}
		}
	}
}

// TestBadInputStringLengths: lengths count Unicode code points, as the
// recorded Mastra fixtures show Zod 4 doing ("😀" is one character), in the
// full validator and in the fast path alike.
func TestBadInputStringLengths(t *testing.T) {
	for _, c := range []struct {
		schema, value, want string
	}{
		{`{"type":"string","maxLength":1}`, `"😀"`, ``},
		{`{"type":"string","minLength":2}`, `"😀"`, `too_small root: Too small: expected string to have >=2 characters`},
		{`{"type":"string","maxLength":3}`, `"a😀b"`, ``},
		{`{"type":"string","maxLength":2}`, `"a😀b"`, `too_big root: Too big: expected string to have <=2 characters`},
		{`{"type":"string","minLength":1,"maxLength":1}`, `"é"`, ``},
		{`{"type":"string","minLength":2}`, `"\ud83d\ude00"`, `too_small root: Too small: expected string to have >=2 characters`},
		{`{"type":"string","maxLength":1}`, `"\ud800"`, ``},
	} {
		s := mustSchema(t, c.schema)
		v, _ := decodeJSON([]byte(c.value), true)
		if _, is := s.Validate(v); issueLines(is) != c.want {
			t.Errorf("%s %s: %q, want %q", c.schema, c.value, issueLines(is), c.want)
		}
		if s.ValidJSON([]byte(c.value)) && c.want != "" {
			t.Errorf("%s %s: the fast path accepts it", c.schema, c.value)
		}
	}
}

// TestBadInputUnionSiblings: a schema with anyOf or oneOf and no "type"
// keeps its other keywords; they apply to the value too.
func TestBadInputUnionSiblings(t *testing.T) {
	for _, c := range []struct{ schema, value string }{
		{`{"anyOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{"type":"string"}}}`, `{"a":1}`},
		{`{"anyOf":[{"type":"object"}],"required":["b"]}`, `{"a":1}`},
		{`{"oneOf":[{"type":"string"}],"minLength":3}`, `"a"`},
		{`{"anyOf":[{"type":"string"}],"not":{"const":"x"}}`, `"x"`},
		{`{"anyOf":[{"type":"string"}],"oneOf":[{"minLength":5}]}`, `"ab"`},
	} {
		v, _ := decodeJSON([]byte(c.value), true)
		if _, is := mustSchema(t, c.schema).Validate(v); len(is) == 0 {
			t.Errorf("%s accepts %s", c.schema, c.value)
		}
	}
}

// TestBadInputRefSiblings: in draft 2020-12 (the package's default
// dialect) keywords beside $ref apply as well.
func TestBadInputRefSiblings(t *testing.T) {
	c := mustSchema(t, `{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s","maxLength":1,"description":"d"}}}`)
	v, _ := decodeJSON([]byte(`{"a":"abc"}`), true)
	if _, is := c.Validate(v); len(is) != 1 {
		t.Errorf("want too_big, got %s", issueLines(is))
	}
}

func TestBadInputSchemaTexts(t *testing.T) {
	for _, text := range []string{
		``, ` `, `nul`, `{`, `}`, `{}}`, `{} x`, `[]`, `"x"`, `1`, `{"type":"nope"}`, `{"type":5}`,
		"\xef\xbb\xbf{}", `{"$ref":"#/nope/x"}`, `{"$ref":"other.json"}`, `{"patternProperties":{"(":{}}}`,
		`{"properties":{"a":{"default":}}}`, `{"properties":[]}`, `{"required":"a"}`, `{"minLength":"1"}`,
		strings.Repeat(`{"items":`, 100001) + `{}` + strings.Repeat(`}`, 100001),
		strings.Repeat(`[`, 100001),
	} {
		name := text
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			c, err := schema.FromJSON([]byte(text))
			if err == nil {
				// Accepted: it must still validate without trouble.
				_, _ = c.Validate(map[string]any{"a": []any{1.0}})
				return
			}
			if c != nil {
				t.Errorf("schema and error")
			}
		})
	}
	c := mustSchema(t, `{"type":"string","pattern":"(?<=a)b"}`)
	if len(c.Warnings()) != 1 {
		t.Errorf("unsupported pattern: warnings %v", c.Warnings())
	}
	if _, is := c.Validate("zzz"); len(is) > 0 {
		t.Errorf("an unchecked pattern rejected a value: %s", issueLines(is))
	}
}

// TestBadInputDeepSchemaCompileMemory: compiling a deeply nested schema.
// MCP servers send tool schemas; a hostile or buggy one must not cost
// gigabytes to compile. Refusing it (a depth limit) is fine too.
func TestBadInputDeepSchemaCompileMemory(t *testing.T) {
	for _, c := range []struct {
		key   string
		depth int
	}{{"not", 1000}, {"items", 3000}, {"additionalProperties", 3000}, {"not", 100000}, {"not", 250}, {"items", 250}} {
		text := strings.Repeat(`{"`+c.key+`":`, c.depth) + `{"type":"string"}` + strings.Repeat(`}`, c.depth)
		n := allocated(func() {
			c, err := schema.FromJSON([]byte(text))
			if err == nil {
				_, _ = c.Validate(nested(10, "x"))
			}
		})
		if n > 256<<20 {
			t.Errorf("compiling %d nested %q (%d bytes) allocated %d MB", c.depth, c.key, len(text), n>>20)
		}
	}
}
