package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

// A Store is also a vector.Store: vector indexes in the same database
// (schema version 7), without pgvector, searched exactly. A query is one
// statement, which streams the rows its filter selects — through the
// thread or resource index when it filters on one — to Go, where each is
// scored as it arrives, in the driver's buffer (vector.TopK: a heap of
// TopK entries), so the process holds TopK rows, never the index. Other
// metadata keys are filtered on the jsonb metadata, row by row.
//
// Scoring in Go rather than in SQL is a measured choice: PostgreSQL has
// no dot product of arrays without an extension, and computing one in
// SQL (an unnest of two real[] and a sum, per row:
// BenchmarkVectorScanInSQL) took 13 to 70 times as long as sending the
// bytes and scoring them here, at 10,000 vectors of 384 and 1536
// dimensions (docs/vector.md has the figures).
var _ vector.Store = (*Store)(nil)

// CreateIndex creates the vector index name of the given dimension
// (cosine metric), or does nothing when it exists with that dimension;
// with another, it fails with an error wrapping
// vector.ErrDimensionMismatch.
func (s *Store) CreateIndex(ctx context.Context, name string, dimension int) error {
	if err := vector.CheckIndexName(name); err != nil {
		return fmt.Errorf("postgres: create index: %w", err)
	}
	if err := vector.CheckDimension(dimension); err != nil {
		return fmt.Errorf("postgres: create index %s: %w", name, err)
	}
	// Two statements: the SELECT's snapshot, taken after the INSERT,
	// sees the row a concurrent CreateIndex committed while the INSERT
	// waited for it.
	var have int
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO mastra_vector_indexes (name, dimension, metric, created_at)
			VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING`, name, dimension, vector.MetricCosine, now()); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT dimension FROM mastra_vector_indexes WHERE name = $1`, name).Scan(&have)
	})
	if err != nil {
		return storage.DatabaseFailure("create index", fmt.Errorf("postgres: create index %s: %w", name, err))
	}
	if have != dimension {
		return fmt.Errorf("postgres: create index %s: %w: it exists with dimension %d, not %d",
			name, vector.ErrDimensionMismatch, have, dimension)
	}
	return nil
}

// ListIndexes returns the names of the vector indexes, sorted (byte-wise,
// whatever the database's collation).
func (s *Store) ListIndexes(ctx context.Context) ([]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT name FROM mastra_vector_indexes`)
	if err != nil {
		return nil, storage.DatabaseFailure("list indexes", fmt.Errorf("postgres: list indexes: %w", err))
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, storage.DatabaseFailure("list indexes", fmt.Errorf("postgres: list indexes: %w", err))
	}
	slices.Sort(names)
	return names, nil
}

// DescribeIndex returns the index's dimension, metric and number of
// vectors, or an error wrapping storage.ErrNotFound.
func (s *Store) DescribeIndex(ctx context.Context, name string) (vector.IndexStats, error) {
	if err := vector.CheckIndexName(name); err != nil {
		return vector.IndexStats{}, fmt.Errorf("postgres: describe index: %w", err)
	}
	var st vector.IndexStats
	err := s.pool.QueryRow(ctx, `SELECT i.dimension, i.metric,
			(SELECT COUNT(*) FROM mastra_vectors v WHERE v.index_name = i.name)
		FROM mastra_vector_indexes i WHERE i.name = $1`, name).Scan(&st.Dimension, &st.Metric, &st.Count)
	if errors.Is(err, pgx.ErrNoRows) {
		return vector.IndexStats{}, fmt.Errorf("postgres: describe index: %w", indexNotFound(name))
	}
	if err != nil {
		return vector.IndexStats{}, storage.DatabaseFailure("describe index", fmt.Errorf("postgres: describe index %s: %w", name, err))
	}
	return st, nil
}

// indexNotFound is the error of an index that does not exist.
func indexNotFound(name string) error {
	return fmt.Errorf("vector index %s: %w", name, storage.ErrNotFound)
}

// DeleteIndex removes the index and its vectors; an index that does not
// exist is no error.
func (s *Store) DeleteIndex(ctx context.Context, name string) error {
	if err := vector.CheckIndexName(name); err != nil {
		return fmt.Errorf("postgres: delete index: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM mastra_vector_indexes WHERE name = $1`, name); err != nil {
		return storage.DatabaseFailure("delete index", fmt.Errorf("postgres: delete index %s: %w", name, err))
	}
	return nil
}

