package agent

import (
	"context"
	"iter"
	"sync/atomic"

	"github.com/gomastra/mastra/stream"
)

// Follow runs the stream run returns (any of the agent's streams:
// Stream, ResumeStream, ApproveToolCall, ...) detached from ctx's
// cancellation, on the caller's goroutine: the returned stream yields
// its chunks while the caller reads them; when the caller stops (or ctx
// is cancelled and the caller stops), the run goes on, unread, to its
// end, and the iteration returns only then. ctx's values (the request
// context, tracing) are kept.
//
// A run whose reader left before its end keeps its event log for the
// retention (Config.EventRetention): the reader can come back with
// Observe from the last index it saw. A server answering a request with
// a run's stream uses Follow: a client that goes away detaches, the run
// finishes. Start does the same on a goroutine of its own.
func (a *Agent) Follow(ctx context.Context, run func(ctx context.Context) iter.Seq2[stream.Chunk, error]) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		rd := &detachedReader{}
		seq := run(withDetachedReader(context.WithoutCancel(ctx), rd))
		stream.DrainAfterStop(seq, func() { rd.left.Store(true) })(yield)
	}
}

// detachedReader is the reader of a detached run (Follow, Start,
// Detach): left once it stopped reading before the run's end.
type detachedReader struct {
	left atomic.Bool
}

type detachedReaderKey struct{}

func withDetachedReader(ctx context.Context, rd *detachedReader) context.Context {
	return context.WithValue(ctx, detachedReaderKey{}, rd)
}

// logWanted reports whether a reader may come back for the run's event
// log once the run has ended: its detached reader left before the end.
// (An in-process log also keeps the logs of runs read by Observe while
// they ran.)
func (r *run) logWanted() bool {
	rd, _ := r.ctx.Value(detachedReaderKey{}).(*detachedReader)
	return rd != nil && rd.left.Load()
}
