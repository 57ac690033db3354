package uuid

import (
	"regexp"
	"testing"
)

func TestNew(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := New()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("not a fresh v4 UUID: %q", id)
		}
		seen[id] = true
	}
}

func TestDerived(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	a, b := Derived("run-1", "tool", "3"), Derived("run-1", "tool", "3")
	if !re.MatchString(a) || a != b {
		t.Fatalf("not a stable v5 UUID: %q %q", a, b)
	}
	for _, other := range [][]string{{"run-1", "tool", "4"}, {"run-1", "assistant", "3"}, {"run-1", "tool3"}, {"run-1tool", "3"}} {
		if Derived(other...) == a {
			t.Errorf("%q names the same UUID as run-1/tool/3", other)
		}
	}
}
