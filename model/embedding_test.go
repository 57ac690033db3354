package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingEmbedder embeds "v<n>" as the vector {n}, at most max values a
// call, and records its calls; fail makes the call holding that value
// fail, short answers one vector short.
type countingEmbedder struct {
	max   int
	fail  string
	short bool
	delay time.Duration

	mu       sync.Mutex
	calls    [][]string
	inFlight atomic.Int32
	peak     atomic.Int32
}

func (e *countingEmbedder) Provider() string      { return "test.embedding" }
func (e *countingEmbedder) ModelID() string       { return "counting" }
func (e *countingEmbedder) MaxValuesPerCall() int { return e.max }

func (e *countingEmbedder) Embed(ctx context.Context, values []string, _ *EmbedOptions) (Embeddings, error) {
	if err := CheckValuesPerCall(e, values); err != nil {
		return Embeddings{}, err
	}
	n := e.inFlight.Add(1)
	defer e.inFlight.Add(-1)
	for {
		p := e.peak.Load()
		if n <= p || e.peak.CompareAndSwap(p, n) {
			break
		}
	}
	e.mu.Lock()
	e.calls = append(e.calls, slices.Clone(values))
	e.mu.Unlock()
	if e.delay > 0 {
		select {
		case <-time.After(e.delay):
		case <-ctx.Done():
			return Embeddings{}, ctx.Err()
		}
	}
	var out Embeddings
	for _, v := range values {
		if v == e.fail {
			return Embeddings{}, fmt.Errorf("refused %s", v)
		}
		n, _ := strconv.Atoi(v[1:])
		out.Vectors = append(out.Vectors, []float32{float32(n)})
		out.Usage.Tokens++
	}
	if e.short {
		out.Vectors = out.Vectors[1:]
	}
	return out, nil
}

func values(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "v" + strconv.Itoa(i)
	}
	return out
}

func TestEmbedManySplitsIntoCallsAndKeepsTheOrder(t *testing.T) {
	for _, tc := range []struct {
		max, n, parallel int
		calls            []int
	}{
		{max: 3, n: 7, calls: []int{3, 3, 1}},
		{max: 3, n: 6, parallel: 1, calls: []int{3, 3}},
		{max: 0, n: 5, calls: []int{5}},
		{max: 10, n: 5, calls: []int{5}},
		{max: 1, n: 4, parallel: 2, calls: []int{1, 1, 1, 1}},
	} {
		m := &countingEmbedder{max: tc.max, delay: time.Millisecond}
		res, err := EmbedMany(context.Background(), m, values(tc.n), &EmbedOptions{MaxParallelCalls: tc.parallel})
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if len(res.Vectors) != tc.n || res.Usage.Tokens != tc.n {
			t.Fatalf("%+v: %d vectors, %d tokens", tc, len(res.Vectors), res.Usage.Tokens)
		}
		for i, v := range res.Vectors {
			if v[0] != float32(i) {
				t.Errorf("%+v: vector %d is %v", tc, i, v)
			}
		}
		var sizes []int
		for _, c := range m.calls {
			sizes = append(sizes, len(c))
		}
		slices.Sort(sizes)
		want := slices.Clone(tc.calls)
		slices.Sort(want)
		if !slices.Equal(sizes, want) {
			t.Errorf("%+v: call sizes %v", tc, sizes)
		}
		if tc.parallel > 0 && int(m.peak.Load()) > tc.parallel {
			t.Errorf("%+v: %d calls at once", tc, m.peak.Load())
		}
	}
}

func TestEmbedManyRunsCallsAtOnceByDefault(t *testing.T) {
	m := &countingEmbedder{max: 1, delay: 50 * time.Millisecond}
	if _, err := EmbedMany(context.Background(), m, values(4), nil); err != nil {
		t.Fatal(err)
	}
	if m.peak.Load() < 2 {
		t.Errorf("at most %d call at once", m.peak.Load())
	}
}

func TestEmbedManyNoValues(t *testing.T) {
	m := &countingEmbedder{max: 2}
	res, err := EmbedMany(context.Background(), m, nil, nil)
	if err != nil || res.Vectors == nil || len(res.Vectors) != 0 || len(m.calls) != 0 {
		t.Errorf("%+v %v, %d calls", res, err, len(m.calls))
	}
}

func TestEmbedManyFailures(t *testing.T) {
	m := &countingEmbedder{max: 2, fail: "v3", delay: time.Millisecond}
	if _, err := EmbedMany(context.Background(), m, values(6), nil); err == nil || err.Error() != "refused v3" {
		t.Errorf("failing call: %v", err)
	}
	m = &countingEmbedder{max: 2, short: true}
	_, err := EmbedMany(context.Background(), m, values(4), &EmbedOptions{MaxParallelCalls: 1})
	var count *EmbeddingCountError
	if !errors.As(err, &count) || count.Values != 2 || count.Vectors != 1 {
		t.Errorf("short answer: %v", err)
	}
	if want := "embedding model counting (test.embedding): 1 vectors for 2 values"; err == nil || err.Error() != want {
		t.Errorf("message %v", err)
	}
	// One call too: the same check.
	if _, err := EmbedMany(context.Background(), &countingEmbedder{short: true}, values(3), nil); !errors.As(err, &count) {
		t.Errorf("single call short answer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := EmbedMany(ctx, &countingEmbedder{max: 1, delay: time.Second}, values(3), &EmbedOptions{MaxParallelCalls: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestCheckValuesPerCall(t *testing.T) {
	m := &countingEmbedder{max: 2}
	_, err := m.Embed(context.Background(), values(3), nil)
	var tooMany *TooManyValuesError
	if !errors.As(err, &tooMany) || tooMany.Max != 2 || tooMany.Values != 3 {
		t.Fatalf("%v", err)
	}
	if want := "embedding model counting (test.embedding): 3 values in one call, at most 2 per call (EmbedMany splits them)"; err.Error() != want {
		t.Errorf("message %q", err)
	}
	if err := CheckValuesPerCall(&countingEmbedder{}, values(5000)); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestCosineSimilarity(t *testing.T) {
	for _, tc := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 2, 3}, []float32{2, 4, 6}, 1},
		{[]float32{1, 0}, []float32{0, 1}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{0, 0}, []float32{1, 1}, 0},
		{[]float32{}, []float32{}, 0},
	} {
		if got := CosineSimilarity(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%v %v: %v", tc.a, tc.b, got)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("lengths 1 and 2: no panic")
		}
	}()
	CosineSimilarity([]float32{1}, []float32{1, 2})
}
