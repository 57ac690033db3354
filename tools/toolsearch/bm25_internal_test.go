package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBM25TiesKeepFirstReachedOrder(t *testing.T) {
	idx := newBM25Index([]indexDoc{
		{"b", "beta common"}, {"a", "alpha common"}, {"c", "gamma common"},
	})
	hits := idx.search([]string{"common"}, 10)
	var got []string
	for _, h := range hits {
		got = append(got, idx.names[h.doc])
	}
	if diff := cmp.Diff([]string{"b", "a", "c"}, got); diff != "" {
		t.Errorf("tie order (-want +got):\n%s", diff)
	}
	if hits := idx.search([]string{"common"}, 2); len(hits) != 2 {
		t.Errorf("limit 2 gave %d hits", len(hits))
	}
	if hits := idx.search(nil, 2); hits != nil {
		t.Errorf("no terms gave %v", hits)
	}
	if hits := newBM25Index(nil).search([]string{"x"}, 2); hits != nil {
		t.Errorf("empty index gave %v", hits)
	}
}

// The scratch buffers a search borrows are clean for the next one.
func TestBM25RepeatedSearchesAgree(t *testing.T) {
	idx := newBM25Index([]indexDoc{{"a", "x y"}, {"b", "y z"}, {"c", "z x x"}})
	first := idx.search([]string{"x", "z"}, 10)
	for range 3 {
		idx.search([]string{"y"}, 10)
		if diff := cmp.Diff(first, idx.search([]string{"x", "z"}, 10), cmp.AllowUnexported(hit{})); diff != "" {
			t.Fatalf("search changed (-first +again):\n%s", diff)
		}
	}
}

// Selecting the best hits gives what sorting them all would, ties
// included.
func TestBM25SelectionMatchesStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"aa", "bb", "cc", "dd", "ee", "ff"}
	var docs []indexDoc
	for i := range 300 {
		var text []string
		for range 1 + rng.IntN(4) {
			text = append(text, words[rng.IntN(len(words))])
		}
		docs = append(docs, indexDoc{name: fmt.Sprint("d", i), text: strings.Join(text, " ")})
	}
	idx := newBM25Index(docs)
	for _, q := range [][]string{{"aa"}, {"aa", "bb"}, {"cc", "cc", "ff"}, words} {
		all := idx.search(q, len(docs)) // sorted in full
		for _, limit := range []int{1, 2, 5, 10, 64} {
			want := all[:min(limit, len(all))]
			if diff := cmp.Diff(want, idx.search(q, limit), cmp.AllowUnexported(hit{})); diff != "" {
				t.Fatalf("query %v limit %d (-sorted +selected):\n%s", q, limit, diff)
			}
		}
	}
}
