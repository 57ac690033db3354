package mock

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gomastra/mastra/model"
)

func embed(t *testing.T, e *Embedder, values ...string) [][]float32 {
	t.Helper()
	res, err := e.Embed(context.Background(), values, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Vectors) != len(values) {
		t.Fatalf("%d vectors for %d values", len(res.Vectors), len(values))
	}
	return res.Vectors
}

func TestEmbedderVectorsAreDeterministicAndNormalised(t *testing.T) {
	e := NewEmbedder(0)
	if e.Dimensions() != DefaultDimensions || e.Provider() != "mock-provider" || e.ModelID() != "mock-embedding-model" || e.MaxValuesPerCall() != 0 {
		t.Fatalf("defaults: %d %s %s %d", e.Dimensions(), e.Provider(), e.ModelID(), e.MaxValuesPerCall())
	}
	vs := embed(t, e, "The cat sat on the mat.", "the CAT sat, on the mat", "Stock prices fell sharply", "", "...")
	if len(vs[0]) != DefaultDimensions {
		t.Fatalf("length %d", len(vs[0]))
	}
	var norm float64
	for _, x := range vs[0] {
		norm += float64(x) * float64(x)
	}
	if math.Abs(norm-1) > 1e-6 {
		t.Errorf("squared norm %v", norm)
	}
	if s := model.CosineSimilarity(vs[0], vs[1]); math.Abs(s-1) > 1e-6 {
		t.Errorf("same words, other case and punctuation: %v", s)
	}
	if s := model.CosineSimilarity(vs[0], vs[2]); s != 0 {
		t.Errorf("no shared word: %v", s)
	}
	for _, v := range vs[3:] {
		if model.CosineSimilarity(v, vs[0]) != 0 {
			t.Errorf("no words: %v", v)
		}
	}
	// Another embedder, the same vectors.
	again := embed(t, NewEmbedder(DefaultDimensions), "The cat sat on the mat.")
	if model.CosineSimilarity(again[0], vs[0]) < 1-1e-6 {
		t.Error("not deterministic")
	}
}

func TestEmbedderSharedWordsRankFirst(t *testing.T) {
	e := NewEmbedder(0)
	docs := []string{
		"I moved to Lisbon last spring",
		"My favourite food is grilled sardines",
		"The weather in Paris was rainy",
	}
	vs := embed(t, e, docs...)
	q := embed(t, e, "Which food? Grilled sardines!")[0]
	best, bestScore := -1, -2.0
	for i, v := range vs {
		if s := model.CosineSimilarity(q, v); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best != 1 {
		t.Errorf("best match %q (%v)", docs[best], bestScore)
	}
}

func TestEmbedderFixedVectorsLimitsErrorsAndCalls(t *testing.T) {
	e := NewEmbedder(3).WithID("p", "m").WithVector("north", []float32{0, 1, 0}).WithMaxValuesPerCall(2)
	vs := embed(t, e, "north", "North")
	if want := []float32{0, 1, 0}; !slices.Equal(vs[0], want) {
		t.Errorf("fixed vector %v", vs[0])
	}
	if want := NewEmbedder(3).Vector("north"); !slices.Equal(vs[1], want) {
		t.Errorf("another text than the fixed one: %v, want %v", vs[1], want)
	}
	vs[0][1] = 5
	if e.Vector("north")[1] != 1 {
		t.Error("the fixed vector was shared")
	}
	_, err := e.Embed(context.Background(), []string{"a", "b", "c"}, nil)
	var tooMany *model.TooManyValuesError
	if !errors.As(err, &tooMany) || tooMany.Provider != "p" || tooMany.ModelID != "m" {
		t.Errorf("too many: %v", err)
	}
	opts := &model.EmbedOptions{ProviderOptions: model.ProviderOptions{"mock": {"k": 1}}}
	res, err := model.EmbedMany(context.Background(), e, []string{"a b", "c", "d e f"}, opts)
	if err != nil || len(res.Vectors) != 3 || res.Usage.Tokens != 6 {
		t.Fatalf("EmbedMany: %+v %v", res, err)
	}
	calls := e.Calls()
	if len(calls) != 3 || calls[1].Options != opts && calls[2].Options != opts {
		t.Errorf("calls %+v", calls)
	}
	boom := errors.New("boom")
	e.WithError(boom)
	if _, err := e.Embed(context.Background(), []string{"a"}, nil); !errors.Is(err, boom) {
		t.Errorf("WithError: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.WithError(nil).Embed(ctx, []string{"a"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("WithVector of the wrong length: no panic")
		}
	}()
	e.WithVector("x", []float32{1})
}
