package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/anthropic"
)

// A model pointed at a local server that streams a short answer.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-example","content":[],"usage":{"input_tokens":9,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi there."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}

event: message_stop
data: {"type":"message_stop"}

`)
	}))
	defer srv.Close()

	m, err := anthropic.New("claude-example", anthropic.Config{APIKey: "test", BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	r, err := model.Collect(context.Background(), m, &model.Request{
		Messages: []model.Message{model.System("Be brief."), model.UserText("Hello!")},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Provider(), r.Metadata.ID)
	fmt.Printf("%q %s %d\n", r.Text, r.FinishReason, r.Usage.TotalTokens)
	// Output:
	// anthropic.messages msg_1
	// "Hi there." stop 13
}
