// Package vectortest is the conformance suite every vector.Store backend
// passes. A backend's tests call Run with a function that opens a fresh,
// empty store (and closes it when the test ends):
//
//	func TestVectorConformance(t *testing.T) {
//		vectortest.Run(t, func(t *testing.T) vector.Store {
//			s, err := sqlite.Open(t.Context(), sqlite.Memory)
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// The suite checks the contract of package vector: results against a
// brute-force search computed here (every score to 1e-9, the order
// exact but among scores closer than that, ties by id), filters,
// replacing upserts, deletes, dimension and argument errors, concurrent
// upserts, and batches beyond SQL parameter limits. A store that is
// also an io.Closer is checked closed too: every call fails with a
// *storage.DatabaseError.
//
// BenchQuery is the query benchmark both backends run.
package vectortest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/vector"
)

// Run runs the conformance suite against the stores open returns. open
// is called once per subtest and must return a new, empty store, which
// it closes when the subtest ends.
func Run(t *testing.T, open func(t *testing.T) vector.Store) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			if s == nil {
				t.Fatal("open returned a nil store")
			}
			tc.fn(t, s)
		})
	}
}

var tests = []struct {
	name string
	fn   func(t *testing.T, s vector.Store)
}{
	{"CreateIndexIdempotent", testCreateIndex},
	{"IndexNames", testIndexNames},
	{"DescribeListDelete", testDescribeListDelete},
	{"UnknownIndex", testUnknownIndex},
	{"Scores", testScores},
	{"ExactOrder", testExactOrder},
	{"Ties", testTies},
	{"Filters", testFilters},
	{"Metadata", testMetadata},
	{"UpsertReplaces", testUpsertReplaces},
	{"DeleteVectors", testDeleteVectors},
	{"DeleteByFilter", testDeleteByFilter},
	{"IndexesAreSeparate", testIndexesSeparate},
	{"DimensionErrors", testDimensionErrors},
	{"InvalidArguments", testInvalidArguments},
	{"ConcurrentUpserts", testConcurrentUpserts},
	{"ConcurrentCreateIndex", testConcurrentCreateIndex},
	{"BigBatches", testBigBatches},
	{"ClosedStore", testClosedStore},
}

func must(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func wantErr(t testing.TB, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: err = %v, want errors.Is(err, %v)", what, err, target)
	}
}

// wantRefused checks that err is an argument error: not nil, and neither
// a sentinel nor a database error.
func wantRefused(t testing.TB, what string, err error) {
	t.Helper()
	var de *storage.DatabaseError
	switch {
	case err == nil:
		t.Errorf("%s: no error", what)
	case errors.As(err, &de):
		t.Errorf("%s: %v is a database error, want an argument error", what, err)
	case errors.Is(err, storage.ErrNotFound):
		t.Errorf("%s: %v wraps ErrNotFound, want an argument error", what, err)
	}
}

func count(t testing.TB, s vector.Store, index string) int {
	t.Helper()
	st, err := s.DescribeIndex(t.Context(), index)
	must(t, "DescribeIndex "+index, err)
	return st.Count
}

// query runs q and fails t on an error.
func query(t testing.TB, s vector.Store, index string, q vector.Query) []vector.Match {
	t.Helper()
	ms, err := s.Query(t.Context(), index, q)
	must(t, "Query", err)
	return ms
}

func ids(ms []vector.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func testCreateIndex(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "memory_messages", 1536))
	must(t, "CreateIndex again", s.CreateIndex(ctx, "memory_messages", 1536))
	must(t, "Upsert", s.Upsert(ctx, "memory_messages", []vector.Record{{ID: "a", Vector: unit(1536, 0)}}))
	must(t, "CreateIndex after an upsert", s.CreateIndex(ctx, "memory_messages", 1536))
	if n := count(t, s, "memory_messages"); n != 1 {
		t.Errorf("CreateIndex of an existing index: count %d, want its vector kept", n)
	}
	err := s.CreateIndex(ctx, "memory_messages", 384)
	wantErr(t, "CreateIndex with another dimension", err, vector.ErrDimensionMismatch)
	if err != nil && (!strings.Contains(err.Error(), "1536") || !strings.Contains(err.Error(), "384")) {
		t.Errorf("CreateIndex with another dimension: %q does not name both dimensions", err)
	}
	st, err := s.DescribeIndex(ctx, "memory_messages")
	must(t, "DescribeIndex", err)
	if st != (vector.IndexStats{Dimension: 1536, Count: 1, Metric: vector.MetricCosine}) {
		t.Errorf("DescribeIndex = %+v after a refused CreateIndex", st)
	}
	for _, d := range []int{0, -1, vector.MaxDimension + 1} {
		wantRefused(t, fmt.Sprintf("CreateIndex dimension %d", d), s.CreateIndex(ctx, "other", d))
	}
	must(t, "CreateIndex of dimension 1", s.CreateIndex(ctx, "one", 1))
	must(t, "CreateIndex of MaxDimension", s.CreateIndex(ctx, "max", vector.MaxDimension))
}

