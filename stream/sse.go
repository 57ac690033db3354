package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"strings"
)

// marshal encodes v without HTML escaping ('<', '>', '&' stay as they
// are, as JavaScript's JSON.stringify leaves them).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Marshal encodes a chunk as Mastra's servers send it: no HTML escaping.
func Marshal(c Chunk) ([]byte, error) { return marshal(c) }

// SSEWriter writes chunks as server-sent events, one "data: <json>\n\n"
// frame each, flushing after every frame when the writer can flush (an
// http.ResponseWriter), so a slow client applies back-pressure instead of
// the server buffering a run. It is not safe for concurrent use.
type SSEWriter struct {
	w     io.Writer
	flush func()
	buf   []byte
}

// NewSSEWriter returns a writer of frames to w.
func NewSSEWriter(w io.Writer) *SSEWriter {
	s := &SSEWriter{w: w, flush: func() {}}
	if f, ok := w.(http.Flusher); ok {
		s.flush = f.Flush
	}
	return s
}

// Write sends one chunk.
func (s *SSEWriter) Write(c Chunk) error {
	b, err := Marshal(c)
	if err != nil {
		return err
	}
	return s.frame("data: ", b)
}

// Comment sends an SSE comment line (": connected").
func (s *SSEWriter) Comment(text string) error { return s.frame(": ", []byte(text)) }

// Done sends the closing "data: [DONE]" frame.
func (s *SSEWriter) Done() error { return s.frame("data: ", []byte("[DONE]")) }

func (s *SSEWriter) frame(prefix string, body []byte) error {
	s.buf = append(append(append(s.buf[:0], prefix...), body...), '\n', '\n')
	if _, err := s.w.Write(s.buf); err != nil {
		return err
	}
	s.flush()
	return nil
}

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
