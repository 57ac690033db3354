package agent

import (
	"context"
	"fmt"
	"iter"
	"runtime/debug"

	"github.com/gomastra/mastra/stream"
)

// RunHandle is a run started with Start or Detach: it goes on whether or
// not anyone reads it, until it ends or is aborted.
type RunHandle struct {
	agent  *Agent
	runID  string
	chunks chunkBuffer
	done   chan struct{}
	abort  func()
}

// RunID returns the run's id.
func (h *RunHandle) RunID() string { return h.runID }

// Chunks reads the chunks the handle's stream yields, from its first
// one, then live, until the stream ends or ctx ends (ctx's error). It
// reads them in this process, as the run yields them, whatever becomes
// of the run's event log. Stopping the iteration detaches this reader
// only: the run goes on. Each call is a reader of its own; readers in
// other processes use Observe.
func (h *RunHandle) Chunks(ctx context.Context) iter.Seq2[stream.Chunk, error] {
	return h.chunks.read(ctx)
}

// Done is closed when the handle's stream has ended.
func (h *RunHandle) Done() <-chan struct{} { return h.done }

// Abort asks the run to stop as AbortRun does.
func (h *RunHandle) Abort() { h.abort() }

// Start starts a run of the agent on input (as Stream takes it) that
// does not depend on ctx's cancellation: ctx's values (the request
// context, tracing) are kept, its deadline and cancellation are not. The
// run ends on its own, or when aborted (AbortRun, AbortThread,
// RunHandle.Abort). Its chunks go to its run's event log (Config.Events,
// read with Observe) and to the handle's readers (RunHandle.Chunks). An
// input or option the agent cannot take is an error and no run starts.
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
	// The handle's readers come and go (and read the log with Observe
	// once the run has ended): the run is one whose reader has left.
	rd := &detachedReader{}
	rd.left.Store(true)
	runCtx, cancel := context.WithCancel(withDetachedReader(context.WithoutCancel(ctx), rd))
	h := &RunHandle{agent: a, done: make(chan struct{})}
	h.abort = func() { _, _ = a.AbortRun(context.WithoutCancel(ctx), h.runID) }
	started := make(chan struct{})
	go func() {
		defer close(h.done)
		defer cancel()
		first := true
		h.chunks.end(a.drainRecovering(run(runCtx), func(c stream.Chunk) {
			if first {
				h.runID, first = c.RunID, false
				close(started)
			}
			h.chunks.add(c)
		}))
		if first {
			close(started)
		}
	}()
	<-started
	if first, ended, _, err := h.chunks.next(0); len(first) == 0 && ended {
		if err == nil {
			err = fmt.Errorf("agent %s: the run yielded nothing", a.cfg.ID)
		}
		return nil, err
	}
	return h, nil
}

// drainRecovering hands each chunk of seq to add, on a detached run's
// goroutine, where no caller recovers, and returns the error the stream
// ended on: a panic of the run is logged and becomes that error.
func (a *Agent) drainRecovering(seq iter.Seq2[stream.Chunk, error], add func(stream.Chunk)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			a.cfg.Logger.Error("agent: a detached run panicked", "agent", a.cfg.ID, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("agent %s: the run panicked: %v", a.cfg.ID, p)
		}
	}()
	for c, err := range seq {
		if err != nil {
			return err
		}
		add(c)
	}
	return nil
}
