package agent

import (
	"context"
	"errors"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// finishAbort is the finish reason of an aborted run.
const finishAbort model.FinishReason = "abort"

// aborted reports whether the run was aborted (AbortRun, AbortThread).
func (r *run) aborted() bool { return errors.Is(context.Cause(r.ctx), ErrRunAborted) }

// live makes the run one of the agent's active runs (abortable by id
// and thread, from this process or, through a shared log, another) and
// returns the sink that publishes each chunk to the run's log before out
// sees it, and the function that ends both when the run ends.
func (r *run) live(out sink) (sink, func()) {
	a := r.agent
	owner := RunOwner{ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID}
	act := &activeRun{runID: r.opts.runID, owner: owner, cancel: r.cancel}
	re, replaying := r.engine.(ReplayingEngine)
	if replaying {
		// Only the engine aborts it, from the driver's own execution.
		re.Aborts(func() { r.cancel(ErrRunAborted) })
	} else {
		a.active.add(act)
	}
	stopWatch := func() {}
	if a.log.shared() && !replaying {
		var watch context.Context
		watch, stopWatch = context.WithCancel(context.WithoutCancel(r.ctx))
		a.log.watchAborts(watch, r.opts.runID, func() { r.cancel(ErrRunAborted) })
	}
	var pub publisher
	if replaying {
		pub = a.log.(*storeLog).indexedPublisher(r.opts.runID, owner)
	} else {
		pub = a.log.publisher(r.opts.runID, owner)
	}
	ml, inMemory := pub.(*memoryRunLog)
	publishing := func(c stream.Chunk) bool {
		if inMemory {
			ml.publishChunk(&c) // the common case, without a RunEvent
		} else {
			pub.publish(RunEvent{Type: eventTypeOf(c.Type), Chunk: c})
		}
		if c.Type == stream.TypeStepFinish && !r.aborted() {
			pub.publish(RunEvent{Type: RunEventIterationComplete, Iteration: r.iteration(c)})
		}
		return out(c)
	}
	return publishing, func() {
		stopWatch()
		pub.close(r.finalEvent(), r.logWanted())
		if !replaying {
			a.active.remove(act)
		}
		a.sweepEvents()
	}
}

// finalEvent is how the run's log ends: it has ended when the run
// finished, else it pauses for the run's resume or recovery.
func (r *run) finalEvent() string {
	if reason := r.result.finishReason; reason != "" && reason != model.FinishSuspended {
		return eventEnd
	}
	return eventPause
}

// eventTypeOf is the event type of a chunk of type chunkType.
func eventTypeOf(chunkType string) string {
	switch chunkType {
	case stream.TypeStepStart:
		return RunEventStepStart
	case stream.TypeFinish:
		return RunEventFinish
	case stream.TypeError:
		return RunEventError
	}
	return RunEventChunk
}

// iteration summarises the step whose step-finish chunk is c.
func (r *run) iteration(c stream.Chunk) *Iteration {
	it := &Iteration{Iteration: len(r.report.steps), MaxIterations: r.opts.maxSteps, RunID: r.opts.runID,
		ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID, AgentID: r.agent.cfg.ID, AgentName: r.agent.Name(),
		ToolCalls: []stream.ToolCallPayload{}, ToolResults: []stream.ToolResultPayload{}}
	if p, ok := c.Payload.(stream.FinishPayload); ok {
		it.IsFinal, it.FinishReason = !p.StepResult.IsContinued, p.StepResult.Reason
	}
	if n := len(r.report.steps); n > 0 {
		last := r.report.steps[n-1]
		it.Text = last.Text
		for _, tc := range last.ToolCalls {
			if p, ok := tc.Payload.(stream.ToolCallPayload); ok {
				it.ToolCalls = append(it.ToolCalls, p)
			}
		}
		for _, tr := range last.ToolResults {
			if p, ok := tr.Payload.(stream.ToolResultPayload); ok {
				it.ToolResults = append(it.ToolResults, p)
			}
		}
	}
	return it
}