// testIndexNames: names that are not SQL identifiers are refused by every
// call, before any SQL, and a valid name that looks like SQL is only a
// name.
func testIndexNames(t *testing.T, s vector.Store) {
	ctx := t.Context()
	for _, name := range []string{"", "1x", "a-b", "a b", `x"; DROP TABLE mastra_threads; --`, "x'--", "memory.messages",
		"é", strings.Repeat("n", 64), "a\x00b"} {
		q := vector.Query{Vector: []float32{1}, TopK: 1}
		wantRefused(t, fmt.Sprintf("CreateIndex(%q)", name), s.CreateIndex(ctx, name, 1))
		_, err := s.DescribeIndex(ctx, name)
		wantRefused(t, fmt.Sprintf("DescribeIndex(%q)", name), err)
		wantRefused(t, fmt.Sprintf("DeleteIndex(%q)", name), s.DeleteIndex(ctx, name))
		wantRefused(t, fmt.Sprintf("Upsert(%q)", name), s.Upsert(ctx, name, []vector.Record{{ID: "a", Vector: []float32{1}}}))
		_, err = s.Query(ctx, name, q)
		wantRefused(t, fmt.Sprintf("Query(%q)", name), err)
		wantRefused(t, fmt.Sprintf("DeleteVectors(%q)", name), s.DeleteVectors(ctx, name, []string{"a"}))
		wantRefused(t, fmt.Sprintf("DeleteByFilter(%q)", name), s.DeleteByFilter(ctx, name, vector.Filter{"k": "v"}))
	}
	for _, name := range []string{"select", "DROP", "_", "Memory_Messages_384", strings.Repeat("n", 63)} {
		must(t, "CreateIndex "+name, s.CreateIndex(ctx, name, 2))
	}
	// Names are case-sensitive: Memory_Messages_384 is not memory_messages_384.
	_, err := s.DescribeIndex(ctx, "memory_messages_384")
	wantErr(t, "DescribeIndex of another case", err, storage.ErrNotFound)
	names, err := s.ListIndexes(ctx)
	must(t, "ListIndexes", err)
	want := []string{"DROP", "Memory_Messages_384", "_", strings.Repeat("n", 63), "select"}
	if !slices.Equal(names, want) {
		t.Errorf("ListIndexes = %q, want %q", names, want)
	}
}

func testDescribeListDelete(t *testing.T, s vector.Store) {
	ctx := t.Context()
	names, err := s.ListIndexes(ctx)
	must(t, "ListIndexes", err)
	if len(names) != 0 {
		t.Errorf("ListIndexes of an empty store = %q", names)
	}
	must(t, "CreateIndex", s.CreateIndex(ctx, "memory_messages_384", 3))
	must(t, "CreateIndex", s.CreateIndex(ctx, "memory_messages", 2))
	must(t, "Upsert", s.Upsert(ctx, "memory_messages", []vector.Record{
		{ID: "a", Vector: []float32{1, 0}}, {ID: "b", Vector: []float32{0, 1}},
	}))
	names, err = s.ListIndexes(ctx)
	must(t, "ListIndexes", err)
	if !slices.Equal(names, []string{"memory_messages", "memory_messages_384"}) {
		t.Errorf("ListIndexes = %q, want both, sorted", names)
	}
	st, err := s.DescribeIndex(ctx, "memory_messages")
	must(t, "DescribeIndex", err)
	if st != (vector.IndexStats{Dimension: 2, Count: 2, Metric: vector.MetricCosine}) {
		t.Errorf("DescribeIndex = %+v", st)
	}

	must(t, "DeleteIndex", s.DeleteIndex(ctx, "memory_messages"))
	must(t, "DeleteIndex of a deleted index", s.DeleteIndex(ctx, "memory_messages"))
	must(t, "DeleteIndex of an index never made", s.DeleteIndex(ctx, "never"))
	_, err = s.DescribeIndex(ctx, "memory_messages")
	wantErr(t, "DescribeIndex of a deleted index", err, storage.ErrNotFound)
	names, err = s.ListIndexes(ctx)
	must(t, "ListIndexes", err)
	if !slices.Equal(names, []string{"memory_messages_384"}) {
		t.Errorf("ListIndexes after a delete = %q", names)
	}
	// Made again, with another dimension: empty, its old vectors gone.
	must(t, "CreateIndex again", s.CreateIndex(ctx, "memory_messages", 3))
	if n := count(t, s, "memory_messages"); n != 0 {
		t.Errorf("an index made again has %d vectors, want 0", n)
	}
	ms := query(t, s, "memory_messages", vector.Query{Vector: []float32{1, 0, 0}, TopK: 10})
	if len(ms) != 0 {
		t.Errorf("Query of an index made again = %+v", ms)
	}
}

func testUnknownIndex(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "known", 2))
	_, err := s.DescribeIndex(ctx, "unknown")
	wantErr(t, "DescribeIndex", err, storage.ErrNotFound)
	wantErr(t, "Upsert", s.Upsert(ctx, "unknown", []vector.Record{{ID: "a", Vector: []float32{1, 0}}}), storage.ErrNotFound)
	_, err = s.Query(ctx, "unknown", vector.Query{Vector: []float32{1, 0}, TopK: 1})
	wantErr(t, "Query", err, storage.ErrNotFound)
	if err != nil && !strings.Contains(err.Error(), "unknown") {
		t.Errorf("Query of an unknown index: %q does not name it", err)
	}
	wantErr(t, "DeleteVectors", s.DeleteVectors(ctx, "unknown", []string{"a"}), storage.ErrNotFound)
	wantErr(t, "DeleteByFilter", s.DeleteByFilter(ctx, "unknown", vector.Filter{"k": "v"}), storage.ErrNotFound)
	// Nothing to do: no look.
	must(t, "Upsert of no records", s.Upsert(ctx, "unknown", nil))
	must(t, "DeleteVectors of no ids", s.DeleteVectors(ctx, "unknown", nil))
}

// unit is the dim-dimensional unit vector along axis i.
func unit(dim, i int) []float32 {
	v := make([]float32, dim)
	v[i] = 1
	return v
}

