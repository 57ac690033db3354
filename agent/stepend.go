package agent

import (
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// callsStep runs the pending step's calls (resume: the answer to one
// waiting call), each outcome saved before it is streamed. It returns the
// results of the ended calls in call order and whether a client call is
// pending; ok is false when the run did not go on: its calls wait (it is
// saved as suspended, unless its engine waits for the answer), or it
// stopped or failed.
func (r *run) callsStep(out sink, resume *resumeInput) (results []model.ToolResultPart, client, ok bool) {
	for {
		var held []stream.Chunk
		for c := range r.dispatch(resume, r.recordOutcome, &held) {
			if !out(c) {
				break
			}
		}
		if r.ctx.Err() != nil && !r.aborted() {
			r.abort(out)
			return nil, false, false
		}
		waiting := r.state.waitingCalls()
		if len(waiting) == 0 {
			results, client = stepResults(r.state.Pending)
			return results, client, true
		}
		if _, waits := r.engine.(ReplayingEngine); waits {
			// Readers see what the run waits for while it waits.
			for _, c := range held {
				out(c)
			}
			held = nil
		}
		if resume = r.await(waiting); resume == nil {
			r.suspend(out, held)
			return nil, false, false
		}
		for _, c := range held {
			out(c)
		}
	}
}

// recordOutcome applies and saves one call's outcome, a tool-result
// chunk with it (a save that fails is logged: the call has run, and the
// run goes on).
func (r *run) recordOutcome(o callOutcome) {
	if o.chunk.Type == stream.TypeToolResult {
		reported := storedChunk(o.chunk)
		o.call.Reported = &reported
	}
	if err := r.change(stateChange{Call: &callChange{Index: o.index, Call: o.call}}, true); err != nil {
		r.agent.cfg.Logger.Error(storage.ErrorDetail(err), "agent", r.agent.cfg.ID, "runId", r.opts.runID)
	}
}

// stepResults are a step's results in call order, and whether a client
// call is pending.
func stepResults(p *stepState) (results []model.ToolResultPart, client bool) {
	for _, c := range p.Calls {
		switch {
		case c.Status == callDone && c.Result != nil:
			results = append(results, *c.Result)
		case c.Status == callClient:
			client = true
		}
	}
	return results, client
}

// await asks the engine for the answer to one of the waiting calls.
func (r *run) await(waiting []callState) *resumeInput {
	calls := make([]WaitingCall, len(waiting))
	for i, c := range waiting {
		calls[i] = WaitingCall{ToolCallID: c.ID, ToolName: c.Name, Args: argsOrEmpty(c.Args), Suspended: c.Status == callSuspended,
			SuspendPayload: c.SuspendPayload, ResumeSchema: c.ResumeSchema}
	}
	ans, ok := r.engine.Await(r.ctx, r.opts.runID, calls)
	if !ok {
		return nil
	}
	in := &resumeInput{toolCallID: ans.ToolCallID, data: ans.Data}
	if ans.Approved != nil {
		in.approval = &approvalDecision{Approved: *ans.Approved, Reason: ans.Reason}
	}
	return in
}

// endStep ends the pending step: its messages join the response, its
// record and memory are written, a final answer is structured, and the
// run goes on (saved) or finishes. It reports whether the run goes on.
func (r *run) endStep(out sink, results []model.ToolResultPart, client bool) bool {
	p, step := r.state.Pending, r.state.Step
	reason := model.FinishReason(p.Reason)
	if len(p.Calls) > 0 && reason == model.FinishStop {
		reason = model.FinishToolCalls
	}
	end := stateChange{End: &stepEnd{Messages: stepMessages(p, results), Report: r.stepReport(reason, p.Meta)}}
	r.state.apply(end)
	r.addStep(step, r.state.Done[len(r.state.Done)-1])
	if err := r.rememberStep(step, p, results); err != nil {
		r.fail(out, err)
		return false
	}
	if r.st != nil && len(p.Calls) == 0 {
		// The answer step: its text becomes the object.
		reason = r.structure(out, p.Text, reason)
		r.report.steps[len(r.report.steps)-1].FinishReason = reason
		if r.stopped() {
			return false
		}
	}
	continues := r.continues(p, reason, client)
	if continues {
		if err := r.save(storage.RunRunning, &end); err != nil {
			r.fail(out, err)
			return false
		}
	}
	r.stepFinish(out, continues)
	switch {
	case r.aborted():
		r.finish(out, finishAbort)
		return false
	case !continues:
		r.finish(out, reason)
	}
	return continues
}

// stepMessages are what a step adds to the response: its assistant
// message and, when it made calls, its tool message with the results it
// has (Mastra lists one, empty, when none has come yet: client tools the
// caller runs; an empty one is never sent to the model).
func stepMessages(p *stepState, results []model.ToolResultPart) []model.Message {
	msgs := []model.Message{p.Assistant}
	if len(p.Calls) > 0 {
		tm := model.ToolMessage(results...)
		if tm.Content == nil {
			tm.Content = []model.Part{}
		}
		msgs = append(msgs, tm)
	}
	return msgs
}

// continues is Mastra's rule: the run goes on after tool calls unless a
// client tool is pending or the model stopped for an error, the length
// limit or a content filter — and unless the step limit or a stop
// condition ends it.
func (r *run) continues(p *stepState, reason model.FinishReason, client bool) bool {
	if len(p.Calls) == 0 || client || reason == model.FinishError || reason == model.FinishLength || reason == model.FinishContentFilter {
		return false
	}
	if r.state.Step >= r.opts.maxSteps {
		return false
	}
	for _, cond := range r.opts.stopWhen {
		if cond(r.report.steps) {
			return false
		}
	}
	return true
}
