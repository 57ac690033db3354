package schema

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// repeatJSON is a JSON array of n copies of elem.
func repeatJSON(elem string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(elem+",", n), ",") + "]"
}

// objectJSON is a JSON object of n members "k<i>": elem.
func objectJSON(elem string, n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + elem)
	}
	return b.String() + "}"
}

// manyIssueCases are schemas and values with few, MaxIssues-ish and many
// issues, through every keyword that collects issues of its parts.
var manyIssueCases = []struct{ name, schema, value string }{
	{"numbers", `{"type":"array","items":{"type":"number"}}`, repeatJSON(`"x"`, 1000)},
	{"99 numbers", `{"type":"array","items":{"type":"number"}}`, repeatJSON(`"x"`, 99)},
	{"100 numbers", `{"type":"array","items":{"type":"number"}}`, repeatJSON(`"x"`, 100)},
	{"101 numbers", `{"type":"array","items":{"type":"number"}}`, repeatJSON(`"x"`, 101)},
	{"102 numbers", `{"type":"array","items":{"type":"number"}}`, repeatJSON(`"x"`, 102)},
	{"three per element", `{"type":"array","maxItems":3,"uniqueItems":true,"items":{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","minLength":3,"pattern":"^z"},"b":{"type":"integer"}},"additionalProperties":false}}`,
		repeatJSON(`{"a":"x","c":1}`, 400)},
	{"record", `{"type":"object","additionalProperties":{"type":"number","minimum":5,"multipleOf":2}}`, objectJSON(`1`, 300)},
	{"property names", `{"type":"object","propertyNames":{"pattern":"^a"},"patternProperties":{"^k1":{"type":"string"}}}`, objectJSON(`1`, 300)},
	{"not", `{"type":"array","items":{"not":{"type":"number"}}}`, repeatJSON(`1`, 300)},
	{"union aborting", `{"anyOf":[{"type":"array","items":{"type":"number"}},{"type":"array","items":{"type":"string"}}]}`, repeatJSON(`true`, 300)},
	{"union refinements", `{"anyOf":[{"type":"array","items":{"type":"number","minimum":10}},{"type":"string"}]}`, repeatJSON(`1`, 300)},
	{"unions inside", `{"type":"array","items":{"anyOf":[{"type":"number","maximum":0},{"type":"string"}]}}`, repeatJSON(`5`, 300)},
	{"discriminated", `{"type":"array","items":{"oneOf":[{"type":"object","properties":{"k":{"const":"a"},"n":{"type":"number"}},"required":["k","n"]},{"type":"object","properties":{"k":{"const":"b"}},"required":["k"]}],"discriminator":{"propertyName":"k"}}}`,
		repeatJSON(`{"k":"a","n":"x"}`, 300)},
	{"recursive", `{"$ref":"#/$defs/t","$defs":{"t":{"type":"object","properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#/$defs/t"}}}}}}`,
		`{"v":"x","kids":` + repeatJSON(`{"v":"x","kids":`+repeatJSON(`{"v":"y"}`, 30)+`}`, 30) + `}`},
	{"all of", `{"allOf":[{"type":"array","items":{"type":"number"}},{"type":"array","items":{"type":"number","minimum":3}}]}`, repeatJSON(`1`, 300)},
	{"small", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a","b"]}`, `{"b":"x"}`},
}

// validateAll is Validate without the limit: every issue.
func validateAll(c *Compiled, v any) []Issue {
	all := issueList{limit: -1}
	c.root.validate(v, true, nil, &all)
	return all.items
}

// TestValidateKeepsTheFirstIssues: Validate's issues are the first
// MaxIssues+1 of those found without a limit, the same issues in the same
// order.
func TestValidateKeepsTheFirstIssues(t *testing.T) {
	for _, c := range manyIssueCases {
		t.Run(c.name, func(t *testing.T) {
			s, err := FromJSON([]byte(c.schema))
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal([]byte(c.value), &v); err != nil {
				t.Fatal(err)
			}
			all := validateAll(s, v)
			_, got := s.Validate(v)
			want := all[:min(len(all), MaxIssues+1)]
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d issues (of %d):\ngot  %.600v\nwant %.600v", len(got), len(all), got, want)
			}
			_, _, changed := s.ValidateChanged(v)
			if !reflect.DeepEqual(changed, want) {
				t.Errorf("ValidateChanged: %d issues (of %d)", len(changed), len(all))
			}
			t.Logf("%d issues found without a limit, %d kept", len(all), len(got))
		})
	}
}

// TestValidateStopsAfterMaxIssues: checking a million wrong elements costs
// what checking MaxIssues+1 of them does, not an issue per element.
func TestValidateStopsAfterMaxIssues(t *testing.T) {
	s := MustFromJSON([]byte(`{"type":"object","properties":{"list":{"type":"array","items":{"type":"number"}}}}`))
	list := make([]any, 1_000_000)
	for i := range list {
		list[i] = "x"
	}
	v := map[string]any{"list": list}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, issues := s.Validate(v)
	runtime.ReadMemStats(&after)
	if len(issues) != MaxIssues+1 {
		t.Fatalf("%d issues", len(issues))
	}
	if last := issues[MaxIssues]; last.PathString() != "list.100" || last.Message != "Invalid input: expected number, received string" {
		t.Errorf("the last issue: %+v", last)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 {
		t.Errorf("allocated %d KB", alloc>>10)
	}
	shown, more := CapIssues(issues)
	if len(shown) != MaxIssues || !more {
		t.Errorf("CapIssues: %d shown, more %v", len(shown), more)
	}
	if shown, more := CapIssues(issues[:MaxIssues]); len(shown) != MaxIssues || more {
		t.Errorf("CapIssues of MaxIssues: %d shown, more %v", len(shown), more)
	}
}
