package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

// A Store is also a vector.Store: vector indexes in the same database
// (schema version 7), searched exactly. A query reads the rows its
// filter selects — through the thread or resource index when it filters
// on one — and scores each in Go as it streams by (vector.TopK: a heap
// of TopK entries), so it holds TopK rows in memory, never the index.
// Other metadata keys are filtered with json_extract, row by row.
var _ vector.Store = (*Store)(nil)

// CreateIndex creates the vector index name of the given dimension
// (cosine metric), or does nothing when it exists with that dimension;
// with another, it fails with an error wrapping
// vector.ErrDimensionMismatch.
func (s *Store) CreateIndex(ctx context.Context, name string, dimension int) error {
	if err := vector.CheckIndexName(name); err != nil {
		return fmt.Errorf("sqlite: create index: %w", err)
	}
	if err := vector.CheckDimension(dimension); err != nil {
		return fmt.Errorf("sqlite: create index %s: %w", name, err)
	}
	var have int
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mastra_vector_indexes (name, dimension, metric, created_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`, name, dimension, vector.MetricCosine, toMicros(now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT dimension FROM mastra_vector_indexes WHERE name = ?`, name).Scan(&have)
	})
	if err != nil {
		return storage.DatabaseFailure("create index", fmt.Errorf("sqlite: create index %s: %w", name, err))
	}
	if have != dimension {
		return fmt.Errorf("sqlite: create index %s: %w: it exists with dimension %d, not %d",
			name, vector.ErrDimensionMismatch, have, dimension)
	}
	return nil
}

// ListIndexes returns the names of the vector indexes, sorted.
func (s *Store) ListIndexes(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT name FROM mastra_vector_indexes`)
	if err != nil {
		return nil, storage.DatabaseFailure("list indexes", fmt.Errorf("sqlite: list indexes: %w", err))
	}
	names, err := collect(rows, func(sc scanner) (string, error) {
		var n string
		return n, sc.Scan(&n)
	})
	if err != nil {
		return nil, storage.DatabaseFailure("list indexes", fmt.Errorf("sqlite: list indexes: %w", err))
	}
	slices.Sort(names)
	return names, nil
}

// DescribeIndex returns the index's dimension, metric and number of
// vectors, or an error wrapping storage.ErrNotFound.
func (s *Store) DescribeIndex(ctx context.Context, name string) (vector.IndexStats, error) {
	if err := vector.CheckIndexName(name); err != nil {
		return vector.IndexStats{}, fmt.Errorf("sqlite: describe index: %w", err)
	}
	var st vector.IndexStats
	err := s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT dimension, metric FROM mastra_vector_indexes WHERE name = ?`, name).Scan(&st.Dimension, &st.Metric)
		if errors.Is(err, sql.ErrNoRows) {
			return indexNotFound(name)
		}
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM mastra_vectors WHERE index_name = ?`, name).Scan(&st.Count)
	})
	if err != nil {
		return vector.IndexStats{}, storage.DatabaseFailure("describe index", fmt.Errorf("sqlite: describe index %s: %w", name, err))
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
		return fmt.Errorf("sqlite: delete index: %w", err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_vector_indexes WHERE name = ?`, name)
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete index", fmt.Errorf("sqlite: delete index %s: %w", name, err))
	}
	return nil
}

