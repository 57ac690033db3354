package zodschema

import (
	"slices"
	"testing"
)

func TestSortMembersFollowsZod(t *testing.T) {
	keys := []string{"description", "x-custom", "required", "properties", "type", "$schema", "additionalProperties", "title"}
	vals := []int{0, 1, 2, 3, 4, 5, 6, 7}
	SortMembers(keys, vals)
	want := []string{"$schema", "type", "properties", "required", "additionalProperties", "x-custom", "title", "description"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if !slices.Equal(vals, []int{5, 4, 3, 2, 6, 1, 7, 0}) {
		t.Errorf("values did not move with their keys: %v", vals)
	}
}

func TestHolding(t *testing.T) {
	cases := []struct {
		key             string
		isObject, isArr bool
		want            Holds
	}{
		{"properties", true, false, HoldsMap},
		{"anyOf", false, true, HoldsList},
		{"items", true, false, HoldsOne},
		{"items", false, true, HoldsList},
		{"not", true, false, HoldsOne},
		{"enum", false, true, HoldsNone},
		{"properties", false, true, HoldsNone},
		{"description", false, false, HoldsNone},
	}
	for _, c := range cases {
		if got := Holding(c.key, c.isObject, c.isArr); got != c.want {
			t.Errorf("Holding(%q, %v, %v) = %v, want %v", c.key, c.isObject, c.isArr, got, c.want)
		}
	}
}
