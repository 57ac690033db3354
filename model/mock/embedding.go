package mock

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/gomastra/mastra/model"
)

// DefaultDimensions is the length of an [Embedder]'s vectors unless
// NewEmbedder is given another.
const DefaultDimensions = 384

// Embedder is a deterministic embedding model for tests: the counterpart
// of the AI SDK's MockEmbeddingModel that needs no script, since a text's
// vector is computed from the text itself.
//
// A text's vector is a hashed bag of its words: the text is lower-cased
// and split into words (runs of letters and digits; everything else
// separates them), each word adds 1 to the component FNV-1a(word) modulo
// the dimension, and the vector is scaled to length 1 (L2-normalised). So
// the same text always gives the same vector, in any process; texts
// sharing words are similar ([model.CosineSimilarity] above 0, 1 for
// texts with the same words as often, whatever their case, order and
// punctuation); texts sharing none have similarity 0 unless two of their
// words hash to the same component (rare: the default dimension is 384).
// A text without words gives the zero vector (similarity 0 with
// anything). It knows no meaning: "car" and "automobile" are unrelated.
//
// WithVector fixes the vector of an exact text instead, for tests that
// need chosen similarities. Usage is the number of words embedded, as a
// stand-in for tokens.
//
// An Embedder is safe for concurrent use; configure it (the With
// methods) before using it.
type Embedder struct {
	provider, modelID string
	dims, max         int
	fixed             map[string][]float32
	err               error

	mu    sync.Mutex
	calls []EmbedCall
}

// EmbedCall is one Embed call an Embedder received.
type EmbedCall struct {
	Values  []string
	Options *model.EmbedOptions
}

var _ model.EmbeddingModel = (*Embedder)(nil)

// NewEmbedder returns an embedder of vectors of dimensions components
// (DefaultDimensions when 0 or less), reporting provider "mock-provider"
// and model "mock-embedding-model", with no limit of values per call.
func NewEmbedder(dimensions int) *Embedder {
	if dimensions <= 0 {
		dimensions = DefaultDimensions
	}
	return &Embedder{provider: "mock-provider", modelID: "mock-embedding-model", dims: dimensions}
}

// WithID sets the provider and model ids the embedder reports.
func (e *Embedder) WithID(provider, modelID string) *Embedder {
	e.provider, e.modelID = provider, modelID
	return e
}

// WithMaxValuesPerCall sets MaxValuesPerCall (0: no limit): a call with
// more values fails with a *model.TooManyValuesError, as a provider's
// does, and model.EmbedMany splits values into calls of at most n.
func (e *Embedder) WithMaxValuesPerCall(n int) *Embedder {
	e.max = n
	return e
}

// WithVector makes text's vector v, as given (neither hashed nor
// normalised); it must have the embedder's dimensions.
func (e *Embedder) WithVector(text string, v []float32) *Embedder {
	if len(v) != e.dims {
		panic(fmt.Sprintf("mock: WithVector(%q): %d components, want %d", text, len(v), e.dims))
	}
	if e.fixed == nil {
		e.fixed = map[string][]float32{}
	}
	e.fixed[text] = slices.Clone(v)
	return e
}

// WithError makes every call fail with err (nil: succeed again), after
// being recorded.
func (e *Embedder) WithError(err error) *Embedder {
	e.err = err
	return e
}

// Provider implements model.EmbeddingModel.
func (e *Embedder) Provider() string { return e.provider }

// ModelID implements model.EmbeddingModel.
func (e *Embedder) ModelID() string { return e.modelID }

// MaxValuesPerCall implements model.EmbeddingModel.
func (e *Embedder) MaxValuesPerCall() int { return e.max }

// Dimensions is the length of the embedder's vectors.
func (e *Embedder) Dimensions() int { return e.dims }

// Calls returns the calls received so far, in the order they arrived.
func (e *Embedder) Calls() []EmbedCall {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.calls)
}

// Embed implements model.EmbeddingModel: one vector per value (see
// Vector), in order. It fails with ctx's error once ctx is done.
func (e *Embedder) Embed(ctx context.Context, values []string, opts *model.EmbedOptions) (model.Embeddings, error) {
	if err := model.CheckValuesPerCall(e, values); err != nil {
		return model.Embeddings{}, err
	}
	if err := ctx.Err(); err != nil {
		return model.Embeddings{}, err
	}
	e.mu.Lock()
	e.calls = append(e.calls, EmbedCall{Values: slices.Clone(values), Options: opts})
	e.mu.Unlock()
	if e.err != nil {
		return model.Embeddings{}, e.err
	}
	out := model.Embeddings{Vectors: make([][]float32, len(values))}
	for i, v := range values {
		out.Vectors[i] = e.Vector(v)
		out.Usage.Tokens += len(words(v))
	}
	return out, nil
}

// Vector is the vector Embed gives text: the one WithVector fixed, else
// its normalised hashed bag of words (see Embedder).
func (e *Embedder) Vector(text string) []float32 {
	if v, ok := e.fixed[text]; ok {
		return slices.Clone(v)
	}
	counts := make([]float64, e.dims)
	for _, w := range words(text) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(w))
		counts[h.Sum64()%uint64(e.dims)]++
	}
	var norm float64
	for _, c := range counts {
		norm += c * c
	}
	v := make([]float32, e.dims)
	if norm == 0 {
		return v
	}
	norm = math.Sqrt(norm)
	for i, c := range counts {
		v[i] = float32(c / norm)
	}
	return v
}

// words splits text, lower-cased, into runs of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
