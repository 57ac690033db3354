package google_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/google"
)

func ExampleNew() {
	// A stand-in for the Gemini API, answering with two streamed chunks.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]}}],"responseId":"r1"}`+"\n\n")
		_, _ = io.WriteString(w, `data: {"candidates":[{"content":{"role":"model","parts":[{"text":" there!"}]},"finishReason":"STOP"}],`+
			`"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2,"totalTokenCount":5},"responseId":"r1"}`+"\n\n")
	}))
	defer srv.Close()

	m, err := google.New("gemini-2.5-flash", google.Config{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := model.Collect(context.Background(), m, &model.Request{
		Messages: []model.Message{model.UserText("Say hello.")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Provider(), m.ModelID())
	fmt.Println(resp.Text)
	fmt.Println(resp.FinishReason, resp.Usage.TotalTokens)
	// Output:
	// google.generative-ai gemini-2.5-flash
	// Hello there!
	// stop 5
}

func ExampleNewEmbedding() {
	// A stand-in for the Gemini API's batchEmbedContents.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"embeddings":[{"values":[0.6,0.8]},{"values":[0,1]}]}`)
	}))
	defer srv.Close()

	e, err := google.NewEmbedding("gemini-embedding-001", google.EmbeddingConfig{
		APIKey: "test-key", BaseURL: srv.URL, TaskType: "RETRIEVAL_DOCUMENT",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := model.EmbedMany(context.Background(), e, []string{"sunny beach", "rainy city"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Provider(), e.ModelID(), e.MaxValuesPerCall())
	fmt.Println(res.Vectors)
	fmt.Printf("%.1f\n", model.CosineSimilarity(res.Vectors[0], res.Vectors[1]))
	// Output:
	// google.generative-ai gemini-embedding-001 100
	// [[0.6 0.8] [0 1]]
	// 0.8
}
