package agent

import "context"

// ThreadAbort selects the run AbortThread stops: the active run of the
// memory thread ThreadID of ResourceID (a run started with a resource is
// found only with that resource), and, when ExpectedRunID is set, only
// if it is that run.
type ThreadAbort struct {
	ThreadID      string
	ResourceID    string
	ExpectedRunID string
}

// AbortRun stops the run runID (Mastra's abortRunStream): its tool calls
// in flight see their context cancelled (with cause ErrRunAborted) and
// their outcomes are kept, no further step starts, and the run ends with
// its step's step-finish and a finish chunk whose reason is "abort". It
// reports whether the run was running, in this process or, with a
// shared store, in another one (which sees the abort promptly, even
// while a tool runs). Aborting a run again, or one that has ended,
// breaks nothing.
func (a *Agent) AbortRun(ctx context.Context, runID string) (bool, error) {
	return a.abortRun(ctx, runID)
}

// AbortThread stops the active run of a memory thread (Mastra's
// abortThreadStream), as AbortRun does, and reports whether there was
// one to stop.
func (a *Agent) AbortThread(ctx context.Context, t ThreadAbort) (bool, error) {
	return a.abortThread(ctx, t)
}
