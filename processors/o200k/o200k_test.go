package o200k

import (
	"encoding/json"
	"fmt"
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

// Counts published for o200k_base (GPT-4o's tokenizer).
func TestKnownCounts(t *testing.T) {
	for text, want := range map[string]int{
		"Hello, world!": 4,
		"The quick brown fox jumps over the lazy dog.": 10,
		"":            0,
		"hello world": 2,
	} {
		if got := Count(text); got != want {
			t.Errorf("Count(%q) = %d, want %d", text, got, want)
		}
	}
}

func ExampleCount() {
	fmt.Println(Count("Hello, world!"))
	// Output: 4
}
