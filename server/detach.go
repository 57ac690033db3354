package server

import (
	"context"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/stream"
)

// writeDetached runs the stream run returns detached from the request
// (agent.Detach): the run goes on, and finishes, when the client goes
// away; the answer is its chunks as SSE (see writeStream), and its
// events stay observable (observeAgent). The run is one of the server's
// background runs: a shutdown lets it finish for the grace period, then
// cancels it (a run with storage parks, for a recovery to finish). An
// error before the first chunk, mapped by mapErr when set, is the JSON
// error answer.
func (s *Server) writeDetached(w http.ResponseWriter, r *http.Request, a *agent.Agent, run func(ctx context.Context) chunkSeq, mapErr func(error) error) {
	bound, err := s.backgroundStream(run)
	var h *agent.RunHandle
	if err == nil {
		h, err = a.Detach(r.Context(), bound)
	}
	if err != nil {
		if mapErr != nil {
			err = mapErr(err)
		}
		s.writeStream(w, r, func(yield func(stream.Chunk, error) bool) { yield(stream.Chunk{}, err) }, formatSSE)
		return
	}
	s.writeSSE(w, r, h.Chunks(r.Context()))
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
