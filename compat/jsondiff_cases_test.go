package compat

import (
	"strings"
	"testing"
)

func diffOf(t *testing.T, want, got string) differences {
	t.Helper()
	d, err := compareAnswers(want, got)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCompareValuesAndOrder(t *testing.T) {
	d := diffOf(t, `{"a":1,"b":{"x":true,"y":"s"},"c":[1,2]}`, `{"a":1,"b":{"y":"s","x":true},"c":[1,2]}`)
	if len(d.values) != 0 || len(d.order) != 1 || !strings.Contains(d.order[0], ".b: real Mastra {x,y}, Go {y,x}") {
		t.Errorf("order only: %+v", d)
	}
	d = diffOf(t, `{"a":1,"b":2,"c":[1,2]}`, `{"a":"1","d":3,"c":[1]}`)
	want := []string{`.a: real Mastra 1, Go "1"`, `.b: only real Mastra has it: 2`, `.c[1]: only real Mastra has it: 2`, `.d: only Go has it: 3`}
	if strings.Join(d.values, "\n") != strings.Join(want, "\n") {
		t.Errorf("values:\n%s\nwant\n%s", strings.Join(d.values, "\n"), strings.Join(want, "\n"))
	}
	if len(d.order) != 0 {
		t.Errorf("objects with other members reported as reordered: %q", d.order)
	}
	// Numbers are compared as written: 5 and 5.0 are different texts.
	if d := diffOf(t, `[5]`, `[5.0]`); len(d.values) != 1 {
		t.Errorf("5 vs 5.0: %+v", d)
	}
}

func TestCompareAlignsChunks(t *testing.T) {
	want := `[{"type":"tool-result","payload":{"result":5}},{"type":"finish","payload":{"r":"stop"}}]`
	got := `[{"type":"start"},{"type":"tool-result","payload":{"result":6}},{"type":"finish","payload":{"r":"stop"}}]`
	d := diffOf(t, want, got)
	if len(d.values) != 2 {
		t.Fatalf("want the type lists and one payload difference, got %q", d.values)
	}
	if !strings.Contains(d.values[0], "real Mastra: tool-result finish") || !strings.Contains(d.values[0], "Go:          start tool-result finish") {
		t.Errorf("type lists: %s", d.values[0])
	}
	// The extra chunk does not shift the comparison: tool-result is
	// compared with tool-result (Go's index 1).
	if d.values[1] != "[1 tool-result].payload.result: real Mastra 5, Go 6" {
		t.Errorf("payload: %s", d.values[1])
	}
}

func TestCompareNormalisesAfterAllowances(t *testing.T) {
	// Mastra's memory-format messages carry an id Go's output lacks; once
	// dropped, the run ids are numbered alike on both sides.
	want := `{"text":"x","finishReason":"stop","steps":[],"messages":[{"id":"11111111-1111-4111-8111-111111111111"}],"runId":"22222222-2222-4222-8222-222222222222"}`
	got := `{"text":"x","finishReason":"stop","steps":[],"runId":"33333333-3333-4333-8333-333333333333"}`
	if d := diffOf(t, want, got); len(d.values)+len(d.order) != 0 {
		t.Errorf("differences: %+v", d)
	}
}

func TestAllowanceCreatedAtStamp(t *testing.T) {
	want := `{"content":[{"type":"text","text":"hi","providerOptions":{"mastra":{"createdAt":1796010082661}}}]}`
	got := `{"content":[{"type":"text","text":"hi"}]}`
	if d := diffOf(t, want, got); len(d.values) != 0 {
		t.Errorf("stamp not tolerated: %q", d.values)
	}
	// Anything beside the stamp is compared.
	want = `{"providerOptions":{"mastra":{"createdAt":1,"modelOutput":"x"}}}`
	if d := diffOf(t, want, `{}`); len(d.values) != 1 {
		t.Errorf("more than a stamp: %q", d.values)
	}
}

func TestNodeStringKeepsTextAndOrder(t *testing.T) {
	const text = `{"b":"<time> & more","a":[1,2.50,true,null],"c":{}}`
	n, err := decodeOrdered(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := n.String(); got != text {
		t.Errorf("got %s, want %s", got, text)
	}
	if _, err := decodeOrdered(`{"a":1} {"b":2}`); err == nil {
		t.Error("two values accepted as one")
	}
}
