package vectortest

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage/vector"
)

// BenchSizes are the numbers of stored vectors BenchQuery measures a
// query among.
var BenchSizes = []int{1000, 10000, 100000}

// BenchDimensions are the dimensions BenchQuery measures: OpenAI's
// text-embedding-3-small (1536) and a small local model's (384, as
// all-MiniLM-L6-v2 and fastembed's default).
var BenchDimensions = []int{384, 1536}

// BenchQuery benchmarks a semantic recall query — the top 10 of an
// index by cosine similarity, filtered on a resource — as the index
// grows to each of sizes vectors (BenchSizes when nil), at each of
// BenchDimensions. Every vector is the one resource's, the worst case:
// the filter selects them all, and the query scores every one. A
// second sub-benchmark filters on a thread of 100 vectors among them,
// semantic recall's thread scope, which an index on the thread serves.
//
// Sub-benchmarks are named dim=D/n=N/resource and dim=D/n=N/thread; the
// vectors are added as the sizes grow (in batches of 1,000, timed apart
// and logged), so -bench 'VectorQuery/dim=384' never fills the larger
// dimension's index. Vectors are random (uniform directions), as
// embeddings of unrelated texts are near enough for a search that
// scores everything. s must hold no index named bench_D. A backend's
// benchmark opens the store and calls it:
//
//	func BenchmarkVectorQuery(b *testing.B) {
//		s, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "mastra.db"))
//		if err != nil {
//			b.Fatal(err)
//		}
//		defer s.Close()
//		vectortest.BenchQuery(b, s, nil)
//	}
func BenchQuery(b *testing.B, s vector.Store, sizes []int) {
	if sizes == nil {
		sizes = BenchSizes
	}
	const threadSize = 100
	for _, dim := range BenchDimensions {
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			ctx := b.Context()
			index := fmt.Sprintf("bench_%d", dim)
			if err := s.CreateIndex(ctx, index, dim); err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(dim), 1))
			queries := make([][]float32, 16)
			for i := range queries {
				queries[i] = randomVector(rng, dim)
			}
			stored := 0
			fill := func(b *testing.B, n int) {
				start := time.Now()
				from := stored
				for stored < n {
					batch := make([]vector.Record, 0, 1000)
					for ; stored < n && len(batch) < cap(batch); stored++ {
						batch = append(batch, vector.Record{
							ID:     fmt.Sprintf("msg-%07d", stored),
							Vector: randomVector(rng, dim),
							Metadata: map[string]any{
								vector.KeyMessageID:  fmt.Sprintf("msg-%07d", stored),
								vector.KeyThreadID:   fmt.Sprintf("thread-%05d", stored/threadSize),
								vector.KeyResourceID: "user-1",
							},
						})
					}
					if err := s.Upsert(ctx, index, batch); err != nil {
						b.Fatal(err)
					}
				}
				if added := stored - from; added > 0 {
					d := time.Since(start)
					b.Logf("upserted %d vectors of dimension %d in %v (%.0f µs each)", added, dim, d.Round(time.Millisecond),
						float64(d.Microseconds())/float64(added))
				}
			}
			for _, n := range sizes {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					for _, tc := range []struct {
						name   string
						filter vector.Filter
						want   int
					}{
						{"resource", vector.Filter{vector.KeyResourceID: "user-1"}, 10},
						{"thread", vector.Filter{vector.KeyThreadID: "thread-00003"}, 10},
					} {
						b.Run(tc.name, func(b *testing.B) {
							fill(b, n)
							b.ReportAllocs()
							i := 0
							for b.Loop() {
								ms, err := s.Query(ctx, index, vector.Query{Vector: queries[i%len(queries)], TopK: 10, Filter: tc.filter})
								if err != nil {
									b.Fatal(err)
								}
								if len(ms) != tc.want {
									b.Fatalf("%d matches, want %d", len(ms), tc.want)
								}
								i++
							}
							b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
						})
					}
				})
			}
		})
	}
}
