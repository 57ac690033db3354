package agent

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/stream"
)

// TextStream yields the text of a run's stream as it comes (Mastra's
// textStream): the text of each text-delta chunk, in order. chunks is
// what Stream, ResumeStream, ApproveToolCall or DeclineToolCall return.
// The run's failure ends it with an error: an error from chunks as it
// is, an error chunk (a model call that failed) as its *RunError.
// Stopping the iteration stops the run.
func TextStream(chunks iter.Seq2[stream.Chunk, error]) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for c, err := range chunks {
			if err != nil {
				yield("", err)
				return
			}
			switch p := c.Payload.(type) {
			case stream.TextPayload:
				if c.Type == stream.TypeTextDelta && !yield(p.Text, nil) {
					return
				}
			case stream.ErrorPayload:
				yield("", errorOf(p.Error))
				return
			}
		}
	}
}

// errorOf is an error chunk's error: the error itself, or (a chunk read
// back from JSON) the RunError its JSON describes.
func errorOf(v any) error {
	if e, ok := v.(error); ok {
		return e
	}
	var re RunError
	if b, err := json.Marshal(v); err == nil && json.Unmarshal(b, &re) == nil && re.Message != "" {
		return &re
	}
	return fmt.Errorf("agent: the run failed: %v", v)
}