// lockIndex returns the index's dimension, holding a share lock on its
// row until tx ends (so that the index is not deleted, nor made again
// with another dimension, under the caller's writes), or an error
// wrapping storage.ErrNotFound.
func lockIndex(ctx context.Context, tx pgx.Tx, name string) (int, error) {
	var dim int
	err := tx.QueryRow(ctx, `SELECT dimension FROM mastra_vector_indexes WHERE name = $1 FOR SHARE`, name).Scan(&dim)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, indexNotFound(name)
	}
	return dim, err
}

// vectorFailure is what a vector call returns for err: a dimension
// mismatch found in its transaction as it is, anything else as
// storage.DatabaseFailure.
func vectorFailure(op string, err error) error {
	if errors.Is(err, vector.ErrDimensionMismatch) {
		return err
	}
	return storage.DatabaseFailure(op, err)
}

// upsertChunkBytes bounds the vectors one INSERT sends: a batch larger
// goes as several statements, in its one transaction.
const upsertChunkBytes = 8 << 20

// Upsert inserts the records into the index, or replaces the vector and
// metadata of those whose id it holds, in one transaction: all or none.
// The rows go as arrays, one parameter per column, unnested into one
// INSERT ... ON CONFLICT DO UPDATE (a few for a batch of more than 8 MB
// of vectors), in the order of their ids, so that concurrent upserts
// lock shared ids in one order.
func (s *Store) Upsert(ctx context.Context, index string, recs []vector.Record) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("postgres: upsert: %w", err)
	}
	rows, err := vector.PrepareRecords(recs)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	err = s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		dim, err := lockIndex(ctx, tx, index)
		if err != nil {
			return err
		}
		if err := vector.CheckRows(rows, index, dim); err != nil {
			return err
		}
		per := max(1, upsertChunkBytes/(4*dim+256))
		for from := 0; from < len(rows); from += per {
			chunk := rows[from:min(from+per, len(rows))]
			var (
				ids, meta          = make([]string, len(chunk)), make([]*string, len(chunk))
				threads, resources = make([]*string, len(chunk)), make([]*string, len(chunk))
				norms, embeddings  = make([]float64, len(chunk)), make([][]byte, len(chunk))
			)
			for i, r := range chunk {
				ids[i], threads[i], resources[i], norms[i], embeddings[i] = r.ID, r.ThreadID, r.ResourceID, r.Norm, r.Embedding
				if r.Metadata != nil {
					m := string(r.Metadata)
					meta[i] = &m
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO mastra_vectors (index_name, id, thread_id, resource_id, norm, metadata, embedding)
				SELECT $1, u.id, u.thread_id, u.resource_id, u.norm, u.metadata::jsonb, u.embedding
				FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::bytea[])
					AS u (id, thread_id, resource_id, norm, metadata, embedding)
				ON CONFLICT (index_name, id) DO UPDATE SET thread_id = excluded.thread_id, resource_id = excluded.resource_id,
					norm = excluded.norm, metadata = excluded.metadata, embedding = excluded.embedding`,
				index, ids, threads, resources, norms, meta, embeddings); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return vectorFailure("upsert vectors", fmt.Errorf("postgres: upsert into %s: %w", index, err))
	}
	return nil
}

// vectorFilter returns the conditions on mastra_vectors (as alias v) that
// select what f selects, " AND ..." (or ""), with parameters numbered
// from next, and their arguments. thread_id and resource_id are columns;
// any other key is the jsonb metadata's, equal to the value as a JSON
// string (so a number never matches).
func vectorFilter(f vector.Filter, next int) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	param := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(next+len(args)-1)
	}
	for _, k := range vector.FilterKeys(f) {
		switch k {
		case vector.KeyThreadID, vector.KeyResourceID:
			b.WriteString(" AND v." + k + " = " + param(f[k]))
		default:
			b.WriteString(" AND v.metadata -> " + param(k) + "::text = to_jsonb(" + param(f[k]) + "::text)")
		}
	}
	return b.String(), args
}

// Query returns the q.TopK vectors of the index most similar to q.Vector
// (cosine similarity) among those q.Filter selects, most similar first,
// ties by id. It is one statement, so one snapshot: the index's row
// (its dimension; no row, no index) left-joined to the vectors the
// filter selects, which are scored as they arrive.
func (s *Store) Query(ctx context.Context, index string, q vector.Query) ([]vector.Match, error) {
	if err := vector.CheckIndexName(index); err != nil {
		return nil, fmt.Errorf("postgres: query: %w", err)
	}
	if err := vector.CheckQuery(q); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	where, fargs := vectorFilter(q.Filter, 2)
	ms, err := s.query(ctx, index, q, `SELECT i.dimension, v.id, v.norm, v.metadata::text, v.embedding
		FROM mastra_vector_indexes i LEFT JOIN mastra_vectors v ON v.index_name = i.name`+where+`
		WHERE i.name = $1`, append([]any{index}, fargs...))
	if err != nil {
		return nil, vectorFailure("query vectors", fmt.Errorf("postgres: query %s: %w", index, err))
	}
	return ms, nil
}

func (s *Store) query(ctx context.Context, index string, q vector.Query, sql string, args []any) ([]vector.Match, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	top := vector.NewTopK(q)
	var (
		found         bool
		dim           int
		id, meta, emb pgtype.DriverBytes
		norm          pgtype.Float8
	)
	dest := []any{&dim, &id, &norm, &meta, &emb} // made once: a slice per Scan would be an allocation per row
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if !found {
			found = true
			if err := vector.CheckDimensionOf("query vector", q.Vector, index, dim); err != nil {
				return nil, err
			}
		}
		if id == nil { // the index, without a vector the filter selects
			continue
		}
		if !norm.Valid {
			return nil, fmt.Errorf("vector %s: no norm", id)
		}
		if err := top.Offer(id, norm.Float64, emb, meta); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if !found {
		return nil, indexNotFound(index)
	}
	return top.Matches()
}

// DeleteVectors removes the vectors with the given ids from the index
// (ids it does not hold are skipped), in one statement whatever their
// number: they go as one text[] parameter.
func (s *Store) DeleteVectors(ctx context.Context, index string, ids []string) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("postgres: delete vectors: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	if err := vector.CheckIDs(ids); err != nil {
		return fmt.Errorf("postgres: delete vectors of %s: %w", index, err)
	}
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := lockIndex(ctx, tx, index); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM mastra_vectors WHERE index_name = $1 AND id = ANY($2::text[])`, index, ids)
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete vectors", fmt.Errorf("postgres: delete vectors of %s: %w", index, err))
	}
	return nil
}

// DeleteByFilter removes the index's vectors the filter selects (one
// statement). An empty filter is refused.
func (s *Store) DeleteByFilter(ctx context.Context, index string, filter vector.Filter) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("postgres: delete vectors: %w", err)
	}
	if len(filter) == 0 {
		return fmt.Errorf("postgres: delete vectors of %s: empty filter (it would delete them all; DeleteIndex does that)", index)
	}
	if err := vector.CheckFilter(filter); err != nil {
		return fmt.Errorf("postgres: delete vectors of %s: %w", index, err)
	}
	where, fargs := vectorFilter(filter, 2)
	err := s.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := lockIndex(ctx, tx, index); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM mastra_vectors v WHERE v.index_name = $1`+where, append([]any{index}, fargs...)...)
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete vectors", fmt.Errorf("postgres: delete vectors of %s: %w", index, err))
	}
	return nil
}
