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
