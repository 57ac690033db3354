package embedding_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/model/openai/embedding"
)

// An embedding model on an OpenAI-compatible server (here a local stand-in
// for Ollama's /v1/embeddings).
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.6,0.8]},{"object":"embedding","index":1,"embedding":[0.8,0.6]}],"model":"nomic-embed-text","usage":{"prompt_tokens":5,"total_tokens":5}}`)
	}))
	defer srv.Close()

	m, err := embedding.New("nomic-embed-text", embedding.Config{BaseURL: srv.URL + "/v1", Provider: "ollama.embedding"})
	if err != nil {
		panic(err)
	}
	res, err := model.EmbedMany(context.Background(), m, []string{"sunny beach", "sunny city"}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Vectors, res.Usage.Tokens)
	fmt.Printf("%.2f\n", model.CosineSimilarity(res.Vectors[0], res.Vectors[1]))
	// Output:
	// [[0.6 0.8] [0.8 0.6]] 5
	// 0.96
}

// Mastra's embedder ids, beside the language models of package openai.
// Nothing is dialled until a call.
func ExampleProviders() {
	env := map[string]string{"OPENAI_API_KEY": "sk-example"} // a program passes os.Getenv
	r := model.NewRouter(func(k string) string { return env[k] }, openai.Providers()...)
	r.Register(embedding.Providers()...)
	for _, id := range []string{"openai/text-embedding-3-small", "ollama/nomic-embed-text"} {
		e, err := r.ResolveEmbeddingID(id)
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Provider(), e.ModelID(), e.MaxValuesPerCall())
	}
	m, _ := r.ResolveID("openai/gpt-5.6-sol")
	fmt.Println(m.Provider())
	// Output:
	// openai.embedding text-embedding-3-small 2048
	// ollama.embedding nomic-embed-text 2048
	// openai.responses
}
