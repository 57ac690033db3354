package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// Snapshot statuses, as storage names them.
const (
	storageRunning   = storage.RunRunning
	storageSuspended = storage.RunSuspended
)

// resumeInput is what a resume brings to one waiting call: resume data
// for a suspension, or a decision for an approval.
type resumeInput struct {
	toolCallID string
	data       json.RawMessage
	approval   *approvalDecision
}

// approvalDecision is a person's answer to a tool-call-approval.
type approvalDecision struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// newPendingStep makes the step a model call produced pending: all its
// calls running.
func newPendingStep(res *stepResult) *pendingStep {
	p := &pendingStep{
		Assistant: res.assistant, Text: res.text, Reasoning: res.reasoning,
		Reason: string(res.reason), Usage: storedUsage(res.usage), AfterResume: res.afterResume,
		Warnings: res.warnings, Sources: res.sources, Files: res.files, ProviderMetadata: res.providerMetadata,
	}
	if res.meta != nil {
		p.Meta = &responseStamp{ID: res.meta.ID, Timestamp: res.meta.Timestamp, ModelID: res.meta.ModelID}
	}
	for _, c := range res.calls {
		p.Calls = append(p.Calls, pendingCall{ID: c.id, Name: c.name, Args: c.args, Raw: c.rawArgs, Status: callRunning})
	}
	return p
}

// result rebuilds the model call's stepResult from the pending step.
func (p *pendingStep) result() *stepResult {
	res := &stepResult{
		text: p.Text, reasoning: p.Reasoning, reason: model.FinishReason(p.Reason), usage: model.Usage(p.Usage),
		assistant: p.Assistant, afterResume: p.AfterResume,
		warnings: p.Warnings, sources: p.Sources, files: p.Files, providerMetadata: p.ProviderMetadata,
	}
	if p.Meta != nil {
		res.meta = &model.ResponseMetadata{ID: p.Meta.ID, Timestamp: p.Meta.Timestamp, ModelID: p.Meta.ModelID}
	}
	for _, c := range p.Calls {
		res.calls = append(res.calls, c.call())
	}
	return res
}

// snapshot is the run's state as it is saved.
func (r *run) snapshot() *snapshot {
	return &snapshot{
		AgentID: r.agent.cfg.ID, Context: r.opts.context, History: r.history, User: r.user, Input: r.input, Response: r.response,
		Carried: r.carried, Instructions: r.instructions, Step: r.stepN, Usage: storedUsage(r.usage), Resumed: r.resumed, Pending: r.pending, MaxSteps: r.opts.maxSteps,
		ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID, RequestContext: serialisable(r.opts.requestContext.All()),
	}
}

// persist saves the run's snapshot under status, so that the run can be
// found again (after a crash: running) or resumed (suspended).
func (r *run) persist(status string) error {
	return r.persister.save(context.WithoutCancel(r.ctx), status, r.snapshot())
}

// forget deletes the run's snapshot once the run has finished.
func (r *run) forget() {
	if err := r.persister.remove(context.WithoutCancel(r.ctx)); err != nil {
		r.agent.cfg.Logger.Warn(err.Error(), "agent", r.agent.cfg.ID, "runId", r.opts.runID)
	}
}

// suspend ends a run whose step waits for people: the snapshot is saved
// as suspended (before the waiting chunks are sent, by the caller), the
// memory thread records the waiting calls, and onFinish hears
// "suspended". No step-finish or finish chunk follows, as in Mastra.
func (r *run) suspend() error {
	r.finishReason = model.FinishSuspended
	if err := r.persist(storageSuspended); err != nil {
		return err
	}
	if err := r.rememberSuspended(); err != nil {
		return err
	}
	if fn := r.opts.onFinish; fn != nil {
		out := r.output()
		safeCallback(r.agent.cfg.Logger, "onFinish", func() { fn(r.ctx, out) })
	}
	return nil
}

// waitingChunk is the chunk that reports a waiting call.
func (r *run) waitingChunk(c pendingCall) stream.Chunk {
	if c.Status == callApproval {
		return stream.Chunk{Type: stream.TypeToolCallApproval, RunID: r.opts.runID, From: stream.FromAgent, Payload: stream.ToolCallApprovalPayload{
			ToolCallID: c.ID, ToolName: c.Name, Args: argsOrEmpty(c.Args), ResumeSchema: stream.ApprovalResumeSchema,
		}}
	}
	var payload any
	if len(c.SuspendPayload) > 0 {
		payload = c.SuspendPayload
	}
	return stream.Chunk{Type: stream.TypeToolCallSuspended, RunID: r.opts.runID, From: stream.FromAgent, Payload: stream.ToolCallSuspendedPayload{
		ToolCallID: c.ID, ToolName: c.Name, SuspendPayload: payload, Args: argsOrEmpty(c.Args), ResumeSchema: c.ResumeSchema,
	}}
}

// serialisable keeps the request-context entries that survive JSON (a
// snapshot cannot hold functions or channels), as Mastra's toJSON does.
func serialisable(entries map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range entries {
		if _, err := json.Marshal(v); err == nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// suspendedAt is when a stored run was last saved.
func suspendedAt(r storage.Run) time.Time { return r.UpdatedAt }
