package agent

import (
	"context"
	"errors"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// payload is the step-finish (or finish) payload after the last step.
func (r *run) payload(reason model.FinishReason, continued bool, text string, usage model.Usage) stream.FinishPayload {
	s := r.state
	p := stream.FinishPayload{
		MessageID:  r.report.messageID,
		StepResult: stream.StepResult{Reason: reason, IsContinued: continued},
		Metadata:   stream.StepMetadata{ModelMetadata: r.modelMetadata(), Request: map[string]any{}},
		Output:     stream.FinishOutput{Text: text, ToolCalls: []stream.ToolCallPayload{}, Usage: usage, Steps: clip(r.report.records)},
		Messages: &stream.MessageGroups{
			All:  r.report.conversation.of(s.User, s.Response),
			User: clip(s.User), NonUser: clip(s.Response),
		},
	}
	if n := len(r.report.steps); n > 0 {
		last := r.report.steps[n-1]
		p.StepResult.Warnings = last.Warnings
		p.Metadata.ID, p.Metadata.Timestamp, p.Metadata.ModelID = last.Response.ID, last.Response.Timestamp, last.Response.ModelID
		p.Metadata.ModelMetadata = last.Response.ModelMetadata
		for _, c := range last.ToolCalls {
			if tc, ok := c.Payload.(stream.ToolCallPayload); ok {
				p.Output.ToolCalls = append(p.Output.ToolCalls, tc)
			}
		}
	}
	return p
}

// stepFinish reports the last step: onStepFinish, then its step-finish
// chunk.
func (r *run) stepFinish(out sink, continued bool) {
	last := r.report.steps[len(r.report.steps)-1]
	if fn := r.opts.onStepFinish; fn != nil {
		safeCallback(r.agent.cfg.Logger, "onStepFinish", func() { fn(r.ctx, last) })
	}
	p := r.payload(last.FinishReason, continued, last.Text, last.Usage)
	if r.report.resumedStep {
		p.Resumed, p.StepResult.MessageID = true, r.report.messageID
		r.report.resumedStep = false
	}
	if r.report.stepObject {
		p.Output.Object = r.result.object
		r.report.stepObject = false
	}
	r.emit(out, stream.TypeStepFinish, p)
}

// finish ends the run: its snapshot is removed, onFinish hears its
// output, and the finish chunk reports it.
func (r *run) finish(out sink, reason model.FinishReason) {
	r.result.finishReason = reason
	if err := r.journal.remove(r.storageCtx()); err != nil {
		r.agent.cfg.Logger.Warn(storage.ErrorDetail(err), "agent", r.agent.cfg.ID, "runId", r.opts.runID)
	}
	o := r.output()
	if fn := r.opts.onFinish; fn != nil {
		safeCallback(r.agent.cfg.Logger, "onFinish", func() { fn(r.ctx, o) })
	}
	p := r.payload(reason, false, o.Text, model.Usage(r.state.Usage))
	p.Output.Object = r.result.object
	r.emit(out, stream.TypeFinish, p)
}

// fail ends the run on err with an error chunk and finish reason error.
// A storage failure's chunk carries its generic text (a
// storage.DatabaseError's); its detail goes to the agent's log.
func (r *run) fail(out sink, err error) {
	if storage.IsDatabaseError(err) {
		r.agent.cfg.Logger.Error("agent: run failed on storage", "agent", r.agent.cfg.ID, "runId", r.opts.runID, "error", storage.ErrorDetail(err))
	}
	var re *RunError
	if !errors.As(err, &re) {
		re = &RunError{Message: err.Error(), Cause: err}
	}
	r.result.err = re
	r.emit(out, stream.TypeError, stream.ErrorPayload{Error: re})
	r.finish(out, model.FinishError)
}

// trip ends a run a step processor stopped, as Mastra ends it: a
// tripwire chunk, no finish chunk; the output has the tripwire and
// finish reason "other".
func (r *run) trip(out sink, t Tripwire) {
	r.result.tripwire, r.result.finishReason = &t, model.FinishOther
	if err := r.journal.remove(r.storageCtx()); err != nil {
		r.agent.cfg.Logger.Warn(storage.ErrorDetail(err), "agent", r.agent.cfg.ID, "runId", r.opts.runID)
	}
	if fn := r.opts.onFinish; fn != nil {
		o := r.output()
		safeCallback(r.agent.cfg.Logger, "onFinish", func() { fn(r.ctx, o) })
	}
	r.emit(out, stream.TypeTripwire, t)
}

// abort ends a run whose context ended (not one its consumer stopped)
// with Mastra's abort chunk. A run saved as running is parked: its state
// stays saved, and a recovery finishes it.
func (r *run) abort(out sink) {
	if !r.stopped() {
		r.emit(out, stream.TypeAbort, map[string]any{})
	}
	if r.journal.parked() {
		r.agent.cfg.Logger.Info("agent: run parked (stopped before it ended; a recovery finishes it)",
			"agent", r.agent.cfg.ID, "runId", r.opts.runID, "step", r.state.Step, "cause", context.Cause(r.ctx))
	}
}

// suspend ends a run whose step waits for people: the state is saved as
// suspended before the waiting chunks (held) are sent, the memory thread
// records the waiting calls, and onFinish hears "suspended". No
// step-finish or finish chunk follows, as in Mastra.
func (r *run) suspend(out sink, held []stream.Chunk) {
	r.result.finishReason = model.FinishSuspended
	err := r.save(storage.RunSuspended, &stateChange{})
	if err == nil {
		err = r.rememberSuspended()
	}
	if err != nil {
		r.fail(out, err)
		return
	}
	if fn := r.opts.onFinish; fn != nil {
		o := r.output()
		safeCallback(r.agent.cfg.Logger, "onFinish", func() { fn(r.ctx, o) })
	}
	for _, c := range held {
		if !out(c) {
			return
		}
	}
}
