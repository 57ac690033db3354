package jsonvalue

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func double(v any) any {
	if f, ok := v.(float64); ok {
		return f * 2
	}
	return v
}

func TestMapCopiesAndMapInPlaceDoesNot(t *testing.T) {
	src := func() any { return map[string]any{"a": 1.0, "b": []any{2.0, "x", map[string]any{"c": 3.0}}, "n": nil} }
	want := map[string]any{"a": 2.0, "b": []any{4.0, "x", map[string]any{"c": 6.0}}, "n": nil}
	in := src()
	if d := cmp.Diff(want, Map(in, double)); d != "" {
		t.Errorf("Map (-want +got):\n%s", d)
	}
	if d := cmp.Diff(src(), in); d != "" {
		t.Errorf("Map modified its input:\n%s", d)
	}
	MapInPlace(in, double)
	if d := cmp.Diff(want, in); d != "" {
		t.Errorf("MapInPlace (-want +got):\n%s", d)
	}
}
