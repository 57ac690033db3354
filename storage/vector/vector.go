// Package vector is what semantic recall searches: named indexes of
// embeddings, each vector stored with an id and free metadata, queried
// for the vectors nearest a query vector by cosine similarity, as
// Mastra's vector stores (LibSQLVector, PgVector: the `vector` of its
// Memory) are.
//
// Two backends implement [Store], on the databases storage already uses:
// storage/sqlite (pure Go, no extension) and storage/postgres (plain
// PostgreSQL, without pgvector). Their *Store is both a storage.Store
// and a vector.Store. storage/vector/vectortest is the conformance suite
// both pass.
//
// # Exact search
//
// A query scores every stored vector its filter selects and keeps the
// best TopK (a bounded heap, while the rows stream by: nothing is loaded
// whole), so its results are exact: the TopK vectors of highest cosine
// similarity, never an approximation. Its cost grows with the number of
// vectors the filter selects — a resource's or a thread's, for semantic
// recall, found through an index on those keys — which docs/vector.md
// measures, with the point where an approximate index would become
// necessary.
//
// # The contract
//
//   - Index names are Mastra's SQL identifiers: a letter or underscore,
//     then letters, digits and underscores, 63 characters at most
//     ([CheckIndexName]). An index has a dimension, from 1 to
//     [MaxDimension], and a metric, [MetricCosine] (Mastra's default, the
//     only one).
//   - CreateIndex is idempotent: creating an index that exists with the
//     same dimension does nothing; with another dimension it fails with
//     an error wrapping [ErrDimensionMismatch].
//   - Every call naming an index that does not exist fails with an error
//     wrapping storage.ErrNotFound, except DeleteIndex (nothing to do)
//     and calls with nothing to do (an Upsert of no records, a
//     DeleteVectors of no ids), which do not look.
//   - A vector must have the index's dimension (else an error wrapping
//     ErrDimensionMismatch), finite components (NaN and ±Inf are
//     refused) and a length other than zero (a zero vector has no
//     direction: its cosine with anything is undefined). Record ids must
//     not be empty (and, as storage's ids, hold no NUL and be valid
//     UTF-8).
//   - Upsert is all or none, and replaces the vector and metadata of
//     ids that exist; of an id given twice in one batch, the last wins.
//   - Query returns at most TopK matches (TopK < 1 is an error), by Score
//     — the cosine similarity, in [-1, 1], higher is closer — highest
//     first, ties by id (ascending, byte-wise). Scores are computed in
//     float64 from the stored float32 components.
//   - A [Filter] selects by equality on metadata keys: a record matches
//     when, for every key of the filter, its metadata holds that key
//     with a string value equal to the filter's (a number or a missing
//     key never matches). Keys follow the index names' rule. An empty
//     filter selects every vector of the index (DeleteByFilter refuses
//     it, which would delete them all). Semantic recall filters on
//     [KeyThreadID] or [KeyResourceID], which backends index.
//   - Metadata is kept as JSON: it comes back decoded from JSON (numbers
//     as float64), nil when the record had none (or an empty map).
//     Strings in it must hold no NUL character.
//   - An error of the database or its driver is a *storage.DatabaseError,
//     as the storage package's; refused arguments are plain errors that
//     name them.
//
// Every method is safe for concurrent use.
//
// # For backends
//
// The checks ([CheckIndexName], [CheckDimension], [CheckQuery],
// [CheckFilter], [PrepareRecords]), the stored form of a vector
// ([Encode], [Norm]) and the exact top-K scan ([TopK]) are exported so
// that every backend applies the same rules and computes the same
// scores.
package vector

import (
	"context"
	"errors"
)

// Store keeps vector indexes and searches them.
type Store interface {
	// CreateIndex creates the index name of the given dimension, with
	// the cosine metric. It is idempotent: an index that exists with
	// that dimension is left as it is; one with another dimension is an
	// error wrapping ErrDimensionMismatch.
	CreateIndex(ctx context.Context, name string, dimension int) error
	// ListIndexes returns the names of the indexes, sorted.
	ListIndexes(ctx context.Context) ([]string, error)
	// DescribeIndex returns the index's dimension, metric and number of
	// vectors, or an error wrapping storage.ErrNotFound.
	DescribeIndex(ctx context.Context, name string) (IndexStats, error)
	// DeleteIndex removes the index and its vectors. Deleting an index
	// that does not exist does nothing.
	DeleteIndex(ctx context.Context, name string) error

	// Upsert inserts the records, or replaces the vector and metadata of
	// those whose id the index holds, all or none.
	Upsert(ctx context.Context, index string, recs []Record) error
	// Query returns the q.TopK vectors of the index most similar to
	// q.Vector among those q.Filter selects, most similar first.
	Query(ctx context.Context, index string, q Query) ([]Match, error)
	// DeleteVectors removes the vectors with the given ids (ids the index
	// does not hold are skipped).
	DeleteVectors(ctx context.Context, index string, ids []string) error
	// DeleteByFilter removes the vectors the filter selects (a thread's,
	// when a thread is deleted). An empty filter is refused.
	DeleteByFilter(ctx context.Context, index string, filter Filter) error
}

// Record is one vector to store.
type Record struct {
	// ID identifies the vector in its index.
	ID string
	// Vector is the embedding, of the index's dimension.
	Vector []float32
	// Metadata is kept beside the vector and returned with it; Filter
	// selects on its string values.
	Metadata map[string]any
}

// Query asks an index for its vectors nearest Vector.
type Query struct {
	// Vector is the query embedding, of the index's dimension.
	Vector []float32
	// TopK is how many matches at most to return; it must be 1 or
	// more (Mastra's default is [DefaultTopK]).
	TopK int
	// Filter selects the vectors searched; nil searches them all.
	Filter Filter
}

// Filter selects vectors by equality on metadata keys: a vector matches
// when its metadata holds every key with a string value equal to the
// filter's.
type Filter map[string]string

// Match is one result of a query.
type Match struct {
	ID string
	// Score is the cosine similarity of the stored vector and the query,
	// in [-1, 1]: 1 is the same direction, higher is closer.
	Score float64
	// Metadata is the record's metadata, decoded from JSON; nil when it
	// had none.
	Metadata map[string]any
}

// IndexStats describes an index.
type IndexStats struct {
	Dimension int
	// Count is how many vectors the index holds.
	Count int
	// Metric is MetricCosine.
	Metric string
}

const (
	// MetricCosine is the metric of every index: cosine similarity.
	MetricCosine = "cosine"
	// MaxDimension is the largest dimension an index may have (as
	// pgvector's vector type).
	MaxDimension = 16000
	// DefaultTopK is Mastra's TopK when a query names none.
	DefaultTopK = 10
)

// The metadata keys semantic recall stores with each message's
// embeddings, as Mastra's Memory does: a query filters on the thread or
// the resource, and a match names its message. Backends index the
// thread and the resource.
const (
	KeyThreadID   = "thread_id"
	KeyResourceID = "resource_id"
	KeyMessageID  = "message_id"
)

// ErrDimensionMismatch is wrapped by the errors of a vector whose length
// is not its index's dimension, and of a CreateIndex of an index that
// exists with another dimension.
var ErrDimensionMismatch = errors.New("vector: dimension mismatch")
