package toolsearch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokenize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Get the WEATHER", []string{"get", "the", "weather"}},
		{"github_create-issue.v2", []string{"github", "create", "issue", "v2"}},
		{"a b c de", []string{"de"}},
		{"(x) [yy] {zz} 'q' \"rr\" a,b;c:d!e?f", []string{"yy", "zz", "rr"}},
		// Other punctuation stays inside terms.
		{"c++ c# e-mail/sms @me", []string{"c++", "c#", "mail/sms", "@me"}},
		// JavaScript's \s: NBSP, BOM and ideographic space split; NEL does not.
		{"a\u00a0bb\ufeffcc\u3000dd\u0085ee", []string{"bb", "cc", "dd\u0085ee"}},
		// One UTF-16 unit is too short, an astral character is two.
		{"é 🚀 ab", []string{"🚀", "ab"}},
		// JavaScript lowercasing: İ gains a combining dot, final sigma.
		{"İstanbul", []string{"i\u0307stanbul"}},
		{"ΟΔΟΣ ΣΟΦΟΣ Σ", []string{"οδος", "σοφος"}},
	} {
		if diff := cmp.Diff(c.want, tokenize(c.in)); diff != "" {
			t.Errorf("tokenize(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestJSLower(t *testing.T) {
	for in, want := range map[string]string{
		"ABC":         "abc",
		"ΟΔΟΣ":        "οδος",
		"ΟΔΟΣ.":       "οδος.", // a case-ignorable after it: still final
		"ΟΔΟΣΑ":       "οδοσα",
		"Σ":           "σ", // nothing cased before it
		"ΑΣ'Β":        "ασ'β",
		"\u212Aelvin": "kelvin",
		"ǅ":           "ǆ",
	} {
		if got := jsLower(in); got != want {
			t.Errorf("jsLower(%q) = %q, want %q", in, got, want)
		}
	}
}
