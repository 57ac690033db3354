package o200k

import (
	"encoding/json"
	"os"
	"testing"
)

// TestCountMatchesJSTiktoken compares Count with js-tiktoken's o200k_base
// (encode(text, [], []).length) on the texts of ../testdata/counts.json.
func TestCountMatchesJSTiktoken(t *testing.T) {
	b, err := os.ReadFile("../testdata/counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Text  string `json:"text"`
		O200k int    `json:"o200k"`
	}
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		if got := Count(r.Text); got != r.O200k {
			t.Errorf("Count(%q) = %d, js-tiktoken o200k_base gives %d", r.Text, got, r.O200k)
		}
	}
}
