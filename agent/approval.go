package agent

import (
	"context"
	"encoding/json"

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
func (r *run) approvalRequired(t *tools.Tool, c callState) bool {
	seed := r.opts.requireApproval
	if fn := r.opts.approvalFunc; fn != nil {
		v, err := fn(r.ctx, ApprovalRequest{ToolName: c.Name, ToolCallID: c.ID, Args: c.Args, RequestContext: r.opts.requestContext})
		seed = seed || err != nil || v
	}
	if t.HasApprovalFunc() {
		var input any
		_ = json.Unmarshal(c.Args, &input)
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
	for _, t := range r.kit.active {
		if t.HasSuspendSchema() || t.RequireApproval() || t.HasApprovalFunc() {
			return true
		}
	}
	return false
}
