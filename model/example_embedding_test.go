package model_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
)

// EmbedMany splits values into calls the model takes and returns one
// vector per value, in order.
func ExampleEmbedMany() {
	m := mock.NewEmbedder(64).WithMaxValuesPerCall(2)
	res, err := model.EmbedMany(context.Background(), m, []string{"alpha", "beta", "gamma"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Vectors), len(res.Vectors[0]), len(m.Calls()))
	// Output: 3 64 2
}

// A router resolves Mastra's embedder ids from the entries that offer
// embedding models (here a test entry; model/openai/embedding, model/google
// and model/providers have the real ones).
func ExampleRouter_ResolveEmbedding() {
	r := model.NewRouter(os.Getenv, model.Provider{
		Name: "test", KeyOptional: true,
		NewEmbedding: func(modelID, apiKey, baseURL string, headers map[string]string) (model.EmbeddingModel, error) {
			return mock.NewEmbedder(8).WithID("test.embedding", modelID), nil
		},
	})
	e, err := r.ResolveEmbedding(model.ModelConfig{ID: "test/tiny-embed"})
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Provider(), e.ModelID())
	_, err = r.ResolveEmbeddingID("acme/embed")
	fmt.Println(err)
	// Output:
	// test.embedding tiny-embed
	// embedding model "acme/embed": unknown provider (known: test)
}
