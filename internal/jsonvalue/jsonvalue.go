// Package jsonvalue walks decoded JSON values (map[string]any, []any and
// scalars, as encoding/json produces them).
package jsonvalue

// Map returns a deep copy of v in which every scalar s (anything that is
// not a map[string]any or []any) is replaced by leaf(s). v is not modified.
func Map(v any, leaf func(any) any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = Map(e, leaf)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = Map(e, leaf)
		}
		return a
	}
	return leaf(v)
}

// MapInPlace is Map without the copy: the maps and slices of v itself
// receive the new scalars. Use it only on values the caller owns (freshly
// decoded ones).
func MapInPlace(v any, leaf func(any) any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = MapInPlace(e, leaf)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = MapInPlace(e, leaf)
		}
		return t
	}
	return leaf(v)
}
