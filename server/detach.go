package server

import (
	"context"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/stream"
)

// writeDetached runs the stream run returns detached from the request
// (agent.Follow): the run goes on, and finishes, when the client goes
// away; the answer is its chunks as SSE (see writeStream), and its
// events stay observable (observeAgent). The run is one of the server's
// background runs: a shutdown lets it finish for the grace period, then
// cancels it (a run with storage parks, for a recovery to finish). An
// error before the first chunk, mapped by mapErr when set, is the JSON
// error answer. The run executes on the request's goroutine (no
// hand-off per chunk); once the client has gone the handler drains it,
// writing nothing, until it ends.
func (s *Server) writeDetached(w http.ResponseWriter, r *http.Request, a *agent.Agent, run func(ctx context.Context) chunkSeq, mapErr func(error) error) {
	bound, err := s.backgroundStream(run)
	if err != nil {
		if mapErr != nil {
			err = mapErr(err)
		}
		s.writeStream(w, r, func(yield func(stream.Chunk, error) bool) { yield(stream.Chunk{}, err) }, formatSSE)
		return
	}
	seq := a.Follow(r.Context(), bound)
	if mapErr != nil {
		seq = mapFirstError(seq, mapErr)
	}
	s.writeStream(w, r, seq, formatSSE)
}

// mapFirstError maps with mapErr an error seq yields before any chunk
// (the stream could not start).
func mapFirstError(seq chunkSeq, mapErr func(error) error) chunkSeq {
	return func(yield func(stream.Chunk, error) bool) {
		first := true
		for c, err := range seq {
			if first && err != nil {
				err = mapErr(err)
			}
			first = false
			if !yield(c, err) {
				return
			}
		}
	}
}

// backgroundStream makes run's stream one of the server's background
// runs: counted until it ends, and cancelled with them at shutdown.
func (s *Server) backgroundStream(run func(ctx context.Context) chunkSeq) (func(ctx context.Context) chunkSeq, error) {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.bgClosed {
		return nil, errShutdown
	}
	s.bgWG.Add(1)
	return func(ctx context.Context) chunkSeq {
		return func(yield func(stream.Chunk, error) bool) {
			defer s.bgWG.Done()
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(s.bg, cancel)()
			for c, err := range run(ctx) {
				if !yield(c, err) {
					return
				}
			}
		}
	}, nil
}
