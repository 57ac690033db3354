package agent

import (
	"context"
	"encoding/json"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// DefaultDeclineReason is what the model is told when a person declines a
// tool call without a reason (Mastra's text).
const DefaultDeclineReason = "Tool call was not approved by the user"

// ApprovalRequest is what a run-wide approval function sees.
type ApprovalRequest struct {
	ToolName       string
	ToolCallID     string
	Args           json.RawMessage
	RequestContext *tools.RequestContext
}

// WithRequireToolApproval makes every tool call of the run wait for a
// person's approval (Mastra's requireToolApproval: true), except where a
// tool's own approval function says otherwise: a tool's function is
// authoritative.
func WithRequireToolApproval(required bool) Option {
	return func(o *runOptions) { o.requireApproval = required }
}

// WithToolApprovalFunc decides per call whether it needs approval
// (Mastra's requireToolApproval as a function). An error counts as
// "required". A tool's own approval function still wins.
func WithToolApprovalFunc(fn func(ctx context.Context, req ApprovalRequest) (bool, error)) Option {
	return func(o *runOptions) { o.approvalFunc = fn }
}

// approvalRequired is Mastra's verdict on whether a call waits for a
// person's approval: the run's setting or function seeds it; a tool's
// approval function replaces it; else the tool's static flag adds to it.
// Failures of either function count as "required": consent is never skipped
// by an error.
func (r *run) approvalRequired(t *tools.Tool, c call) bool {
	seed := r.opts.requireApproval
	if fn := r.opts.approvalFunc; fn != nil {
		v, err := fn(r.ctx, ApprovalRequest{ToolName: c.name, ToolCallID: c.id, Args: c.args, RequestContext: r.opts.requestContext})
		seed = seed || err != nil || v
	}
	if t.HasApprovalFunc() {
		var input any
		_ = json.Unmarshal(c.args, &input)
		v, err := t.NeedsApproval(r.ctx, input, r.opts.requestContext)
		return err != nil || v
	}
	return seed || t.RequireApproval()
}

// sequential reports whether the step's calls must run one at a time:
// approvals or suspensions may happen (the run asks for approval, or an
// offered tool can suspend or needs approval).
func (r *run) sequential() bool {
	if r.opts.requireApproval || r.opts.approvalFunc != nil {
		return true
	}
	for _, t := range r.active {
		if t.HasSuspendSchema() || t.RequireApproval() || t.HasApprovalFunc() {
			return true
		}
	}
	return false
}

// deniedResult is a declined call: a tool-output-denied chunk, and the
// decline for the model. As in Mastra, the model is told the reason (or
// DefaultDeclineReason) as the call's text result.
func (r *run) deniedResult(i int, c call, reason string) *callResult {
	if reason == "" {
		reason = DefaultDeclineReason
	}
	return &callResult{
		index: i,
		chunk: stream.Chunk{Type: stream.TypeToolOutputDenied, RunID: r.opts.runID, From: stream.FromAgent, Payload: stream.ToolOutputDeniedPayload{
			ToolCallID: c.id, ToolName: c.name, Args: c.args, Approval: stream.Approval{ID: c.id, Approved: false, Reason: reason},
		}},
		part: &model.ToolResultPart{ToolCallID: c.id, ToolName: c.name, Output: model.TextOutput(reason), Input: argsOrEmpty(c.args)},
	}
}

// suspendedResult is a call that suspended: it waits with its payload and
// the schema its resume data must match.
func (r *run) suspendedResult(i int, pc pendingCall, t *tools.Tool, s *tools.Suspension) *callResult {
	w := pc
	w.Status, w.SuspendPayload, w.SuspendedRunID = callSuspended, s.Payload, s.Options.RunID
	w.ResumeSchema = s.Options.ResumeSchema
	if w.ResumeSchema == "" {
		w.ResumeSchema = t.ResumeSchemaJSON()
	}
	return &callResult{index: i, waiting: &w, chunk: r.waitingChunk(w)}
}