func testScores(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "i", 3))
	must(t, "Upsert", s.Upsert(ctx, "i", []vector.Record{
		{ID: "same", Vector: []float32{2, 0, 0}},        // the query's direction, another length
		{ID: "opposite", Vector: []float32{-0.5, 0, 0}}, // -1
		{ID: "orthogonal", Vector: []float32{0, 3, 0}},  // 0
		{ID: "diagonal", Vector: []float32{1, 1, 0}},    // 1/√2
	}))
	ms := query(t, s, "i", vector.Query{Vector: []float32{1, 0, 0}, TopK: 10})
	want := []vector.Match{{ID: "same", Score: 1}, {ID: "diagonal", Score: 1 / math.Sqrt2}, {ID: "orthogonal", Score: 0}, {ID: "opposite", Score: -1}}
	if len(ms) != len(want) {
		t.Fatalf("Query = %+v, want %+v", ms, want)
	}
	for i := range ms {
		if ms[i].ID != want[i].ID || math.Abs(ms[i].Score-want[i].Score) > 1e-12 {
			t.Errorf("match %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
	ms = query(t, s, "i", vector.Query{Vector: []float32{1, 0, 0}, TopK: 2})
	if !slices.Equal(ids(ms), []string{"same", "diagonal"}) {
		t.Errorf("TopK 2 = %q", ids(ms))
	}
}

// randomVector is a vector of standard normal components: uniformly
// distributed directions.
func randomVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// reference is the brute-force search the suite checks stores against:
// every vector scored with one plain float64 sum, all sorted.
func reference(q []float32, recs []vector.Record, filter vector.Filter) []vector.Match {
	var ms []vector.Match
	for _, r := range recs {
		if !matches(r.Metadata, filter) {
			continue
		}
		var d, nq, nv float64
		for j := range r.Vector {
			d += float64(q[j]) * float64(r.Vector[j])
			nq += float64(q[j]) * float64(q[j])
			nv += float64(r.Vector[j]) * float64(r.Vector[j])
		}
		ms = append(ms, vector.Match{ID: r.ID, Score: d / (math.Sqrt(nq) * math.Sqrt(nv)), Metadata: r.Metadata})
	}
	slices.SortFunc(ms, func(a, b vector.Match) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return ms
}

// matches is the filter's rule: every key present with an equal string.
func matches(md map[string]any, f vector.Filter) bool {
	for k, v := range f {
		if s, ok := md[k].(string); !ok || s != v {
			return false
		}
	}
	return true
}

// scoreTolerance is how far a store's score may be from the reference's:
// the rounding of another summation order.
const scoreTolerance = 1e-9

// checkAgainst checks a store's results against the reference for the
// same query: the same length (min(k, selected)), each score within
// scoreTolerance of the reference's at that place, each id one the
// reference scores within tolerance of that place's score (so an order
// may differ only among scores closer than the tolerance), no id twice,
// and the results sorted by score, then id.
func checkAgainst(t testing.TB, what string, got, ref []vector.Match, k int) {
	t.Helper()
	want := ref[:min(k, len(ref))]
	if len(got) != len(want) {
		t.Fatalf("%s: %d matches %q, want %d %q", what, len(got), ids(got), len(want), ids(want))
	}
	refScore := make(map[string]float64, len(ref))
	for _, m := range ref {
		refScore[m.ID] = m.Score
	}
	seen := map[string]bool{}
	for i, m := range got {
		if seen[m.ID] {
			t.Errorf("%s: %s twice", what, m.ID)
		}
		seen[m.ID] = true
		rs, ok := refScore[m.ID]
		switch {
		case !ok:
			t.Errorf("%s: match %d is %s, which the filter does not select", what, i, m.ID)
		case math.Abs(m.Score-want[i].Score) > scoreTolerance || math.Abs(rs-want[i].Score) > scoreTolerance:
			t.Errorf("%s: match %d = %s (%.15f; reference %.15f), want %s (%.15f)", what, i, m.ID, m.Score, rs, want[i].ID, want[i].Score)
		}
		if i > 0 {
			p := got[i-1]
			if p.Score < m.Score || p.Score == m.Score && p.ID >= m.ID {
				t.Errorf("%s: matches %d and %d out of order: %+v, %+v", what, i-1, i, p, m)
			}
		}
	}
}

func testExactOrder(t *testing.T, s vector.Store) {
	ctx := t.Context()
	rng := rand.New(rand.NewPCG(7, 11))
	for _, dim := range []int{1, 5, 64, 384} {
		index := fmt.Sprintf("exact_%d", dim)
		must(t, "CreateIndex", s.CreateIndex(ctx, index, dim))
		recs := make([]vector.Record, 400)
		for i := range recs {
			recs[i] = vector.Record{ID: fmt.Sprintf("v%03d", (i*7919)%400), Vector: randomVector(rng, dim),
				Metadata: map[string]any{vector.KeyThreadID: fmt.Sprintf("t%d", i%4), vector.KeyResourceID: "r"}}
		}
		must(t, "Upsert", s.Upsert(ctx, index, recs))
		for qi := range 3 {
			q := randomVector(rng, dim)
			if qi == 0 {
				q = slices.Clone(recs[17].Vector) // a stored vector: its own best match (in more than 1 dimension)
			}
			for _, k := range []int{1, 10, 1000} {
				for _, f := range []vector.Filter{nil, {vector.KeyThreadID: "t2"}, {vector.KeyResourceID: "r"}} {
					got := query(t, s, index, vector.Query{Vector: q, TopK: k, Filter: f})
					checkAgainst(t, fmt.Sprintf("dim %d query %d k %d filter %v", dim, qi, k, f), got, reference(q, recs, f), k)
					if qi == 0 && f == nil && dim > 1 && (len(got) == 0 || got[0].ID != recs[17].ID) {
						t.Errorf("dim %d: a stored vector's query does not find it first: %q", dim, ids(got))
					}
				}
			}
		}
	}
}

// testTies: vectors of equal scores come by id, byte-wise, whatever the
// order they were saved in, and TopK cuts through a tie by id.
func testTies(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "ties", 2))
	var recs []vector.Record
	for _, id := range []string{"m", "b", "Z", "é", "a", "aa", "_"} {
		recs = append(recs, vector.Record{ID: id, Vector: []float32{1, 1}})
	}
	recs = append(recs, vector.Record{ID: "z-best", Vector: []float32{1, 0}}, vector.Record{ID: "0-worst", Vector: []float32{-1, 0}})
	for _, r := range recs { // one by one, in that order
		must(t, "Upsert", s.Upsert(ctx, "ties", []vector.Record{r}))
	}
	q := vector.Query{Vector: []float32{1, 0.2}, TopK: 100}
	got := ids(query(t, s, "ties", q))
	want := []string{"Z", "_", "a", "aa", "b", "m", "é"} // byte order
	if len(got) != 9 || got[0] != "z-best" || !slices.Equal(got[1:8], want) || got[8] != "0-worst" {
		t.Errorf("ties: %q, want z-best, %q, 0-worst", got, want)
	}
	q.TopK = 4
	if got := ids(query(t, s, "ties", q)); !slices.Equal(got, []string{"z-best", "Z", "_", "a"}) {
		t.Errorf("TopK 4 through a tie: %q", got)
	}
}

func testFilters(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "f", 2))
	recs := []vector.Record{
		{ID: "a", Vector: []float32{1, 0}, Metadata: map[string]any{"thread_id": "t1", "resource_id": "r1", "message_id": "m1", "kind": "note"}},
		{ID: "b", Vector: []float32{1, 0.1}, Metadata: map[string]any{"thread_id": "t2", "resource_id": "r1", "kind": "chat"}},
		{ID: "c", Vector: []float32{1, 0.2}, Metadata: map[string]any{"thread_id": "t3", "resource_id": "r2", "kind": "note"}},
		{ID: "d", Vector: []float32{1, 0.3}, Metadata: map[string]any{"thread_id": 1.0, "resource_id": "r2", "n": 5.0}},
		{ID: "e", Vector: []float32{1, 0.4}},
		{ID: "f", Vector: []float32{1, 0.5}, Metadata: map[string]any{"thread_id": "", "kind": map[string]any{"x": "note"}, "n": "5"}},
		{ID: "g", Vector: []float32{1, 0.6}, Metadata: map[string]any{"thread_id": "T1", "resource_id": "r1 ", "kind": []any{"note"}}},
	}
	must(t, "Upsert", s.Upsert(ctx, "f", recs))
	q := []float32{1, 0}
	for _, tc := range []struct {
		filter vector.Filter
		want   []string
	}{
		{nil, []string{"a", "b", "c", "d", "e", "f", "g"}},
		{vector.Filter{}, []string{"a", "b", "c", "d", "e", "f", "g"}},
		{vector.Filter{"thread_id": "t1"}, []string{"a"}},
		{vector.Filter{"resource_id": "r1"}, []string{"a", "b"}},
		{vector.Filter{"resource_id": "r2"}, []string{"c", "d"}},
		{vector.Filter{"resource_id": "r1", "thread_id": "t2"}, []string{"b"}},
		{vector.Filter{"resource_id": "r2", "thread_id": "t2"}, nil},
		{vector.Filter{"thread_id": "1"}, nil}, // a number never equals a string
		{vector.Filter{"thread_id": ""}, []string{"f"}},
		{vector.Filter{"kind": "note"}, []string{"a", "c"}}, // not the nested one, nor the array
		{vector.Filter{"kind": "note", "resource_id": "r2"}, []string{"c"}},
		{vector.Filter{"n": "5"}, []string{"f"}},
		{vector.Filter{"message_id": "m1"}, []string{"a"}},
		{vector.Filter{"missing": "x"}, nil},
		{vector.Filter{"resource_id": "nobody"}, nil},
	} {
		got := query(t, s, "f", vector.Query{Vector: q, TopK: 10, Filter: tc.filter})
		if !slices.Equal(ids(got), tc.want) {
			t.Errorf("filter %v: %q, want %q", tc.filter, ids(got), tc.want)
		}
		checkAgainst(t, fmt.Sprintf("filter %v", tc.filter), got, reference(q, recs, tc.filter), 10)
	}
	for _, f := range []vector.Filter{{"a.b": "x"}, {"": "x"}, {"k'": "x"}, {"1k": "x"}, {"thread_id": "t\x00"}} {
		_, err := s.Query(ctx, "f", vector.Query{Vector: q, TopK: 1, Filter: f})
		wantRefused(t, fmt.Sprintf("filter %q", f), err)
	}
}

