package vector

import (
	"container/heap"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Encode is v as stored: its components as little-endian IEEE 754
// float32, 4 bytes each.
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Decode is the vector Encode stored as b.
func Decode(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("vector: %d bytes, not a whole number of float32", len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

// Norm is v's Euclidean norm, computed in float64.
func Norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// dot is the dot product of q and the encoded vector b (4*len(q)
// bytes), in float64: each product of two float32 is exact in float64,
// and eight running sums keep the loop's additions independent.
func dot(q []float64, b []byte) float64 {
	n := len(q)
	b = b[:4*n]
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	i := 0
	for ; i+8 <= n; i += 8 {
		p := b[4*i : 4*i+32 : 4*i+32]
		qq := q[i : i+8 : i+8]
		s0 += qq[0] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[0:4])))
		s1 += qq[1] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[4:8])))
		s2 += qq[2] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[8:12])))
		s3 += qq[3] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[12:16])))
		s4 += qq[4] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[16:20])))
		s5 += qq[5] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[20:24])))
		s6 += qq[6] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[24:28])))
		s7 += qq[7] * float64(math.Float32frombits(binary.LittleEndian.Uint32(p[28:32])))
	}
	for ; i < n; i++ {
		s0 += q[i] * float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// TopK is an exact top-K search over stored vectors: a backend offers it
// every row its query selects, as the rows stream from the database, and
// it keeps the K best in a heap (K entries, whatever the number of rows).
// Its scores are the cosine similarity of the query and each row; ties
// go to the smaller id.
type TopK struct {
	q     []float64 // the query, as float64
	qNorm float64
	k     int
	h     entries // a min-heap: the worst kept entry at h[0]
}

// NewTopK returns a search for q, which must have passed CheckQuery.
func NewTopK(q Query) *TopK {
	t := &TopK{q: make([]float64, len(q.Vector)), qNorm: Norm(q.Vector), k: q.TopK}
	for i, x := range q.Vector {
		t.q[i] = float64(x)
	}
	return t
}

// Offer scores one stored row: its id, its vector's norm, its encoded
// vector and its metadata's JSON (nil for none). Offer copies what it
// keeps, so the slices may be the driver's buffers, reused for the next
// row. A vector of another length than the query's is an error (the
// stored data is not the index's).
func (t *TopK) Offer(id []byte, norm float64, embedding, metadata []byte) error {
	if len(embedding) != 4*len(t.q) {
		return fmt.Errorf("vector %s: stored with %d bytes, want %d (dimension %d)", id, len(embedding), 4*len(t.q), len(t.q))
	}
	if !(norm > 0) || math.IsInf(norm, 0) {
		return fmt.Errorf("vector %s: stored norm %v", id, norm)
	}
	score := dot(t.q, embedding) / (t.qNorm * norm)
	if len(t.h) < t.k {
		heap.Push(&t.h, entry{id: string(id), score: score, meta: cloneOrNil(metadata)})
		return nil
	}
	w := &t.h[0]
	if score < w.score || score == w.score && string(id) >= w.id {
		return nil
	}
	w.id, w.score = string(id), score
	if metadata == nil {
		w.meta = nil
	} else {
		w.meta = append(w.meta[:0], metadata...)
	}
	heap.Fix(&t.h, 0)
	return nil
}

func cloneOrNil(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

// Matches returns the kept rows, best first (by score, highest first,
// then by id), with their metadata decoded.
func (t *TopK) Matches() ([]Match, error) {
	es := slices.Clone(t.h)
	slices.SortFunc(es, func(a, b entry) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
	out := make([]Match, len(es))
	for i, e := range es {
		out[i] = Match{ID: e.id, Score: e.score}
		if e.meta != nil {
			if err := json.Unmarshal(e.meta, &out[i].Metadata); err != nil {
				return nil, fmt.Errorf("vector %s: metadata: %w", e.id, err)
			}
		}
	}
	return out, nil
}

type entry struct {
	id    string
	score float64
	meta  []byte
}

// entries is a heap of the kept entries, the worst first: the lowest
// score, and of equal scores the greatest id.
type entries []entry

func (h entries) Len() int { return len(h) }
func (h entries) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].id > h[j].id
}
func (h entries) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *entries) Push(x any)   { *h = append(*h, x.(entry)) }
func (h *entries) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
