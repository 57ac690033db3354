package model

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// EmbeddingModel turns texts into vectors: the AI SDK's EmbeddingModel
// (V2/V3) for string values, what Mastra's Memory takes as its embedder
// for semantic recall. Package model/mock has a deterministic one for
// tests; model/openai/embedding (OpenAI and OpenAI-compatible servers such
// as Ollama) and model/google have the providers'. A [Router] resolves
// Mastra's embedder ids ("openai/text-embedding-3-small",
// "google/gemini-embedding-001", "ollama/nomic-embed-text") with
// [Router.ResolveEmbedding].
//
// The contract of Embed, which every implementation keeps:
//
//   - One call embeds all of values in one request to the provider (after
//     the provider's own retries) and returns exactly one vector per
//     value, in the order of values: Vectors[i] is the embedding of
//     values[i]. An answer with another number of vectors is an
//     *[EmbeddingCountError], and no vectors are returned.
//   - More values than MaxValuesPerCall (when it is positive) is a
//     *[TooManyValuesError], and nothing is sent; [EmbedMany] splits
//     values into calls that fit. No values at all returns no vectors and
//     sends nothing.
//   - A refused call returns the provider's error (an HTTP error type
//     implementing [TransientError], so rate limits and server errors can
//     be told from bad requests); a cancelled ctx returns ctx's error.
//   - opts may be nil (the defaults); neither values nor opts is
//     modified or kept.
//   - Implementations are safe for concurrent use: EmbedMany calls Embed
//     from several goroutines at once.
//
// Vectors are the provider's as they come (float32, the precision vector
// stores keep): not normalised unless the provider normalises them. All
// vectors of one model and one set of options have the same length.
type EmbeddingModel interface {
	// Provider is the AI SDK provider id, e.g. "openai.embedding",
	// "ollama.embedding", "google.generative-ai".
	Provider() string
	// ModelID is the provider's model id, e.g. "text-embedding-3-small".
	ModelID() string
	// MaxValuesPerCall is the most values one Embed call takes (the AI
	// SDK's maxEmbeddingsPerCall: 2048 for OpenAI, 100 for Gemini); 0 or
	// less is no limit.
	MaxValuesPerCall() int
	// Embed embeds values in one call.
	Embed(ctx context.Context, values []string, opts *EmbedOptions) (Embeddings, error)
}

// EmbedOptions are the options of one embedding call (the AI SDK's embed
// and embedMany options, and Mastra Memory's embedderOptions). The zero
// value, like a nil *EmbedOptions, is the provider's defaults.
type EmbedOptions struct {
	// ProviderOptions are passed to the provider, keyed by provider name,
	// as the AI SDK's providers read them: e.g. {"openai": {"dimensions":
	// 512}} or {"google": {"outputDimensionality": 768, "taskType":
	// "RETRIEVAL_QUERY"}}.
	ProviderOptions ProviderOptions `json:"providerOptions,omitempty"`
	// Headers are extra HTTP headers for the call.
	Headers map[string]string `json:"headers,omitempty"`
	// MaxRetries overrides the provider's retry count (nil: its default).
	MaxRetries *int `json:"maxRetries,omitempty"`
	// MaxParallelCalls is how many calls [EmbedMany] makes at once; 0 or
	// less is all of them at once, as the AI SDK's embedMany does. Embed
	// ignores it.
	MaxParallelCalls int `json:"maxParallelCalls,omitempty"`
}

// Embeddings is the answer to an embedding call: the AI SDK's embedMany
// result.
type Embeddings struct {
	// Vectors holds one vector per value embedded, in the order of the
	// values.
	Vectors [][]float32 `json:"embeddings"`
	// Usage is what the call cost.
	Usage EmbeddingUsage `json:"usage"`
}

// EmbeddingUsage is what an embedding call cost.
type EmbeddingUsage struct {
	// Tokens is the input tokens the provider reports (OpenAI's
	// usage.prompt_tokens); 0 when it reports none, as Gemini's API does.
	Tokens int `json:"tokens"`
}

// TooManyValuesError is returned by Embed when it is given more values
// than its model's MaxValuesPerCall: the AI SDK's
// TooManyEmbeddingValuesForCallError. [EmbedMany] never causes it.
type TooManyValuesError struct {
	Provider, ModelID string
	// Max is the model's MaxValuesPerCall, Values how many were given.
	Max, Values int
}