func testMetadata(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "m", 2))
	md := map[string]any{
		"thread_id": "t1", "resource_id": "r1", "message_id": "msg-1",
		"text": `<b>"quoted" & ünïcödé ☃ \ backslash</b>`, "n": 1.5, "big": 1e300, "ok": true, "none": nil,
		"nested": map[string]any{"list": []any{1.0, "two", false}},
	}
	must(t, "Upsert", s.Upsert(ctx, "m", []vector.Record{
		{ID: "with", Vector: []float32{1, 0}, Metadata: md},
		{ID: "without", Vector: []float32{0, 1}},
		{ID: "empty", Vector: []float32{1, 1}, Metadata: map[string]any{}},
	}))
	got := query(t, s, "m", vector.Query{Vector: []float32{1, 0}, TopK: 3})
	if len(got) != 3 {
		t.Fatalf("Query = %+v", got)
	}
	byID := map[string]vector.Match{}
	for _, m := range got {
		byID[m.ID] = m
	}
	if !reflect.DeepEqual(byID["with"].Metadata, md) {
		t.Errorf("metadata = %#v, want %#v", byID["with"].Metadata, md)
	}
	if byID["without"].Metadata != nil || byID["empty"].Metadata != nil {
		t.Errorf("metadata of records without any: %#v, %#v; want nil", byID["without"].Metadata, byID["empty"].Metadata)
	}
	got = query(t, s, "m", vector.Query{Vector: []float32{0, 1}, TopK: 1, Filter: vector.Filter{"text": md["text"].(string)}})
	if !slices.Equal(ids(got), []string{"with"}) {
		t.Errorf("filter on a string with quotes, escapes and non-ASCII: %q", ids(got))
	}
}

