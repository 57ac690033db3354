package postgres

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gomastra/mastra/storage/postgres/internal/pgtest"
	"github.com/gomastra/mastra/storage/vector"
	"github.com/gomastra/mastra/storage/vector/vectortest"
)

// BenchmarkVectorQuery is a semantic recall query among 1,000, 10,000
// and 100,000 vectors of one resource, of 384 and 1536 dimensions (see
// vectortest.BenchQuery). The scratch cluster runs with fsync off and
// its default 128 MB of shared buffers.
func BenchmarkVectorQuery(b *testing.B) {
	s, err := Open(b.Context(), pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	vectortest.BenchQuery(b, s, nil)
}

// BenchmarkVectorScanInSQL is the alternative Query does not take: the
// same exact search among 10,000 vectors computed by PostgreSQL itself,
// the vectors stored as real[] and each score the sum of an unnest of the
// row's array beside the query's (the only dot product plain PostgreSQL
// has), ordered and cut to 10 by the server. Compare it with
// BenchmarkVectorQuery/dim=D/n=10000/resource.
func BenchmarkVectorScanInSQL(b *testing.B) {
	const n = 10000
	s, err := Open(b.Context(), pgtest.DSN(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := b.Context()
	if _, err := s.pool.Exec(ctx, `CREATE TABLE bench_real (id text PRIMARY KEY, resource_id text NOT NULL,
		norm double precision NOT NULL, embedding real[] NOT NULL) WITH (toast_tuple_target = 8160)`); err != nil {
		b.Fatal(err)
	}
	if _, err := s.pool.Exec(ctx, `ALTER TABLE bench_real ALTER COLUMN embedding SET STORAGE EXTERNAL`); err != nil {
		b.Fatal(err)
	}
	for _, dim := range vectortest.BenchDimensions {
		b.Run(fmt.Sprintf("dim=%d/n=%d", dim, n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(dim), 1))
			if _, err := s.pool.Exec(ctx, `TRUNCATE bench_real`); err != nil {
				b.Fatal(err)
			}
			for from := 0; from < n; from += 1000 {
				ids, norms, vecs := make([]string, 1000), make([]float64, 1000), make([][]float32, 1000)
				for i := range ids {
					ids[i], vecs[i] = fmt.Sprintf("msg-%07d", from+i), randomVector(rng, dim)
					norms[i] = vector.Norm(vecs[i])
				}
				if _, err := s.pool.Exec(ctx, `INSERT INTO bench_real (id, resource_id, norm, embedding)
					SELECT u.id, 'user-1', u.norm, (SELECT array_agg(x ORDER BY o) FROM jsonb_array_elements_text(u.v) WITH ORDINALITY AS e (x, o))::real[]
					FROM unnest($1::text[], $2::float8[], $3::jsonb[]) AS u (id, norm, v)`, ids, norms, jsonArrays(vecs)); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := s.pool.Exec(ctx, `ANALYZE bench_real`); err != nil {
				b.Fatal(err)
			}
			q := randomVector(rng, dim)
			qNorm := vector.Norm(q)
			for b.Loop() {
				rows, err := s.pool.Query(ctx, `SELECT id, (SELECT sum(a::float8 * b::float8) FROM unnest(embedding, $1::real[]) AS u (a, b)) / (norm * $2) AS score
					FROM bench_real WHERE resource_id = 'user-1' ORDER BY score DESC, id LIMIT 10`, q, qNorm)
				if err != nil {
					b.Fatal(err)
				}
				got := 0
				for rows.Next() {
					got++
				}
				if err := rows.Err(); err != nil || got != 10 {
					b.Fatalf("%d rows, %v", got, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
		})
	}
}

func randomVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// jsonArrays is each vector as a JSON array.
func jsonArrays(vecs [][]float32) []string {
	out := make([]string, len(vecs))
	for i, v := range vecs {
		b := []byte{'['}
		for j, x := range v {
			if j > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, "%g", x)
		}
		out[i] = string(append(b, ']'))
	}
	return out
}
