package vector

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gomastra/mastra/storage"
)

// The checks below are the argument rules every backend applies before
// it touches its database. Their errors read as the failing call's,
// without the backend's prefix: a backend wraps them with its own
// ("sqlite: ", "postgres: ").

// maxNameLen is the longest index name or filter key: PostgreSQL's
// identifier limit, as Mastra's parseSqlIdentifier.
const maxNameLen = 63

// CheckIndexName returns an error unless name is an SQL identifier as
// Mastra's vector stores accept one: a letter or underscore, then
// letters, digits or underscores, 63 characters at most. Backends keep
// index names as data, never in SQL text; the rule keeps names portable
// to stores that make each index a table.
func CheckIndexName(name string) error {
	if err := checkIdentifier(name); err != nil {
		return fmt.Errorf("index name %q: %w", name, err)
	}
	return nil
}

// checkIdentifier applies the SQL identifier rule.
func checkIdentifier(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case len(s) > maxNameLen:
		return fmt.Errorf("%d characters, more than %d", len(s), maxNameLen)
	case s[0] >= '0' && s[0] <= '9':
		return errors.New("must start with a letter or an underscore")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return errors.New("must hold only letters, digits and underscores")
		}
	}
	return nil
}

// CheckDimension returns an error unless dimension is from 1 to
// MaxDimension.
func CheckDimension(dimension int) error {
	if dimension < 1 || dimension > MaxDimension {
		return fmt.Errorf("dimension %d, want 1 to %d", dimension, MaxDimension)
	}
	return nil
}

// checkVector returns an error unless v has finite components and a
// length other than zero, and returns its norm.
func checkVector(v []float32) (float64, error) {
	if len(v) == 0 {
		return 0, errors.New("empty vector")
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return 0, fmt.Errorf("component %d is %v: want finite numbers", i, x)
		}
	}
	n := Norm(v)
	if n == 0 {
		return 0, errors.New("zero vector: it has no direction, so no cosine similarity")
	}
	return n, nil
}

// CheckDimensionOf returns an error wrapping ErrDimensionMismatch when v
// does not have the index's dimension; what names the vector.
func CheckDimensionOf(what string, v []float32, index string, dimension int) error {
	if len(v) != dimension {
		return fmt.Errorf("%w: %s has %d dimensions, index %s has %d", ErrDimensionMismatch, what, len(v), index, dimension)
	}
	return nil
}

// CheckQuery checks q but for its dimension, which the backend checks
// against the index's (CheckDimensionOf): TopK must be 1 or more, the
// vector finite and not zero, the filter valid (CheckFilter).
func CheckQuery(q Query) error {
	if q.TopK < 1 {
		return fmt.Errorf("query: topK %d, want 1 or more", q.TopK)
	}
	if _, err := checkVector(q.Vector); err != nil {
		return fmt.Errorf("query: vector: %w", err)
	}
	if err := CheckFilter(q.Filter); err != nil {
		return fmt.Errorf("query: %w", err)
	}
	return nil
}

// CheckFilter returns an error unless every key of f follows the index
// names' rule and every value is valid UTF-8 without NUL.
func CheckFilter(f Filter) error {
	for k, v := range f {
		if err := checkIdentifier(k); err != nil {
			return fmt.Errorf("filter key %q: %w", k, err)
		}
		if err := storage.CheckID(v); err != nil {
			return fmt.Errorf("filter %s: value %w", k, err)
		}
	}
	return nil
}

// FilterKeys returns f's keys, sorted: the order backends write their
// conditions in.
func FilterKeys(f Filter) []string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Row is a record as the SQL backends store it.
type Row struct {
	ID string
	// ThreadID and ResourceID are the metadata's KeyThreadID and
	// KeyResourceID when they are strings, else nil: the columns the
	// backends index.
	ThreadID, ResourceID *string
	// Norm is the vector's Euclidean norm.
	Norm float64
	// Embedding is the vector, Encode'd.
	Embedding []byte
	// Metadata is the metadata's JSON, nil when there is none.
	Metadata []byte
	// Dimension is the vector's length.
	Dimension int
}

// PrepareRecords checks recs and returns their stored form, sorted by id
// (so that concurrent upserts take their rows' locks in one order), an
// id given twice kept once, as its last record. Each record needs an id
// (storage.CheckID) and a finite vector other than zero; its metadata
// must encode as JSON and hold no NUL character. The error names the
// record by its place in recs. The dimension is the backend's to check
// (CheckRows).
func PrepareRecords(recs []Record) ([]Row, error) {
	rows := make([]Row, 0, len(recs))
	last := make(map[string]int, len(recs))
	for i, r := range recs {
		row, err := prepare(r)
		if err != nil {
			return nil, fmt.Errorf("upsert: record %d: %w", i, err)
		}
		if j, ok := last[r.ID]; ok {
			rows[j] = row
			continue
		}
		last[r.ID] = len(rows)
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b Row) int { return strings.Compare(a.ID, b.ID) })
	return rows, nil
}

func prepare(r Record) (Row, error) {
	if r.ID == "" {
		return Row{}, errors.New("empty id")
	}
	if err := storage.CheckID(r.ID); err != nil {
		return Row{}, fmt.Errorf("id %q: %w", r.ID, err)
	}
	norm, err := checkVector(r.Vector)
	if err != nil {
		return Row{}, fmt.Errorf("%s: vector: %w", r.ID, err)
	}
	row := Row{ID: r.ID, Norm: norm, Embedding: Encode(r.Vector), Dimension: len(r.Vector)}
	if len(r.Metadata) > 0 {
		if row.Metadata, err = json.Marshal(r.Metadata); err != nil {
			return Row{}, fmt.Errorf("%s: metadata: %w", r.ID, err)
		}
		if hasNUL(row.Metadata) {
			return Row{}, fmt.Errorf("%s: metadata: a string holds a NUL character (U+0000)", r.ID)
		}
		for _, c := range []struct {
			key string
			dst **string
		}{{KeyThreadID, &row.ThreadID}, {KeyResourceID, &row.ResourceID}} {
			s, ok := r.Metadata[c.key].(string)
			if !ok {
				continue
			}
			if err := storage.CheckID(s); err != nil {
				return Row{}, fmt.Errorf("%s: metadata %s: %w", r.ID, c.key, err)
			}
			*c.dst = &s
		}
	}
	return row, nil
}

// hasNUL reports whether the JSON text js holds the escape of a NUL
// character (\u0000) in a string. A backslash in JSON always begins an
// escape, so the scan skips the character each one escapes.
func hasNUL(js []byte) bool {
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' {
			continue
		}
		if i+6 <= len(js) && string(js[i+1:i+6]) == "u0000" {
			return true
		}
		i++ // the escaped character
	}
	return false
}

// CheckIDs returns an error naming the first of ids that no record may
// have (storage.CheckID; an empty id is allowed: it matches nothing).
func CheckIDs(ids []string) error {
	for i, id := range ids {
		if err := storage.CheckID(id); err != nil {
			return fmt.Errorf("id %d: %w", i, err)
		}
	}
	return nil
}

// CheckRows returns an error wrapping ErrDimensionMismatch when a row's
// vector does not have the index's dimension.
func CheckRows(rows []Row, index string, dimension int) error {
	for _, r := range rows {
		if r.Dimension != dimension {
			return fmt.Errorf("%w: upsert: record %s has %d dimensions, index %s has %d",
				ErrDimensionMismatch, r.ID, r.Dimension, index, dimension)
		}
	}
	return nil
}