func testUpsertReplaces(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "u", 2))
	must(t, "Upsert", s.Upsert(ctx, "u", []vector.Record{
		{ID: "a", Vector: []float32{1, 0}, Metadata: map[string]any{"thread_id": "t1", "v": 1.0}},
		{ID: "b", Vector: []float32{0, 1}, Metadata: map[string]any{"thread_id": "t1"}},
	}))
	// a moves to thread t2, points the other way, and loses v.
	must(t, "Upsert replace", s.Upsert(ctx, "u", []vector.Record{
		{ID: "a", Vector: []float32{-1, 0}, Metadata: map[string]any{"thread_id": "t2"}},
	}))
	if n := count(t, s, "u"); n != 2 {
		t.Errorf("count after a replace = %d, want 2", n)
	}
	got := query(t, s, "u", vector.Query{Vector: []float32{1, 0}, TopK: 5})
	if len(got) != 2 || got[0].ID != "b" || got[1].ID != "a" || math.Abs(got[1].Score+1) > 1e-12 ||
		!reflect.DeepEqual(got[1].Metadata, map[string]any{"thread_id": "t2"}) {
		t.Errorf("after a replace: %+v", got)
	}
	if got := ids(query(t, s, "u", vector.Query{Vector: []float32{1, 0}, TopK: 5, Filter: vector.Filter{"thread_id": "t1"}})); !slices.Equal(got, []string{"b"}) {
		t.Errorf("thread t1 after a replace: %q, want b", got)
	}
	if got := ids(query(t, s, "u", vector.Query{Vector: []float32{1, 0}, TopK: 5, Filter: vector.Filter{"thread_id": "t2"}})); !slices.Equal(got, []string{"a"}) {
		t.Errorf("thread t2 after a replace: %q, want a", got)
	}
	// Replaced without metadata: none left, and no thread.
	must(t, "Upsert without metadata", s.Upsert(ctx, "u", []vector.Record{{ID: "a", Vector: []float32{-1, 0}}}))
	got = query(t, s, "u", vector.Query{Vector: []float32{-1, 0}, TopK: 1})
	if len(got) != 1 || got[0].ID != "a" || got[0].Metadata != nil {
		t.Errorf("after a replace without metadata: %+v", got)
	}
	if got := query(t, s, "u", vector.Query{Vector: []float32{1, 0}, TopK: 5, Filter: vector.Filter{"thread_id": "t2"}}); len(got) != 0 {
		t.Errorf("thread t2 after its metadata went: %+v", got)
	}
	// An id twice in a batch: the last wins.
	must(t, "Upsert with an id twice", s.Upsert(ctx, "u", []vector.Record{
		{ID: "c", Vector: []float32{1, 0}, Metadata: map[string]any{"k": "first"}},
		{ID: "c", Vector: []float32{0, -1}, Metadata: map[string]any{"k": "last"}},
	}))
	got = query(t, s, "u", vector.Query{Vector: []float32{0, -1}, TopK: 1})
	if len(got) != 1 || got[0].ID != "c" || got[0].Metadata["k"] != "last" || math.Abs(got[0].Score-1) > 1e-12 {
		t.Errorf("an id twice in a batch: %+v, want the last record", got)
	}
	if n := count(t, s, "u"); n != 3 {
		t.Errorf("count = %d, want 3", n)
	}
}

func testDeleteVectors(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "d", 2))
	var recs []vector.Record
	for i := range 10 {
		recs = append(recs, vector.Record{ID: fmt.Sprintf("v%d", i), Vector: []float32{1, float32(i)}})
	}
	must(t, "Upsert", s.Upsert(ctx, "d", recs))
	must(t, "DeleteVectors", s.DeleteVectors(ctx, "d", []string{"v1", "v3", "missing", "v3", "v9"}))
	must(t, "DeleteVectors of deleted ids", s.DeleteVectors(ctx, "d", []string{"v1"}))
	must(t, "DeleteVectors of no ids", s.DeleteVectors(ctx, "d", []string{}))
	got := ids(query(t, s, "d", vector.Query{Vector: []float32{1, 0}, TopK: 20}))
	if want := []string{"v0", "v2", "v4", "v5", "v6", "v7", "v8"}; !slices.Equal(got, want) {
		t.Errorf("after DeleteVectors: %q, want %q", got, want)
	}
	if n := count(t, s, "d"); n != 7 {
		t.Errorf("count = %d, want 7", n)
	}
	// A deleted id upserted again is back.
	must(t, "Upsert", s.Upsert(ctx, "d", []vector.Record{{ID: "v1", Vector: []float32{1, 0}}}))
	if got := ids(query(t, s, "d", vector.Query{Vector: []float32{1, 0}, TopK: 2})); !slices.Equal(got, []string{"v0", "v1"}) {
		t.Errorf("an id upserted after its delete: %q", got)
	}
}

