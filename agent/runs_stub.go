package agent

import (
	"context"
	"errors"
	"iter"

	"github.com/gomastra/mastra/stream"
)

// ErrRunAborted is the cause a run's context is cancelled with when the
// run is aborted (AbortRun, AbortThread, RunHandle.Abort).
var ErrRunAborted = errors.New("agent: the run was aborted")

var errNotYet = errors.New("agent: not implemented yet")

func (a *Agent) detach(context.Context, func(ctx context.Context) iter.Seq2[stream.Chunk, error]) (*RunHandle, error) {
	return nil, errNotYet
}

func (a *Agent) observe(context.Context, string, int64) iter.Seq2[RunEvent, error] {
	return func(yield func(RunEvent, error) bool) { yield(RunEvent{}, errNotYet) }
}

func (a *Agent) abortRun(context.Context, string) (bool, error) { return false, errNotYet }

func (a *Agent) abortThread(context.Context, ThreadAbort) (bool, error) { return false, errNotYet }
