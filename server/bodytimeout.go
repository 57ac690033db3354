package server

import (
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// errBodyTimeout is the answer to a body not received within
// Options.BodyReadTimeout (Node's 408 for a request that times out).
var errBodyTimeout = errorf(http.StatusRequestTimeout, "Request Timeout")

// isBodyTimeout reports whether err, from reading a request body, is the
// read deadline set by timeBody.
func isBodyTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// timeBody makes r's body, if it has one, due within d: it sets the
// connection's read deadline and lifts it once the body is read to its
// end, so that only the body's reading is bounded and not the response
// (the server's read that notices a client going away starts then). A
// body not read to its end keeps the deadline: the server's own read of
// what is left after the handler then fails instead of waiting on a slow
// client, and the connection is closed. A zero or negative d, or a connection without read
// deadlines (a test recorder), leaves r as it is.
func timeBody(w http.ResponseWriter, r *http.Request, d time.Duration) {
	if d <= 0 || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(d)) != nil {
		return
	}
	r.Body = &timedBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
}

// timedBody is a body read under a deadline; lift removes the deadline,
// once, at the body's end.
type timedBody struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	return n, err
}
