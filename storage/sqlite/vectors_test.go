package sqlite

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomastra/mastra/storage/vector"
	"github.com/gomastra/mastra/storage/vector/vectortest"
)

func TestVectorConformanceFile(t *testing.T) {
	vectortest.Run(t, func(t *testing.T) vector.Store {
		return openT(t, filepath.Join(t.TempDir(), "mastra.db"))
	})
}

func TestVectorConformanceMemory(t *testing.T) {
	vectortest.Run(t, func(t *testing.T) vector.Store {
		return openT(t, Memory)
	})
}

// TestVectorQueryPlans: a filter on the thread or the resource reads
// that key's index, not every vector of the index.
func TestVectorQueryPlans(t *testing.T) {
	s := openT(t, Memory)
	for _, tc := range []struct {
		filter vector.Filter
		index  string
	}{
		{vector.Filter{vector.KeyThreadID: "t"}, "mastra_vectors_thread_idx"},
		{vector.Filter{vector.KeyResourceID: "r"}, "mastra_vectors_resource_idx"},
		{vector.Filter{vector.KeyResourceID: "r", "kind": "note"}, "mastra_vectors_resource_idx"},
	} {
		where, args := vectorFilter(tc.filter)
		rows, err := s.r.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+offerQuery+where, append([]any{1, "i"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if p := strings.Join(plan, "; "); !strings.Contains(p, tc.index) {
			t.Errorf("filter %v: plan %q does not use %s", tc.filter, p, tc.index)
		}
	}
}
