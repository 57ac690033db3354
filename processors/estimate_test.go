package processors

import (
	"encoding/json"
	"os"
	"testing"
)

// refCount is a text's count as Mastra's JavaScript libraries give it
// (testdata/counts.json): tokenx 1.3.0's estimateTokenCount, which Mastra
// 1.71's TokenLimiter counts with, and js-tiktoken's o200k_base.
type refCount struct {
	Text     string `json:"text"`
	Estimate int    `json:"estimate"`
	O200k    int    `json:"o200k"`
}

func refCounts(t testing.TB) []refCount {
	t.Helper()
	b, err := os.ReadFile("testdata/counts.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []refCount
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	return refs
}

func TestEstimateTokensMatchesTokenx(t *testing.T) {
	for _, r := range refCounts(t) {
		if got := EstimateTokens(r.Text); got != r.Estimate {
			t.Errorf("EstimateTokens(%q) = %d, tokenx gives %d", r.Text, got, r.Estimate)
		}
	}
}
