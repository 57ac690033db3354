package server

import (
	"context"
	"net/http"

	"github.com/gomastra/mastra/stream"
)

// detachedChunks makes a workflow run one of the server's background
// runs (see backgroundStream) that does not depend on the request r:
// run gets r's values, not its cancellation, and the returned sequence
// runs it on the reading goroutine, yielding its chunks while the
// request's client reads them. When the reader stops (the client went
// away), the run is detached: the sequence drains it, yielding nothing,
// to its end or suspension, which its event log records for observers.
// done is called once the run has stopped. The error is the server's
// shutting down (run never ran). The sequence must be read once.
func (s *Server) detachedChunks(r *http.Request, run func(ctx context.Context) chunkSeq, done func()) (chunkSeq, error) {
	bound, err := s.backgroundStream(run)
	if err != nil {
		return nil, err
	}
	return func(yield func(stream.Chunk, error) bool) {
		defer done()
		stream.DrainAfterStop(bound(context.WithoutCancel(r.Context())), nil)(yield)
	}, nil
}
