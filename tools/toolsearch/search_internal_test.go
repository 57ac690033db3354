package toolsearch

import (
	"strings"
	"testing"
)

// Expected values are Node 22's Math.round(x*100)/100.
func TestRound2(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{2.944, 2.94},
		{2.945, 2.95},
		{1.005, 1}, // 100.49999999999999
		{2.675, 2.68},
		{7.3, 7.3},
		{0.125, 0.13},
		{-0.125, -0.12}, // halves round towards +Infinity
		{12.5, 12.5},
		{1e-9, 0},
		{1234.5, 1234.5},
		{0.0049999999999999994, 0}, // x*100 is just below a half; floor(x*100+0.5) would give 0.01
	} {
		if got := round2(c.in); got != c.want {
			t.Errorf("round2(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestTruncateDescription(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("b", 150), strings.Repeat("b", 150)},
		{strings.Repeat("c", 151), strings.Repeat("c", 147) + "..."},
		// Two-byte characters count once.
		{strings.Repeat("é", 150), strings.Repeat("é", 150)},
		{strings.Repeat("é", 151), strings.Repeat("é", 147) + "..."},
		// A cut inside a surrogate pair leaves U+FFFD for the half.
		{strings.Repeat("a", 146) + "🚀 tail", strings.Repeat("a", 146) + "\ufffd..."},
		{strings.Repeat("a", 145) + "🚀 tail", strings.Repeat("a", 145) + "🚀..."},
	} {
		if got := truncateDescription(c.in); got != c.want {
			t.Errorf("truncateDescription(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
