package server

import (
	"net/http"
	"strings"

	"github.com/gomastra/mastra/stream"
)

// streamFormat is how a stream route frames chunks.
type streamFormat int

const (
	// formatSSE: "data: <json>\n\n" frames, then "data: [DONE]\n\n"
	// (agent streams, as Mastra's server writes them).
	formatSSE streamFormat = iota
	// formatRecords: each chunk's JSON followed by the record separator
	// "\x1E", nothing at the end (Mastra's workflow streams, which
	// @mastra/client-js splits on "\x1E").
	formatRecords
)

// frameWriter writes frames to a response, flushing after each so a slow
// client applies back-pressure and nothing is buffered. Its buffer is
// reused from frame to frame.
type frameWriter struct {
	w     http.ResponseWriter
	flush func()
	buf   []byte
}

func newFrameWriter(w http.ResponseWriter) *frameWriter {
	fw := &frameWriter{w: w, flush: func() {}}
	if f, ok := w.(http.Flusher); ok {
		fw.flush = f.Flush
	}
	return fw
}

func (fw *frameWriter) write(prefix string, body []byte, suffix string) error {
	fw.buf = append(append(append(fw.buf[:0], prefix...), body...), suffix...)
	if _, err := fw.w.Write(fw.buf); err != nil {
		return err
	}
	fw.flush()
	return nil
}

// startStream sends the headers of a stream answer.
func startStream(w http.ResponseWriter, r *http.Request, format streamFormat) *frameWriter {
	h := w.Header()
	if format == formatSSE {
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		if r.ProtoMajor == 1 {
			h.Set("Connection", "keep-alive")
		}
		h.Set("X-Accel-Buffering", "no")
	} else {
		h.Set("Content-Type", "text/plain; charset=UTF-8")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
	}
	w.WriteHeader(http.StatusOK)
	fw := newFrameWriter(w)
	fw.flush()
	return fw
}

// writeSSE streams an agent run as SSE (see writeStream).
func (s *Server) writeSSE(w http.ResponseWriter, r *http.Request, seq chunkSeq) {
	s.writeStream(w, r, seq, formatSSE)
}

// writeStream streams seq's chunks in format. An error before the first
// chunk (a run that cannot start: a bad input, a resume conflict, no such
// run) is answered as a JSON error with its status, since nothing has
// been sent yet; an error after it is logged and ends the stream (without
// the closing [DONE], as Mastra does). Each chunk goes through
// stream.Redact (the request bodies a step sent the model are not shown)
// and one that cannot be encoded is skipped and logged. When the client
// goes away the write fails, iteration stops, and the run, whose context
// is the request's, is cancelled with it.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, seq chunkSeq, format streamFormat) {
	var fw *frameWriter
	for c, err := range seq {
		if err != nil {
			if fw == nil {
				if errorIsContext(r, err) {
					return
				}
				s.writeError(w, r, err)
				return
			}
			if !errorIsContext(r, err) {
				s.log.ErrorContext(r.Context(), "stream failed", "path", r.URL.Path, "error", err)
			}
			return
		}
		if fw == nil {
			fw = startStream(w, r, format)
		}
		b, err := stream.Marshal(stream.Redact(c))
		if err != nil {
			s.log.WarnContext(r.Context(), "skipping a chunk that cannot be encoded", "type", c.Type, "error", err)
			continue
		}
		if format == formatSSE {
			err = fw.write("data: ", unescapeJS(b), "\n\n")
		} else {
			err = fw.write("", unescapeJS(b), "\x1e")
		}
		if err != nil {
			return
		}
	}
	if fw == nil {
		fw = startStream(w, r, format)
	}
	if format == formatSSE {
		_ = fw.write("data: ", []byte("[DONE]"), "\n\n")
	}
}

// wantsSSE reports whether the client asked for server-sent events.
func wantsSSE(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}
