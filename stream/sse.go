package stream

import (
	"bufio"
	"encoding/json"
	"io"
	"iter"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
)

// Marshal encodes a chunk as Mastra's servers send it: no HTML escaping
// ('<', '>' and '&' stay as they are, as JSON.stringify leaves them;
// wire.MarshalNoHTML).
func Marshal(c Chunk) ([]byte, error) { return wire.MarshalNoHTML(c) }

// SSEWriter writes chunks as server-sent events, byte for byte as package
// server's agent stream routes write them: one "data: <json>\n\n" frame
// per chunk (Marshal's JSON with U+2028 and U+2029 unescaped, as
// JSON.stringify writes them), "data: [DONE]\n\n" at the end. The server
// writes Redact(c) for each chunk c; Write writes the chunk it is given.
// It flushes after every frame when the writer can flush (an
// http.ResponseWriter), so a slow client applies back-pressure instead of
// the server buffering a run. It is not safe for concurrent use.
type SSEWriter struct {
	f *wire.Framer
}

// NewSSEWriter returns a writer of frames to w.
func NewSSEWriter(w io.Writer) *SSEWriter { return &SSEWriter{f: wire.NewFramer(w)} }

// Write sends one chunk.
func (s *SSEWriter) Write(c Chunk) error {
	b, err := Marshal(c)
	if err != nil {
		return err
	}
	return s.f.Data(wire.UnescapeJS(b))
}

// Comment sends an SSE comment line (": connected").
func (s *SSEWriter) Comment(text string) error { return s.f.Comment(text) }

// Done sends the closing "data: [DONE]" frame.
func (s *SSEWriter) Done() error { return s.f.Done() }

// ReadSSE reads frames as Mastra's clients do: events are separated by a
// blank line, only "data: " lines count, "[DONE]" ends the stream and
// frames that do not parse as a chunk are skipped. The error is the
// reader's, if any.
func ReadSSE(r io.Reader) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 16<<20)
		var data strings.Builder
		emit := func() (bool, bool) { // (continue, done)
			if data.Len() == 0 {
				return true, false
			}
			text := data.String()
			data.Reset()
			if text == "[DONE]" {
				return false, true
			}
			var c Chunk
			if err := json.Unmarshal([]byte(text), &c); err != nil {
				return true, false
			}
			return yield(c, nil), false
		}
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if cont, done := emit(); !cont || done {
					return
				}
				continue
			}
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.WriteString(rest)
			}
		}
		if err := sc.Err(); err != nil {
			yield(Chunk{}, err)
			return
		}
		emit()
	}
}
