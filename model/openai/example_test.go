package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
)

// ExampleNew talks to a local stand-in for an OpenAI-compatible server.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735689600,"model":"llama3.2","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735689600,"model":"llama3.2","choices":[{"index":0,"delta":{"content":" there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	m, err := openai.New("llama3.2", openai.Config{BaseURL: srv.URL + "/v1", Provider: "ollama.chat"})
	if err != nil {
		panic(err)
	}
	for part, err := range m.Stream(context.Background(), &model.Request{
		Messages: []model.Message{model.UserText("Say hi")},
	}) {
		if err != nil {
			panic(err)
		}
		switch part.Type {
		case model.PartTextDelta:
			fmt.Printf("%s %q\n", part.Type, part.Delta)
		case model.PartFinish:
			fmt.Println(part.Type, part.FinishReason, part.Usage.TotalTokens)
		default:
			fmt.Println(part.Type)
		}
	}
	// Output:
	// stream-start
	// response-metadata
	// text-start
	// text-delta "Hi"
	// text-delta " there"
	// text-end
	// finish stop 7
}
