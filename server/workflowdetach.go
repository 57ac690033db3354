package server

import (
	"context"
	"net/http"

	"github.com/gomastra/mastra/stream"
)

// chunkItem is one step of a chunk sequence.
type chunkItem struct {
	c   stream.Chunk
	err error
}

// detachedChunks runs a workflow run in the server's background (see
// goBackground), so that it does not depend on the request r: run gets
// the background context, and the chunks it yields go to the returned
// sequence while the request's client reads them. When the client goes
// away (its request's context ends, or the sequence's consumer stops),
// the run is detached and goes on to its end or suspension, which its
// event log records for observers. done is called once the run has
// stopped. The error is the server's shutting down (run never ran).
func (s *Server) detachedChunks(r *http.Request, run func(ctx context.Context) chunkSeq, done func()) (chunkSeq, error) {
	out := make(chan chunkItem)
	gone := make(chan struct{})
	err := s.goBackground(func(ctx context.Context) {
		defer done()
		defer close(out)
		attached := true
		for c, err := range run(ctx) {
			if !attached {
				continue
			}
			select {
			case out <- chunkItem{c, err}:
			case <-gone:
				attached = false
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return func(yield func(stream.Chunk, error) bool) {
		defer close(gone)
		for {
			select {
			case it, ok := <-out:
				if !ok || !yield(it.c, it.err) {
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	}, nil
}
