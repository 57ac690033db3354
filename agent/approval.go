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

// approvals decides, in the model's call order and before any call
// runs, which of the calls todo wait for a person's approval (Mastra's
// verdict, evaluated once per call: approval functions are never called
// concurrently). Only calls that would reach the approval gate are asked
// about: a known, non-client tool with parseable arguments, not resumed
// (resumeOf) and not auto-resuming a suspended call. The other calls run
// side by side whatever tools the agent offers.
func (r *run) approvals(todo []int, calls []callState, resumeOf func(int) *resumeInput) []bool {
	verdicts := make([]bool, len(calls))
	for _, i := range todo {
		c := calls[i]
		t := r.kit.lookup(c.Name)
		if t == nil || t.IsClientTool() || c.Args == nil || resumeOf(i) != nil {
			continue
		}
		c, resumesID, _ := r.withoutResumeKeys(c)
		verdicts[i] = resumesID == "" && r.approvalRequired(t, c)
	}
	return verdicts
}
