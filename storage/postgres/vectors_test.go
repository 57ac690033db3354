package postgres

import (
	"fmt"
	"math"

	"testing"

	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/storage/vector"
	"github.com/gomastra/mastra/storage/vector/vectortest"
)

func TestVectorConformance(t *testing.T) {
	vectortest.Run(t, func(t *testing.T) vector.Store {
		return openT(t, pgtest.DSN(t))
	})
}

// TestVectorRowsStayInline: a vector of 1536 dimensions stays in its
// heap row (toast_tuple_target), where a query reads it without a TOAST
// lookup; one of 4000 goes out of line, uncompressed (EXTERNAL).
func TestVectorRowsStayInline(t *testing.T) {
	ctx := t.Context()
	s := openT(t, pgtest.DSN(t))
	toastBytes := func() int64 {
		var n int64
		err := s.pool.QueryRow(ctx, `SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'mastra_vectors'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		dim    int
		inline bool
	}{{384, true}, {1536, true}, {4000, false}} {
		index := fmt.Sprintf("d%d", tc.dim)
		if err := s.CreateIndex(ctx, index, tc.dim); err != nil {
			t.Fatal(err)
		}
		var recs []vector.Record
		for i := range 50 {
			v := make([]float32, tc.dim)
			for j := range v {
				v[j] = float32(math.Sin(float64(i*tc.dim + j)))
			}
			recs = append(recs, vector.Record{ID: fmt.Sprint(i), Vector: v,
				Metadata: map[string]any{"thread_id": "thread-1", "resource_id": "user-1", "message_id": fmt.Sprint(i)}})
		}
		before := toastBytes()
		if err := s.Upsert(ctx, index, recs); err != nil {
			t.Fatal(err)
		}
		grew := toastBytes() - before
		if tc.inline && grew != 0 {
			t.Errorf("dimension %d: the TOAST table grew by %d bytes, want the vectors inline", tc.dim, grew)
		}
		if !tc.inline && grew < int64(50*4*tc.dim) {
			t.Errorf("dimension %d: the TOAST table grew by %d bytes, want at least the %d of the vectors, uncompressed", tc.dim, grew, 50*4*tc.dim)
		}
	}
}
