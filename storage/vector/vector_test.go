package vector

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestCheckIndexName(t *testing.T) {
	for _, ok := range []string{"memory_messages", "memory_messages_384", "_x", "A1", strings.Repeat("a", 63)} {
		if err := CheckIndexName(ok); err != nil {
			t.Errorf("CheckIndexName(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "1abc", "a-b", "a b", "a;DROP TABLE x", `a"b`, "é", "memory.messages", strings.Repeat("a", 64), "a\x00"} {
		if err := CheckIndexName(bad); err == nil {
			t.Errorf("CheckIndexName(%q) passed", bad)
		}
	}
}

func TestCheckDimension(t *testing.T) {
	for _, d := range []int{1, 384, 1536, MaxDimension} {
		if err := CheckDimension(d); err != nil {
			t.Errorf("CheckDimension(%d): %v", d, err)
		}
	}
	for _, d := range []int{-1, 0, MaxDimension + 1} {
		if err := CheckDimension(d); err == nil {
			t.Errorf("CheckDimension(%d) passed", d)
		}
	}
}

func TestCheckQuery(t *testing.T) {
	good := Query{Vector: []float32{1, 0}, TopK: 1, Filter: Filter{KeyThreadID: "t-1"}}
	if err := CheckQuery(good); err != nil {
		t.Fatalf("CheckQuery(%+v): %v", good, err)
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, q := range []Query{
		{Vector: []float32{1}, TopK: 0},
		{Vector: []float32{1}, TopK: -3},
		{Vector: nil, TopK: 1},
		{Vector: []float32{0, 0}, TopK: 1},
		{Vector: []float32{1, nan}, TopK: 1},
		{Vector: []float32{inf, 1}, TopK: 1},
		{Vector: []float32{1}, TopK: 1, Filter: Filter{"bad key": "x"}},
		{Vector: []float32{1}, TopK: 1, Filter: Filter{"k": "a\x00b"}},
		{Vector: []float32{1}, TopK: 1, Filter: Filter{"k": "\xff"}},
	} {
		if err := CheckQuery(q); err == nil {
			t.Errorf("CheckQuery(%+v) passed", q)
		}
	}
	if err := CheckDimensionOf("query", []float32{1, 2}, "i", 3); !errors.Is(err, ErrDimensionMismatch) {
		t.Errorf("CheckDimensionOf: %v, want ErrDimensionMismatch", err)
	}
}

func TestPrepareRecords(t *testing.T) {
	rows, err := PrepareRecords([]Record{
		{ID: "b", Vector: []float32{3, 4}, Metadata: map[string]any{KeyThreadID: "t", KeyResourceID: 7.0, "x": "<&>"}},
		{ID: "a", Vector: []float32{1, 0}},
		{ID: "b", Vector: []float32{0, 2}, Metadata: map[string]any{KeyResourceID: "r"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].ID != "a" || rows[1].ID != "b" {
		t.Fatalf("rows %+v, want a then b (the last b)", rows)
	}
	b := rows[1]
	if b.Norm != 2 || b.ThreadID != nil || b.ResourceID == nil || *b.ResourceID != "r" || b.Dimension != 2 {
		t.Errorf("row b = %+v, want the last record's", b)
	}
	if rows[0].Metadata != nil || rows[0].ThreadID != nil {
		t.Errorf("row a has metadata %q", rows[0].Metadata)
	}
	if err := CheckRows(rows, "i", 3); !errors.Is(err, ErrDimensionMismatch) {
		t.Errorf("CheckRows: %v, want ErrDimensionMismatch", err)
	}
	if err := CheckRows(rows, "i", 2); err != nil {
		t.Errorf("CheckRows: %v", err)
	}

	for _, r := range []Record{
		{ID: "", Vector: []float32{1}},
		{ID: "a\x00", Vector: []float32{1}},
		{ID: "a", Vector: nil},
		{ID: "a", Vector: []float32{0}},
		{ID: "a", Vector: []float32{float32(math.NaN())}},
		{ID: "a", Vector: []float32{float32(math.Inf(1))}},
		{ID: "a", Vector: []float32{1}, Metadata: map[string]any{"f": math.NaN()}},
		{ID: "a", Vector: []float32{1}, Metadata: map[string]any{"s": "x\x00y"}},
		{ID: "a", Vector: []float32{1}, Metadata: map[string]any{"k\x00": "x"}},
		{ID: "a", Vector: []float32{1}, Metadata: map[string]any{KeyThreadID: "\xff"}},
	} {
		if _, err := PrepareRecords([]Record{{ID: "ok", Vector: []float32{1}}, r}); err == nil {
			t.Errorf("PrepareRecords(%+v) passed", r)
		} else if !strings.Contains(err.Error(), "record 1") {
			t.Errorf("PrepareRecords(%+v): %v does not name record 1", r, err)
		}
	}
	// A backslash before u0000 is not a NUL.
	if _, err := PrepareRecords([]Record{{ID: "a", Vector: []float32{1}, Metadata: map[string]any{"s": `\u0000`}}}); err != nil {
		t.Errorf(`metadata with a literal \u0000: %v`, err)
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, -1.5, math.MaxFloat32, math.SmallestNonzeroFloat32, 3.25}
	b := Encode(v)
	if len(b) != 20 || b[4] != 0 || b[7] != 0xbf || b[6] != 0xc0 { // -1.5 is 0xbfc00000
		t.Errorf("Encode = % x, want little-endian float32", b)
	}
	got, err := Decode(b)
	if err != nil || !slices.Equal(got, v) {
		t.Errorf("Decode(Encode(v)) = %v, %v; want %v", got, err, v)
	}
	if _, err := Decode(b[:3]); err == nil {
		t.Error("Decode of 3 bytes passed")
	}
}

// TestTopKMatchesBruteForce: the heap's results are a brute force's, to
// the float64 rounding of the summation order, ties by id.
func TestTopKMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{1, 3, 7, 384} {
		const n = 500
		vecs := make([][]float32, n)
		ids := make([]string, n)
		for i := range vecs {
			vecs[i] = randomVector(rng, dim)
			ids[i] = string(rune('a'+i%26)) + string(rune('a'+i/26%26))
			if i%10 == 9 { // an exact tie with the vector before, under another id
				vecs[i] = vecs[i-1]
			}
		}
		q := randomVector(rng, dim)
		for _, k := range []int{1, 5, 50, n + 10} {
			tk := NewTopK(Query{Vector: q, TopK: k})
			for i, v := range vecs {
				if err := tk.Offer([]byte(ids[i]), Norm(v), Encode(v), nil); err != nil {
					t.Fatal(err)
				}
			}
			got, err := tk.Matches()
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(q, vecs, ids, k)
			if len(got) != len(want) {
				t.Fatalf("dim %d k %d: %d matches, want %d", dim, k, len(got), len(want))
			}
			for i := range got {
				if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
					t.Fatalf("dim %d k %d: match %d = %+v, want %+v", dim, k, i, got[i], want[i])
				}
			}
		}
	}
}

func TestTopKOffersErrors(t *testing.T) {
	tk := NewTopK(Query{Vector: []float32{1, 2}, TopK: 1})
	if err := tk.Offer([]byte("a"), 1, make([]byte, 4), nil); err == nil {
		t.Error("a stored vector of the wrong length passed")
	}
	if err := tk.Offer([]byte("a"), 0, make([]byte, 8), nil); err == nil {
		t.Error("a stored norm of 0 passed")
	}
	if err := tk.Offer([]byte("a"), 1, Encode([]float32{1, 0}), []byte(`{`)); err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Matches(); err == nil {
		t.Error("invalid stored metadata passed")
	}
}

// TestTopKCopiesItsInputs: the slices Offer gets may be reused by the
// driver for the next row.
func TestTopKCopiesItsInputs(t *testing.T) {
	tk := NewTopK(Query{Vector: []float32{1, 0}, TopK: 2})
	id, meta := []byte("a"), []byte(`{"k":"a"}`)
	for i, v := range [][]float32{{1, 0}, {0, 1}, {1, 1}} {
		id[0], meta[6] = byte('a'+i), byte('a'+i)
		if err := tk.Offer(id, Norm(v), Encode(v), meta); err != nil {
			t.Fatal(err)
		}
	}
	got, err := tk.Matches()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "a" || got[0].Metadata["k"] != "a" || got[1].ID != "c" || got[1].Metadata["k"] != "c" {
		t.Errorf("matches %+v, want a then c with their own metadata", got)
	}
}

func randomVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// bruteForce scores every vector with one plain sum and sorts them all.
func bruteForce(q []float32, vecs [][]float32, ids []string, k int) []Match {
	ms := make([]Match, len(vecs))
	for i, v := range vecs {
		var d, nq, nv float64
		for j := range v {
			d += float64(q[j]) * float64(v[j])
			nq += float64(q[j]) * float64(q[j])
			nv += float64(v[j]) * float64(v[j])
		}
		ms[i] = Match{ID: ids[i], Score: d / (math.Sqrt(nq) * math.Sqrt(nv))}
	}
	slices.SortFunc(ms, func(a, b Match) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return ms[:min(k, len(ms))]
}

func BenchmarkDot(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dim := range []int{384, 1536} {
		q := make([]float64, dim)
		for i := range q {
			q[i] = rng.NormFloat64()
		}
		v := Encode(randomVector(rng, dim))
		b.Run(fmt.Sprintf("dim=%d", dim), func(b *testing.B) {
			b.SetBytes(int64(len(v)))
			var s float64
			for b.Loop() {
				s += dot(q, v)
			}
			_ = s
		})
	}
}
