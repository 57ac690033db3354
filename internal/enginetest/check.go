package enginetest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gomastra/mastra/stream"
)

// text is the run's text: its text deltas joined.
func (r Outcome) text() string {
	var b strings.Builder
	for _, c := range r.Chunks {
		if c.Type == stream.TypeTextDelta {
			b.WriteString(field(c, "text").(string))
		}
	}
	return b.String()
}

// of returns the run's chunks of type typ.
func (r Outcome) of(typ string) []stream.Chunk {
	var out []stream.Chunk
	for _, c := range r.Chunks {
		if c.Type == typ {
			out = append(out, c)
		}
	}
	return out
}

// payload is c's payload as JSON values.
func payload(c stream.Chunk) map[string]any {
	raw, err := json.Marshal(c.Payload)
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return m
}

// field is one field of c's payload.
func field(c stream.Chunk, name string) any { return payload(c)[name] }

// asJSON is v as compact JSON text.
func asJSON(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// wantResults checks the run's tool results: their call ids and results
// (as JSON), in order.
func wantResults(t *testing.T, r Outcome, want ...string) {
	t.Helper()
	var got []string
	for _, c := range r.of(stream.TypeToolResult) {
		got = append(got, field(c, "toolCallId").(string)+"="+asJSON(field(c, "result")))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tool results:\n got %q\nwant %q", got, want)
	}
}

// wantText checks the run's text.
func wantText(t *testing.T, r Outcome, want string) {
	t.Helper()
	if got := r.text(); got != want {
		t.Errorf("text = %q, want %q (chunks %s)", got, want, types(r))
	}
}

// wantFinish checks the finish reason of the run's last finish chunk.
func wantFinish(t *testing.T, r Outcome, want string) {
	t.Helper()
	fs := r.of(stream.TypeFinish)
	if len(fs) == 0 {
		t.Fatalf("no finish chunk in %s", types(r))
	}
	if got := asJSON(payload(fs[len(fs)-1])["stepResult"].(map[string]any)["reason"]); got != asJSON(want) {
		t.Errorf("finish reason %s, want %q", got, want)
	}
}

// types lists the run's chunk types.
func types(r Outcome) string {
	var ts []string
	for _, c := range r.Chunks {
		ts = append(ts, c.Type)
	}
	return strings.Join(ts, " ")
}
