package stream_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type echoIn struct {
	Text string `json:"text"`
}

// An Encoder writes every chunk of a run exactly as Marshal does, with
// JavaScript's escaping — with the messages step-finish and finish
// payloads repeat encoded once.
func TestEncoderWritesMarshalsBytes(t *testing.T) {
	echo := tools.New(tools.Config[echoIn, map[string]any]{ID: "echo", Execute: func(_ tools.Context, in echoIn) (map[string]any, error) {
		return map[string]any{"z": in.Text, "a": "<b>&\u2028</b>", "n": 1e21}, nil
	}})
	steps := []mock.Step{{Text: "Let me <check> & see\u2029", ToolCalls: []mock.ToolCall{{ID: "c1", Name: "echo", Args: `{"text":"x<y>"}`}}}}
	for i := range 4 {
		steps = append(steps, mock.Step{Reasoning: "hmm", ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("c%d", i+2), Name: "echo", Args: `{"text":"\u00e9\ud83d\ude00"}`}}})
	}
	steps = append(steps, mock.Step{Text: "Done: \"quoted\" \\ back"})
	a, err := agent.New(agent.Config{ID: "enc", Model: mock.New(steps...), Tools: tools.Set{"echo": echo}, MaxSteps: 10,
		Instructions: "Be <brief>."})
	if err != nil {
		t.Fatal(err)
	}
	enc := stream.NewEncoder()
	n := 0
	for c, err := range a.Stream(context.Background(), []model.Message{model.UserText("hi & <bye>"), model.System("sys\u2028")},
		agent.WithContextMessages(model.UserText("context"))) {
		if err != nil {
			t.Fatal(err)
		}
		c = stream.Redact(c)
		checkEncoded(t, enc, c)
		if p, ok := c.Payload.(stream.FinishPayload); ok {
			n++
			p.Resumed, p.StepResult.MessageID = true, "m1"
			resumed := c
			resumed.Payload = p
			checkEncoded(t, enc, resumed)
		}
	}
	if n != 7 {
		t.Errorf("%d step-finish and finish chunks, want 7", n)
	}
}

// Mastra's recorded stream encodes the same either way too.
func TestEncoderOnMastraTraffic(t *testing.T) {
	data, err := os.ReadFile("../agent/testdata/mastra/smoke-fullstream.json")
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatal(err)
	}
	enc := stream.NewEncoder()
	for _, raw := range raws {
		var c stream.Chunk
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		checkEncoded(t, enc, c)
	}
}

func checkEncoded(t *testing.T, enc *stream.Encoder, c stream.Chunk) {
	t.Helper()
	want, err := stream.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	if w := wire.UnescapeJS(want); string(got) != string(w) {
		t.Errorf("%s chunk:\n got %s\nwant %s", c.Type, got, w)
	}
}