func testDeleteByFilter(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "df", 2))
	var recs []vector.Record
	for i := range 12 {
		recs = append(recs, vector.Record{ID: fmt.Sprintf("v%02d", i), Vector: []float32{1, float32(i)},
			Metadata: map[string]any{"thread_id": fmt.Sprintf("t%d", i%3), "resource_id": fmt.Sprintf("r%d", i%2), "kind": fmt.Sprintf("k%d", i%4)}})
	}
	must(t, "Upsert", s.Upsert(ctx, "df", recs))
	wantRefused(t, "DeleteByFilter nil", s.DeleteByFilter(ctx, "df", nil))
	wantRefused(t, "DeleteByFilter empty", s.DeleteByFilter(ctx, "df", vector.Filter{}))
	wantRefused(t, "DeleteByFilter bad key", s.DeleteByFilter(ctx, "df", vector.Filter{"a-b": "x"}))
	if n := count(t, s, "df"); n != 12 {
		t.Fatalf("a refused DeleteByFilter deleted: count %d", n)
	}
	must(t, "DeleteByFilter thread", s.DeleteByFilter(ctx, "df", vector.Filter{"thread_id": "t0"}))
	must(t, "DeleteByFilter resource and kind", s.DeleteByFilter(ctx, "df", vector.Filter{"resource_id": "r1", "kind": "k1"}))
	must(t, "DeleteByFilter nothing", s.DeleteByFilter(ctx, "df", vector.Filter{"thread_id": "nobody"}))
	var left []vector.Record
	for _, r := range recs {
		md := r.Metadata
		if md["thread_id"] == "t0" || md["resource_id"] == "r1" && md["kind"] == "k1" {
			continue
		}
		left = append(left, r)
	}
	q := []float32{1, 0}
	got := query(t, s, "df", vector.Query{Vector: q, TopK: 20})
	checkAgainst(t, "after DeleteByFilter", got, reference(q, left, nil), 20)
}

func testIndexesSeparate(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "one", 2))
	must(t, "CreateIndex", s.CreateIndex(ctx, "two", 3))
	must(t, "Upsert one", s.Upsert(ctx, "one", []vector.Record{{ID: "x", Vector: []float32{1, 0}, Metadata: map[string]any{"thread_id": "t"}}}))
	must(t, "Upsert two", s.Upsert(ctx, "two", []vector.Record{{ID: "x", Vector: []float32{0, 0, 1}, Metadata: map[string]any{"thread_id": "t"}}}))
	must(t, "DeleteVectors one", s.DeleteVectors(ctx, "one", []string{"x"}))
	if got := query(t, s, "two", vector.Query{Vector: []float32{0, 0, 1}, TopK: 5}); len(got) != 1 || got[0].ID != "x" {
		t.Errorf("a delete in one index touched another: %+v", got)
	}
	must(t, "Upsert one", s.Upsert(ctx, "one", []vector.Record{{ID: "y", Vector: []float32{1, 0}, Metadata: map[string]any{"thread_id": "t"}}}))
	must(t, "DeleteByFilter two", s.DeleteByFilter(ctx, "two", vector.Filter{"thread_id": "t"}))
	if got := ids(query(t, s, "one", vector.Query{Vector: []float32{1, 0}, TopK: 5, Filter: vector.Filter{"thread_id": "t"}})); !slices.Equal(got, []string{"y"}) {
		t.Errorf("a filtered delete in one index touched another: %q", got)
	}
	must(t, "DeleteIndex two", s.DeleteIndex(ctx, "two"))
	if n := count(t, s, "one"); n != 1 {
		t.Errorf("DeleteIndex of another index: count %d, want 1", n)
	}
}

func testDimensionErrors(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "dims", 3))
	must(t, "Upsert", s.Upsert(ctx, "dims", []vector.Record{{ID: "kept", Vector: []float32{1, 2, 3}}}))
	err := s.Upsert(ctx, "dims", []vector.Record{
		{ID: "good", Vector: []float32{1, 0, 0}},
		{ID: "kept", Vector: []float32{9, 9, 9}},
		{ID: "short", Vector: []float32{1, 0}},
	})
	wantErr(t, "Upsert of a short vector", err, vector.ErrDimensionMismatch)
	if err != nil && (!strings.Contains(err.Error(), "short") || !strings.Contains(err.Error(), "dims")) {
		t.Errorf("dimension error %q names neither the record nor the index", err)
	}
	wantErr(t, "Upsert of a long vector", s.Upsert(ctx, "dims", []vector.Record{{ID: "long", Vector: []float32{1, 0, 0, 0}}}), vector.ErrDimensionMismatch)
	got := query(t, s, "dims", vector.Query{Vector: []float32{1, 2, 3}, TopK: 10})
	if len(got) != 1 || got[0].ID != "kept" || math.Abs(got[0].Score-1) > 1e-12 {
		t.Errorf("a refused batch changed the index: %+v", got)
	}
	for _, v := range [][]float32{{1, 0}, {1, 0, 0, 0}} {
		_, err := s.Query(ctx, "dims", vector.Query{Vector: v, TopK: 1})
		wantErr(t, fmt.Sprintf("Query of dimension %d", len(v)), err, vector.ErrDimensionMismatch)
	}
}

