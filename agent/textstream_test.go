package agent_test

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
)

func TestTextStream(t *testing.T) {
	a, err := agent.New(agent.Config{ID: "talker", Model: mock.New(mock.Step{TextChunks: []string{"It is ", "sunny ", "in Paris."}})})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	for text, err := range agent.TextStream(a.Stream(context.Background(), "Weather?")) {
		if err != nil {
			t.Fatal(err)
		}
		deltas = append(deltas, text)
	}
	if got := strings.Join(deltas, "|"); got != "It is |sunny |in Paris." {
		t.Errorf("deltas %q", got)
	}
	// Stopping early stops the run; nothing more is read.
	n := 0
	for range agent.TextStream(a.Stream(context.Background(), "Weather?")) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d deltas after break", n)
	}
}

func TestTextStreamErrors(t *testing.T) {
	refused := errors.New("quota exceeded")
	a, err := agent.New(agent.Config{ID: "talker", Model: mock.New(mock.Step{Err: refused})})
	if err != nil {
		t.Fatal(err)
	}
	var got error
	for text, err := range agent.TextStream(a.Stream(context.Background(), "Weather?")) {
		if err != nil {
			got = err
			break
		}
		t.Errorf("text %q", text)
	}
	var re *agent.RunError
	if !errors.As(got, &re) || !strings.Contains(got.Error(), "quota exceeded") {
		t.Errorf("a failed model call: %v", got)
	}
	// An error of the stream itself (an input the agent cannot take).
	got = nil
	for _, err := range agent.TextStream(a.Stream(context.Background(), 42)) {
		got = err
	}
	if got == nil {
		t.Error("no error for a bad input")
	}
	// An error chunk read back from JSON.
	decoded := func(yield func(stream.Chunk, error) bool) {
		yield(stream.Chunk{Type: stream.TypeError, Payload: stream.ErrorPayload{Error: map[string]any{"message": "boom", "code": "X"}}}, nil)
	}
	for _, err := range agent.TextStream(iter.Seq2[stream.Chunk, error](decoded)) {
		if !errors.As(err, &re) || re.Message != "boom" || re.ID != "X" {
			t.Errorf("decoded error chunk: %#v", err)
		}
	}
}
