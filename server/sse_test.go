package server

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/gomastra/mastra/stream"
)

// TestSSEWriterWritesTheServersBytes: stream.SSEWriter, given the
// redacted chunks, writes the bytes of the server's agent streams, and
// the workflow streams' records hold the same JSON.
func TestSSEWriterWritesTheServersBytes(t *testing.T) {
	chunks := []stream.Chunk{
		{Type: stream.TypeTextDelta, RunID: "r", From: stream.FromAgent, Payload: stream.TextPayload{ID: "t1", Text: "<a & b> \u2028\u2029 \x01 \xff é😀"}},
		{Type: stream.TypeToolResult, RunID: "r", From: stream.FromAgent, Payload: stream.ToolResultPayload{ToolCallID: "c1", ToolName: "add",
			Result: map[string]any{"10": 1, "2": "</script>", "sum": 5.5}}},
		{Type: stream.TypeStepStart, RunID: "r", From: stream.FromAgent, Payload: stream.StepStartPayload{Request: map[string]any{"body": "secret"}}},
		{Type: stream.TypeFinish, RunID: "r", From: stream.FromAgent, Payload: stream.FinishPayload{Metadata: stream.StepMetadata{Request: map[string]any{"body": "secret"}}}},
	}
	seq := func(yield func(stream.Chunk, error) bool) {
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
	s := &Server{log: slog.New(slog.DiscardHandler)}
	sse := httptest.NewRecorder()
	s.writeStream(sse, httptest.NewRequest("POST", "/", nil), seq, formatSSE)
	records := httptest.NewRecorder()
	s.writeStream(records, httptest.NewRequest("POST", "/", nil), seq, formatRecords)

	var want, wantRecords bytes.Buffer
	w := stream.NewSSEWriter(&want)
	for _, c := range chunks {
		if err := w.Write(stream.Redact(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Done(); err != nil {
		t.Fatal(err)
	}
	if got := sse.Body.String(); got != want.String() {
		t.Errorf("server SSE:\n%q\nSSEWriter:\n%q", got, want.String())
	}
	for frame := range bytes.SplitSeq(bytes.TrimSuffix(want.Bytes(), []byte("data: [DONE]\n\n")), []byte("\n\n")) {
		if len(frame) > 0 {
			wantRecords.Write(bytes.TrimPrefix(frame, []byte("data: ")))
			wantRecords.WriteByte(0x1e)
		}
	}
	if got := records.Body.String(); got != wantRecords.String() {
		t.Errorf("server records:\n%q\nwant:\n%q", got, wantRecords.String())
	}
	if bytes.Contains(want.Bytes(), []byte("secret")) || !bytes.Contains(want.Bytes(), []byte("<a & b> \u2028\u2029 \\u0001 \\ufffd")) {
		t.Errorf("frames:\n%s", want.Bytes())
	}
}
