package chat_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/chat"
)

// ExampleNew talks Chat Completions to a local stand-in for an
// OpenAI-compatible server (here reported as Ollama).
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735689600,"model":"llama3.2","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735689600,"model":"llama3.2","choices":[{"index":0,"delta":{"content":" there"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	m, err := chat.New("llama3.2", chat.Config{BaseURL: srv.URL + "/v1", Provider: "ollama.chat"})
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

// ExampleProviders registers the OpenAI-compatible providers with a
// router, which resolves their "provider/model" ids.
func ExampleProviders() {
	env := map[string]string{"XAI_API_KEY": "xai-test-key"} // os.Getenv in a program
	r := model.NewRouter(func(k string) string { return env[k] }, chat.Providers()...)
	fmt.Println(r.Providers())
	for _, id := range []string{"xai/grok-4", "ollama/llama3.2", "groq/llama-3.3-70b-versatile"} {
		m, err := r.ResolveID(id)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(m.Provider(), m.ModelID())
	}
	// Output:
	// [deepseek groq ollama openrouter xai]
	// xai.chat grok-4
	// ollama.chat llama3.2
	// model groq/llama-3.3-70b-versatile: no API key: set GROQ_API_KEY (or pass APIKey)
}