func testInvalidArguments(t *testing.T, s vector.Store) {
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "inv", 2))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, r := range []vector.Record{
		{ID: "", Vector: []float32{1, 0}},
		{ID: "a\x00", Vector: []float32{1, 0}},
		{ID: "\xff", Vector: []float32{1, 0}},
		{ID: "a", Vector: nil},
		{ID: "a", Vector: []float32{0, 0}},
		{ID: "a", Vector: []float32{nan, 0}},
		{ID: "a", Vector: []float32{1, inf}},
		{ID: "a", Vector: []float32{-inf, 1}},
		{ID: "a", Vector: []float32{1, 0}, Metadata: map[string]any{"x": math.Inf(1)}},
		{ID: "a", Vector: []float32{1, 0}, Metadata: map[string]any{"x": "nul\x00"}},
		{ID: "a", Vector: []float32{1, 0}, Metadata: map[string]any{"x": make(chan int)}},
	} {
		err := s.Upsert(ctx, "inv", []vector.Record{{ID: "fine", Vector: []float32{1, 1}}, r})
		wantRefused(t, fmt.Sprintf("Upsert %+v", r), err)
	}
	if n := count(t, s, "inv"); n != 0 {
		t.Errorf("refused batches saved %d vectors", n)
	}
	for _, q := range []vector.Query{
		{Vector: []float32{1, 0}, TopK: 0},
		{Vector: []float32{1, 0}, TopK: -1},
		{Vector: []float32{0, 0}, TopK: 1},
		{Vector: []float32{nan, 1}, TopK: 1},
		{Vector: []float32{1, inf}, TopK: 1},
		{Vector: nil, TopK: 1},
	} {
		_, err := s.Query(ctx, "inv", q)
		wantRefused(t, fmt.Sprintf("Query %+v", q), err)
	}
	for _, bad := range []string{"a\x00", "\xff"} {
		wantRefused(t, fmt.Sprintf("DeleteVectors(%q)", bad), s.DeleteVectors(ctx, "inv", []string{"fine", bad}))
	}
	// A huge TopK is fine: it returns what there is.
	must(t, "Upsert", s.Upsert(ctx, "inv", []vector.Record{{ID: "a", Vector: []float32{1, 0}}}))
	if got := query(t, s, "inv", vector.Query{Vector: []float32{1, 0}, TopK: math.MaxInt32}); len(got) != 1 {
		t.Errorf("TopK MaxInt32: %+v", got)
	}
	// Tiny and huge finite components are fine.
	must(t, "Upsert extremes", s.Upsert(ctx, "inv", []vector.Record{
		{ID: "tiny", Vector: []float32{math.SmallestNonzeroFloat32, 0}},
		{ID: "huge", Vector: []float32{math.MaxFloat32, -math.MaxFloat32}},
	}))
	got := query(t, s, "inv", vector.Query{Vector: []float32{math.MaxFloat32, math.MaxFloat32}, TopK: 3})
	if len(got) != 3 || got[0].ID != "a" || got[2].ID != "huge" || math.Abs(got[2].Score) > 1e-12 {
		t.Errorf("extreme components: %+v", got)
	}
}

func testConcurrentUpserts(t *testing.T, s vector.Store) {
	ctx := t.Context()
	const (
		racers = 16
		own    = 40
		shared = 20
		dim    = 8
	)
	must(t, "CreateIndex", s.CreateIndex(ctx, "race", dim))
	rng := rand.New(rand.NewPCG(3, 4))
	vecs := make([][]float32, racers*own+shared)
	for i := range vecs {
		vecs[i] = randomVector(rng, dim)
	}
	errs := make([]error, racers)
	done := make(chan struct{})
	start := make(chan struct{})
	for g := range racers {
		go func() {
			defer func() { done <- struct{}{} }()
			<-start
			var recs []vector.Record
			for i := range own {
				n := g*own + i
				recs = append(recs, vector.Record{ID: fmt.Sprintf("own-%04d", n), Vector: vecs[n],
					Metadata: map[string]any{"thread_id": fmt.Sprintf("t%d", g)}})
			}
			// The shared ids, in an order of this racer's: each racer
			// writes them all, in one batch with its own.
			for i := range shared {
				j := (i*(g+1) + g) % shared
				recs = append(recs, vector.Record{ID: fmt.Sprintf("shared-%02d", j), Vector: vecs[racers*own+j],
					Metadata: map[string]any{"thread_id": "shared"}})
			}
			if g%2 == 1 {
				slices.Reverse(recs)
			}
			for k := 0; k < len(recs) && errs[g] == nil; k += 13 { // several batches each
				errs[g] = s.Upsert(ctx, "race", recs[k:min(k+13, len(recs))])
			}
		}()
	}
	close(start)
	for range racers {
		<-done
	}
	for g, err := range errs {
		if err != nil {
			t.Errorf("racer %d: %v", g, err)
		}
	}
	if n := count(t, s, "race"); n != racers*own+shared {
		t.Errorf("count = %d, want %d", n, racers*own+shared)
	}
	var recs []vector.Record
	for i, v := range vecs {
		id, thread := fmt.Sprintf("own-%04d", i), fmt.Sprintf("t%d", i/own)
		if i >= racers*own {
			id, thread = fmt.Sprintf("shared-%02d", i-racers*own), "shared"
		}
		recs = append(recs, vector.Record{ID: id, Vector: v, Metadata: map[string]any{"thread_id": thread}})
	}
	q := randomVector(rng, dim)
	for _, f := range []vector.Filter{nil, {"thread_id": "shared"}, {"thread_id": "t5"}} {
		got := query(t, s, "race", vector.Query{Vector: q, TopK: 50, Filter: f})
		checkAgainst(t, fmt.Sprintf("after concurrent upserts, filter %v", f), got, reference(q, recs, f), 50)
	}
	// Queries race with upserts: each sees whole batches.
	errs = make([]error, racers)
	for g := range racers {
		go func() {
			defer func() { done <- struct{}{} }()
			if g%2 == 0 {
				errs[g] = s.Upsert(ctx, "race", recs[g*own:(g+1)*own])
				return
			}
			_, errs[g] = s.Query(ctx, "race", vector.Query{Vector: q, TopK: 5})
		}()
	}
	for range racers {
		<-done
	}
	for g, err := range errs {
		if err != nil {
			t.Errorf("racer %d: %v", g, err)
		}
	}
}

