package tools

import "testing"

func TestTruncateUTF16KeepsSurrogatePairsWhole(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"a😀b", 2, "a"},
		{"a😀b", 3, "a😀"},
		{"abc", 0, ""},
		{"abc", 5, "abc"},
	} {
		if got := truncateUTF16(c.in, c.max); got != c.want {
			t.Errorf("truncateUTF16(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
