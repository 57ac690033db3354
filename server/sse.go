package server

import (
	"net/http"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/storage"
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

// startStream sends the headers of a stream answer in format and returns
// the writer of its frames.
func startStream(w http.ResponseWriter, r *http.Request, format streamFormat) *wire.Framer {
	if format == formatSSE {
		return wire.StartSSE(w, r)
	}
	return wire.StartRecords(w)
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
	var fw *wire.Framer
	enc := stream.NewEncoder() // each of the run's messages encoded once
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
				s.log.ErrorContext(r.Context(), "stream failed", "path", r.URL.Path, "error", storage.ErrorDetail(err))
			}
			return
		}
		if fw == nil {
			fw = startStream(w, r, format)
		}
		if !s.sendChunk(r, fw, enc, stream.Redact(c), format) {
			return
		}
	}
	if fw == nil {
		fw = startStream(w, r, format)
	}
	if format == formatSSE {
		_ = fw.Done()
	}
}

// wantsSSE reports whether the client asked for server-sent events.
func wantsSSE(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// sendChunk writes c to fw in format; a chunk that cannot be encoded is
// logged and skipped. False: the write failed (the client went away).
func (s *Server) sendChunk(r *http.Request, fw *wire.Framer, enc *stream.Encoder, c stream.Chunk, format streamFormat) bool {
	b, err := enc.Encode(c)
	if err != nil {
		s.log.WarnContext(r.Context(), "skipping a chunk that cannot be encoded", "type", c.Type, "error", err)
		return true
	}
	if format == formatSSE {
		return fw.Data(b) == nil
	}
	return fw.Record(b) == nil
}
