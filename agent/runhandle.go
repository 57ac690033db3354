package agent

import (
	"context"
	"iter"

	"github.com/gomastra/mastra/stream"
)

// RunHandle is a run started with Start or Detach: it goes on whether or
// not anyone reads it, until it ends or is aborted.
type RunHandle struct {
	agent *Agent
	runID string
	done  chan struct{}
	abort func()
}

// RunID returns the run's id.
func (h *RunHandle) RunID() string { return h.runID }

// Chunks reads the run's chunks from its first one, then live, until
// the run stops (its finish chunk) or ctx ends. Stopping the iteration
// detaches this reader only: the run goes on. Each call is a reader of
// its own; an error (the event log failing, ctx's) ends it.
func (h *RunHandle) Chunks(ctx context.Context) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		for e, err := range h.agent.Observe(ctx, h.runID, 0) {
			if err != nil {
				yield(stream.Chunk{}, err)
				return
			}
			if e.Type == RunEventIterationComplete {
				continue
			}
			if !yield(e.Chunk, nil) {
				return
			}
		}
	}
}

// Done is closed when the run has ended in this process (its last
// event is in its log).
func (h *RunHandle) Done() <-chan struct{} { return h.done }

// Abort asks the run to stop as AbortRun does.
func (h *RunHandle) Abort() { h.abort() }

// Start starts a run of the agent on input (as Stream takes it) that
// does not depend on ctx's cancellation: ctx's values (the request
// context, tracing) are kept, its deadline and cancellation are not. The
// run ends on its own, or when aborted (AbortRun, AbortThread,
// RunHandle.Abort). Its chunks go to its run's event log (Config.Events),
// read with RunHandle.Chunks or Observe. An input or option the agent
// cannot take is an error and no run starts.
func (a *Agent) Start(ctx context.Context, input any, opts ...Option) (*RunHandle, error) {
	return a.Detach(ctx, func(ctx context.Context) iter.Seq2[stream.Chunk, error] {
		return a.Stream(ctx, input, opts...)
	})
}

// Detach runs the stream that run returns (any of the agent's streams:
// Stream, ResumeStream, ApproveToolCall, ...) detached from ctx's
// cancellation, as Start does. run is called with the run's own
// context. Detach returns once the stream has yielded its first chunk;
// an error before it (the stream could not start) is returned and no
// run goes on.
func (a *Agent) Detach(ctx context.Context, run func(ctx context.Context) iter.Seq2[stream.Chunk, error]) (*RunHandle, error) {
	return a.detach(ctx, run)
}
