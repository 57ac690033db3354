package wire

import (
	"io"
	"net/http"
)

// The frames a Framer writes.
const (
	dataPrefix  = "data: "
	frameEnd    = "\n\n"
	doneFrame   = "data: [DONE]\n\n"
	recordEnd   = "\x1e"
	commentHead = ": "
)

// Framer writes frames to an io.Writer, flushing after each one when the
// writer can flush (an http.ResponseWriter), so that a slow client
// applies back-pressure instead of the server buffering a run. Its buffer
// is reused from frame to frame. It is not safe for concurrent use.
type Framer struct {
	w     io.Writer
	flush func()
	buf   []byte
}

// NewFramer returns a Framer writing to w.
func NewFramer(w io.Writer) *Framer {
	f := &Framer{w: w, flush: func() {}}
	if fl, ok := w.(http.Flusher); ok {
		f.flush = fl.Flush
	}
	return f
}

// Flush flushes the writer, when it can.
func (f *Framer) Flush() { f.flush() }

// Data writes the server-sent event "data: <body>\n\n".
func (f *Framer) Data(body []byte) error { return f.frame(dataPrefix, body, frameEnd) }

// AppendData writes the event "data: <body>\n\n" whose body appendBody
// appends to the buffer it is given. When appendBody fails, nothing is
// written and ok is false, with its error; otherwise ok is true and err
// is the write's.
func (f *Framer) AppendData(appendBody func([]byte) ([]byte, error)) (ok bool, err error) {
	b, err := appendBody(append(f.buf[:0], dataPrefix...))
	if err != nil {
		return false, err
	}
	f.buf = append(b, frameEnd...)
	return true, f.write(f.buf)
}

// Done writes the closing event "data: [DONE]\n\n".
func (f *Framer) Done() error { return f.write([]byte(doneFrame)) }

// Comment writes the SSE comment ": <text>\n\n" (": heartbeat").
func (f *Framer) Comment(text string) error { return f.frame(commentHead, []byte(text), frameEnd) }

// Record writes body followed by the record separator "\x1e", the framing
// of Mastra's workflow streams (which @mastra/client-js splits on it).
func (f *Framer) Record(body []byte) error { return f.frame("", body, recordEnd) }

func (f *Framer) frame(prefix string, body []byte, suffix string) error {
	f.buf = append(append(append(f.buf[:0], prefix...), body...), suffix...)
	return f.write(f.buf)
}

func (f *Framer) write(b []byte) error {
	if _, err := f.w.Write(b); err != nil {
		return err
	}
	f.flush()
	return nil
}

// StartSSE answers r with status 200 and the headers of a server-sent
// event stream (Content-Type text/event-stream, Cache-Control no-cache,
// Connection keep-alive over HTTP/1, X-Accel-Buffering no), plus the
// extra headers given as name, value pairs; it flushes them and returns
// the Framer of the body.
func StartSSE(w http.ResponseWriter, r *http.Request, extra ...string) *Framer {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	if r.ProtoMajor == 1 {
		h.Set("Connection", "keep-alive")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	h.Set("X-Accel-Buffering", "no")
	return start(w)
}

// StartRecords answers with status 200 and the headers of a record stream
// (Content-Type text/plain, as Mastra's workflow streams have it,
// Cache-Control no-cache, X-Accel-Buffering no), flushes them and
// returns the Framer of the body.
func StartRecords(w http.ResponseWriter) *Framer {
	h := w.Header()
	h.Set("Content-Type", "text/plain")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	return start(w)
}

func start(w http.ResponseWriter) *Framer {
	w.WriteHeader(http.StatusOK)
	f := NewFramer(w)
	f.Flush()
	return f
}