// indexDimension returns the index's dimension, or an error wrapping
// storage.ErrNotFound.
func indexDimension(ctx context.Context, tx *sql.Tx, name string) (int, error) {
	var dim int
	err := tx.QueryRowContext(ctx, `SELECT dimension FROM mastra_vector_indexes WHERE name = ?`, name).Scan(&dim)
	if errors.Is(err, sql.ErrNoRows) {
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

// Upsert inserts the records into the index, or replaces the vector and
// metadata of those whose id it holds, in one transaction: all or none.
// A batch of any size is one transaction of one prepared statement.
func (s *Store) Upsert(ctx context.Context, index string, recs []vector.Record) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("sqlite: upsert: %w", err)
	}
	rows, err := vector.PrepareRecords(recs)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		dim, err := indexDimension(ctx, tx, index)
		if err != nil {
			return err
		}
		if err := vector.CheckRows(rows, index, dim); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO mastra_vectors (index_name, id, thread_id, resource_id, norm, metadata, embedding)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (index_name, id) DO UPDATE SET thread_id = excluded.thread_id, resource_id = excluded.resource_id,
				norm = excluded.norm, metadata = excluded.metadata, embedding = excluded.embedding`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range rows {
			if _, err := stmt.ExecContext(ctx, index, r.ID, r.ThreadID, r.ResourceID, r.Norm, textOrNil(r.Metadata), r.Embedding); err != nil {
				return fmt.Errorf("vector %s: %w", r.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return vectorFailure("upsert vectors", fmt.Errorf("sqlite: upsert into %s: %w", index, err))
	}
	return nil
}

// textOrNil is b as TEXT, or NULL when b is nil.
func textOrNil(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// vectorFilter returns the conditions on mastra_vectors that select what
// f selects, " AND ..." (or ""), and their arguments. thread_id and
// resource_id are columns; any other key is the metadata's, a string
// (json_type 'text') equal to the value. Keys passed vector.CheckFilter
// (identifiers), so the JSON path '$.key' needs no quoting.
func vectorFilter(f vector.Filter) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	for _, k := range vector.FilterKeys(f) {
		switch k {
		case vector.KeyThreadID, vector.KeyResourceID:
			b.WriteString(" AND " + k + " = ?")
			args = append(args, f[k])
		default:
			path := "$." + k
			b.WriteString(" AND json_type(metadata, ?) = 'text' AND json_extract(metadata, ?) = ?")
			args = append(args, path, path, f[k])
		}
	}
	return b.String(), args
}

// Query returns the q.TopK vectors of the index most similar to q.Vector
// (cosine similarity) among those q.Filter selects, most similar first,
// ties by id. It reads one snapshot of the index, row by row, keeping
// the best q.TopK; the rows are scored in place (see offerFunc).
func (s *Store) Query(ctx context.Context, index string, q vector.Query) ([]vector.Match, error) {
	if err := vector.CheckIndexName(index); err != nil {
		return nil, fmt.Errorf("sqlite: query: %w", err)
	}
	if err := vector.CheckQuery(q); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	where, fargs := vectorFilter(q.Filter)
	var ms []vector.Match
	err := s.read(ctx, func(tx *sql.Tx) error {
		dim, err := indexDimension(ctx, tx, index)
		if err != nil {
			return err
		}
		if err := vector.CheckDimensionOf("query vector", q.Vector, index, dim); err != nil {
			return err
		}
		top := vector.NewTopK(q)
		search, done := startSearch(top)
		defer done()
		var n int64
		if err := tx.QueryRowContext(ctx, offerQuery+where, append([]any{search, index}, fargs...)...).Scan(&n); err != nil {
			return err
		}
		ms, err = top.Matches()
		return err
	})
	if err != nil {
		return nil, vectorFailure("query vectors", fmt.Errorf("sqlite: query %s: %w", index, err))
	}
	return ms, nil
}

// DeleteVectors removes the vectors with the given ids from the index
// (ids it does not hold are skipped), in one statement whatever their
// number: they go as one JSON array, which json_each unrolls.
func (s *Store) DeleteVectors(ctx context.Context, index string, ids []string) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("sqlite: delete vectors: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	if err := vector.CheckIDs(ids); err != nil {
		return fmt.Errorf("sqlite: delete vectors of %s: %w", index, err)
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return fmt.Errorf("sqlite: delete vectors: %w", err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := indexDimension(ctx, tx, index); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_vectors WHERE index_name = ? AND id IN (SELECT value FROM json_each(?))`,
			index, string(idList))
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete vectors", fmt.Errorf("sqlite: delete vectors of %s: %w", index, err))
	}
	return nil
}

// DeleteByFilter removes the index's vectors the filter selects (one
// statement). An empty filter is refused.
func (s *Store) DeleteByFilter(ctx context.Context, index string, filter vector.Filter) error {
	if err := vector.CheckIndexName(index); err != nil {
		return fmt.Errorf("sqlite: delete vectors: %w", err)
	}
	if len(filter) == 0 {
		return fmt.Errorf("sqlite: delete vectors of %s: empty filter (it would delete them all; DeleteIndex does that)", index)
	}
	if err := vector.CheckFilter(filter); err != nil {
		return fmt.Errorf("sqlite: delete vectors of %s: %w", index, err)
	}
	where, fargs := vectorFilter(filter)
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := indexDimension(ctx, tx, index); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM mastra_vectors WHERE index_name = ?`+where, append([]any{index}, fargs...)...)
		return err
	})
	if err != nil {
		return storage.DatabaseFailure("delete vectors", fmt.Errorf("sqlite: delete vectors of %s: %w", index, err))
	}
	return nil
}
