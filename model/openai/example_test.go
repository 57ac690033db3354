package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
)

// ExampleNew streams one answer from a local stand-in for the Responses
// API.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range []string{
			`{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1735689600,"status":"in_progress","model":"gpt-5.6-sol","output":[]}}`,
			`{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message","status":"in_progress","content":[],"role":"assistant"}}`,
			`{"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}`,
			`{"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,"delta":" there"}`,
			`{"type":"response.output_item.done","sequence_number":4,"output_index":0,"item":{"id":"msg_1","type":"message","status":"completed","content":[{"type":"output_text","text":"Hi there","annotations":[]}],"role":"assistant"}}`,
			`{"type":"response.completed","sequence_number":5,"response":{"id":"resp_1","object":"response","created_at":1735689600,"status":"completed","model":"gpt-5.6-sol","output":[],"usage":{"input_tokens":5,"output_tokens":2,"total_tokens":7}}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", e)
		}
	}))
	defer srv.Close()

	m, err := openai.New("gpt-5.6-sol", openai.Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1"})
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

// ExampleProviders registers OpenAI, and only OpenAI, with a model
// router: a program links the providers it imports and no other.
func ExampleProviders() {
	r := model.NewRouter(os.Getenv, openai.Providers()...)

	// The key would come from OPENAI_API_KEY; it is given here.
	m, err := r.Resolve(model.ModelConfig{ID: "openai/gpt-5.6-sol", APIKey: "sk-test"})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Provider(), m.ModelID())

	// A provider the router lacks: the error says what to import.
	_, err = r.ResolveID("anthropic/claude-sonnet-4-5")
	fmt.Println(err)
	// Output:
	// openai.responses gpt-5.6-sol
	// model "anthropic/claude-sonnet-4-5": unknown provider (known: openai); import github.com/gomastra/mastra/model/anthropic and register anthropic.Providers()
}
