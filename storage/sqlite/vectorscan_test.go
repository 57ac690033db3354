package sqlite

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

// A stored row that is not the index's (a blob of another length, a
// norm that is not a positive number) fails the query that reads it,
// with what is wrong, from inside the scan's SQL function.
func TestVectorScanRefusesBadRows(t *testing.T) {
	for _, tc := range []struct {
		name, update, want string
	}{
		{"short blob", `UPDATE mastra_vectors SET embedding = x'00000000' WHERE id = 'b'`, "vector b: stored with 4 bytes, want 12"},
		{"zero norm", `UPDATE mastra_vectors SET norm = 0 WHERE id = 'b'`, "vector b: stored norm 0"},
		{"text norm", `UPDATE mastra_vectors SET norm = 'x' WHERE id = 'b'`, "vector b: stored norm x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, Memory)
			ctx := t.Context()
			if err := s.CreateIndex(ctx, "i", 3); err != nil {
				t.Fatal(err)
			}
			recs := []vector.Record{{ID: "a", Vector: []float32{1, 0, 0}}, {ID: "b", Vector: []float32{0, 1, 0}}}
			if err := s.Upsert(ctx, "i", recs); err != nil {
				t.Fatal(err)
			}
			if _, err := s.w.ExecContext(ctx, tc.update); err != nil {
				t.Fatal(err)
			}
			_, err := s.Query(ctx, "i", vector.Query{Vector: []float32{1, 1, 0}, TopK: 1})
			if err == nil || !strings.Contains(storage.ErrorDetail(err), tc.want) {
				t.Errorf("Query: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// Scans running at once each fill their own search: every concurrent
// query answers what it answers alone.
func TestVectorScansAtOnce(t *testing.T) {
	s := openT(t, filepath.Join(t.TempDir(), "v.db"))
	ctx := t.Context()
	if err := s.CreateIndex(ctx, "i", 4); err != nil {
		t.Fatal(err)
	}
	var recs []vector.Record
	for i := range 500 {
		x := float32(i)
		recs = append(recs, vector.Record{ID: fmt.Sprintf("v%03d", i), Vector: []float32{1, x, x * x, float32(i % 7)}})
	}
	if err := s.Upsert(ctx, "i", recs); err != nil {
		t.Fatal(err)
	}
	queries := [][]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}, {1, -1, 1, -1}}
	want := make([]string, len(queries))
	for i, q := range queries {
		ms, err := s.Query(ctx, "i", vector.Query{Vector: q, TopK: 3})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fmt.Sprint(ms)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for j := range 25 {
				i := (g + j) % len(queries)
				ms, err := s.Query(ctx, "i", vector.Query{Vector: queries[i], TopK: 3})
				if err != nil {
					t.Error(err)
					return
				}
				if got := fmt.Sprint(ms); got != want[i] {
					t.Errorf("query %d at once with others: %s, alone %s", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}