func (e *TooManyValuesError) Error() string {
	return fmt.Sprintf("embedding model %s (%s): %d values in one call, at most %d per call (EmbedMany splits them)",
		e.ModelID, e.Provider, e.Values, e.Max)
}

// EmbeddingCountError is returned when a provider answers an embedding
// call with another number of vectors than it was given values: no vector
// can then be trusted to belong to its value.
type EmbeddingCountError struct {
	Provider, ModelID string
	// Values is how many values were sent, Vectors how many came back.
	Values, Vectors int
}

func (e *EmbeddingCountError) Error() string {
	return fmt.Sprintf("embedding model %s (%s): %d vectors for %d values", e.ModelID, e.Provider, e.Vectors, e.Values)
}

// CheckValuesPerCall returns a *[TooManyValuesError] when values are more
// than m takes in one call, else nil: the check an EmbeddingModel's Embed
// makes before it sends anything.
func CheckValuesPerCall(m EmbeddingModel, values []string) error {
	if limit := m.MaxValuesPerCall(); limit > 0 && len(values) > limit {
		return &TooManyValuesError{Provider: m.Provider(), ModelID: m.ModelID(), Max: limit, Values: len(values)}
	}
	return nil
}

// EmbedMany embeds values with m, as the AI SDK's embedMany does: it
// splits them into calls of at most m.MaxValuesPerCall values (one call
// when the model has no limit), makes up to opts.MaxParallelCalls of them
// at once (all at once by default), and returns the vectors in the order
// of values and the calls' usage summed. Every call gets opts.
//
// It fails with the first call that fails, and cancels the calls still
// running; a call answering with another number of vectors than it was
// given values is an *[EmbeddingCountError]. No values make no call.
func EmbedMany(ctx context.Context, m EmbeddingModel, values []string, opts *EmbedOptions) (Embeddings, error) {
	if len(values) == 0 {
		return Embeddings{Vectors: [][]float32{}}, nil
	}
	size := m.MaxValuesPerCall()
	if size <= 0 || size > len(values) {
		size = len(values)
	}
	var batches [][]string
	for i := 0; i < len(values); i += size {
		batches = append(batches, values[i:min(i+size, len(values))])
	}
	embed := func(ctx context.Context, batch []string) (Embeddings, error) {
		res, err := m.Embed(ctx, batch, opts)
		if err != nil {
			return Embeddings{}, err
		}
		if len(res.Vectors) != len(batch) {
			return Embeddings{}, &EmbeddingCountError{Provider: m.Provider(), ModelID: m.ModelID(), Values: len(batch), Vectors: len(res.Vectors)}
		}
		return res, nil
	}
	if len(batches) == 1 {
		return embed(ctx, batches[0])
	}

	parallel := len(batches)
	if opts != nil && opts.MaxParallelCalls > 0 {
		parallel = min(opts.MaxParallelCalls, parallel)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		results  = make([]Embeddings, len(batches))
		sem      = make(chan struct{}, parallel)
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	var stopped error // ctx's error when it ended before every call started
	for i, batch := range batches {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if stopped = ctx.Err(); stopped != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			res, err := embed(ctx, batch)
			if err != nil {
				fail(err)
				return
			}
			results[i] = res
		})
	}
	wg.Wait()
	if firstErr != nil {
		return Embeddings{}, firstErr
	}
	if stopped != nil {
		return Embeddings{}, stopped
	}
	out := Embeddings{Vectors: make([][]float32, 0, len(values))}
	for _, r := range results {
		out.Vectors = append(out.Vectors, r.Vectors...)
		out.Usage.Tokens += r.Usage.Tokens
	}
	return out, nil
}

// CosineSimilarity is the cosine of the angle between a and b, from -1
// (opposite) to 1 (same direction), as the AI SDK's cosineSimilarity
// computes it: 0 when either vector is all zeros. It panics when a and b
// differ in length, which no two vectors of one model and one set of
// options do.
func CosineSimilarity(a, b []float32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("model.CosineSimilarity: vectors of lengths %d and %d", len(a), len(b)))
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}