func testConcurrentCreateIndex(t *testing.T, s vector.Store) {
	ctx := t.Context()
	const racers = 16
	errs := make([]error, racers)
	done := make(chan struct{})
	for g := range racers {
		go func() {
			defer func() { done <- struct{}{} }()
			errs[g] = s.CreateIndex(ctx, "together", 4)
		}()
	}
	for range racers {
		<-done
	}
	for g, err := range errs {
		if err != nil {
			t.Errorf("CreateIndex %d: %v", g, err)
		}
	}
	// Racing with another dimension: one dimension wins, and every call
	// of the other fails with ErrDimensionMismatch.
	for g := range racers {
		go func() {
			defer func() { done <- struct{}{} }()
			errs[g] = s.CreateIndex(ctx, "contested", 2+g%2)
		}()
	}
	for range racers {
		<-done
	}
	st, err := s.DescribeIndex(ctx, "contested")
	must(t, "DescribeIndex", err)
	for g, err := range errs {
		if won := 2+g%2 == st.Dimension; won && err != nil || !won && !errors.Is(err, vector.ErrDimensionMismatch) {
			t.Errorf("CreateIndex %d of dimension %d (index has %d): %v", g, 2+g%2, st.Dimension, err)
		}
	}
}

// testBigBatches: an Upsert of more records, and a DeleteVectors of
// more ids, than any SQL statement takes parameters for (SQLite 32,766,
// PostgreSQL 65,535): 12,000 records of 7 stored values each (84,000
// values) and 70,000 ids.
func testBigBatches(t *testing.T, s vector.Store) {
	ctx := t.Context()
	const n, dim, ids = 12000, 4, 70000
	must(t, "CreateIndex", s.CreateIndex(ctx, "big", dim))
	rng := rand.New(rand.NewPCG(5, 6))
	recs := make([]vector.Record, n)
	for i := range recs {
		recs[i] = vector.Record{ID: fmt.Sprintf("v%06d", i), Vector: randomVector(rng, dim),
			Metadata: map[string]any{"thread_id": fmt.Sprintf("t%d", i%100), "resource_id": "r"}}
	}
	must(t, "Upsert of 12,000", s.Upsert(ctx, "big", recs))
	if c := count(t, s, "big"); c != n {
		t.Fatalf("count = %d, want %d", c, n)
	}
	q := randomVector(rng, dim)
	got := query(t, s, "big", vector.Query{Vector: q, TopK: 25, Filter: vector.Filter{"thread_id": "t42"}})
	checkAgainst(t, "big, thread t42", got, reference(q, recs, vector.Filter{"thread_id": "t42"}), 25)

	// Every stored id but one in 7, among ids the index does not hold.
	del := make([]string, 0, ids)
	for i := 0; i < ids; i++ {
		if i >= n || i%7 != 0 {
			del = append(del, fmt.Sprintf("v%06d", i))
		}
	}
	must(t, "DeleteVectors of 70,000", s.DeleteVectors(ctx, "big", del))
	var left []vector.Record
	for i := 0; i < n; i += 7 {
		left = append(left, recs[i])
	}
	if c := count(t, s, "big"); c != len(left) {
		t.Fatalf("count after the delete = %d, want %d", c, len(left))
	}
	got = query(t, s, "big", vector.Query{Vector: q, TopK: 100})
	checkAgainst(t, "big, after the delete", got, reference(q, left, nil), 100)
}

// testClosedStore: every call on a closed store fails with a
// *storage.DatabaseError (a store that is an io.Closer).
func testClosedStore(t *testing.T, s vector.Store) {
	c, ok := s.(interface{ Close() error })
	if !ok {
		t.Skip("the store has no Close")
	}
	ctx := t.Context()
	must(t, "CreateIndex", s.CreateIndex(ctx, "closed", 2))
	must(t, "Close", c.Close())
	q := vector.Query{Vector: []float32{1, 0}, TopK: 1}
	calls := []struct {
		name string
		err  error
	}{
		{"CreateIndex", s.CreateIndex(ctx, "closed", 2)},
		{"ListIndexes", second(s.ListIndexes(ctx))},
		{"DescribeIndex", second(s.DescribeIndex(ctx, "closed"))},
		{"DeleteIndex", s.DeleteIndex(ctx, "closed")},
		{"Upsert", s.Upsert(ctx, "closed", []vector.Record{{ID: "a", Vector: []float32{1, 0}}})},
		{"Query", second(s.Query(ctx, "closed", q))},
		{"DeleteVectors", s.DeleteVectors(ctx, "closed", []string{"a"})},
		{"DeleteByFilter", s.DeleteByFilter(ctx, "closed", vector.Filter{"k": "v"})},
	}
	for _, c := range calls {
		var de *storage.DatabaseError
		switch {
		case !errors.As(c.err, &de):
			t.Errorf("%s on a closed store: %v (%T), want a *storage.DatabaseError", c.name, c.err, c.err)
		case c.err.Error() != de.Error() || !strings.HasPrefix(de.Error(), "storage: ") || !strings.HasSuffix(de.Error(), " failed"):
			t.Errorf("%s on a closed store: text %q, want the generic \"storage: <op> failed\"", c.name, c.err)
		case errors.Is(c.err, storage.ErrNotFound):
			t.Errorf("%s on a closed store: %v wraps ErrNotFound", c.name, c.err)
		}
	}
}

func second[T any](_ T, err error) error { return err }
