package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema/compat"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// execute runs call i of the pending step (rs: what a resume brought it,
// or nil; gated: it waits for approval, as approvals decided) and returns
// its outcome, in the order Mastra decides it: an
// unknown tool and a client tool end first; then unparseable arguments;
// then the approval gate (a person decides through the resume API only:
// a call waiting for approval runs on an approval, a decline ends it, and
// a fresh call that needs approval waits for one); then the hooks, the
// tool, its suspension, its model output.
func (r *run) execute(i int, c callState, rs *resumeInput, gated bool, w chanWriter) callOutcome {
	t := r.kit.lookup(c.Name)
	if t == nil {
		return r.errorOutcome(i, c, "ToolNotFoundError", toolNotFoundMessage(c.Name, r.kit.order))
	}
	if c.Args != nil && rs == nil && t.HasInputAvailable() {
		var input any
		_ = json.Unmarshal(c.Args, &input)
		r.once(func() error {
			safeCallback(r.agent.cfg.Logger, "onInputAvailable", func() {
				t.InputAvailable(r.ctx, tools.InputAvailableEvent[any]{Input: input, ToolCallID: c.ID, Messages: r.report.seen})
			})
			return nil
		})
	}
	if t.IsClientTool() {
		c.Status = callClient
		return callOutcome{index: i, call: c}
	}
	if c.Args == nil {
		return r.errorOutcome(i, c, "Error", `Tool "`+c.Name+`" received invalid arguments — the provided JSON could not be parsed. Please provide valid JSON arguments.`)
	}
	orig := c
	c, target, err := r.takeResumeKeys(c)
	if err != nil {
		return r.errorOutcome(i, c, "Error", err.Error())
	}
	if target != nil {
		defer r.settleAutoResumed(target)
	}
	switch {
	case rs != nil && rs.approval != nil:
		if !rs.approval.Approved {
			return r.deniedOutcome(i, c, rs.approval.Reason)
		}
		rs = nil
	case rs == nil && target == nil && gated:
		c.Status, c.Resume = callApproval, nil
		return callOutcome{index: i, call: c, chunk: r.waitingChunk(c)}
	}
	return r.runTool(i, c, orig, t, rs, target, w)
}

// runTool runs the tool of call i between the hooks and reports what it
// returned: a result, an error, or a suspension (of orig, the call as the
// model made it).
func (r *run) runTool(i int, c, orig callState, t *tools.Tool, rs *resumeInput, target *autoResumeTarget, w chanWriter) callOutcome {
	c, o, answered := r.backgroundCall(i, c, t, rs, w)
	if answered {
		return o
	}
	hc := r.hookCall(c)
	if before := r.opts.hooks.BeforeToolCall; before != nil {
		skip, err := recorded(r, r.ctx, func(ctx context.Context) (skip *Skip, err error) {
			err = callHook("beforeToolCall", func() (err error) { skip, err = before(ctx, hc); return err })
			return skip, err
		})
		if err != nil {
			return r.errorOutcome(i, c, "Error", err.Error())
		}
		if skip != nil {
			raw, err := json.Marshal(skip.Output)
			if err != nil {
				return r.errorOutcome(i, c, "Error", err.Error())
			}
			return r.resultOutcome(i, c, raw, t, nil)
		}
	}
	inv := r.invocation(c, rs, target, w)
	res, err := r.engine.CallTool(r.ctx, t, c.Args, inv)
	if err == nil && res != nil && res.Suspended() {
		return r.suspendedOutcome(i, orig, t, res.Suspension)
	}
	var output any
	if res != nil {
		output = res.Output
	}
	if after := r.opts.hooks.AfterToolCall; after != nil {
		herr := r.once(func() error {
			return callHook("afterToolCall", func() error { return after(r.ctx, hc, output, err) })
		})
		if herr != nil && err == nil {
			err = herr
		}
	}
	if err != nil {
		return r.errorOutcome(i, c, "Error", err.Error())
	}
	raw, err := res.JSON()
	if err != nil {
		return r.errorOutcome(i, c, "Error", err.Error())
	}
	var mo *model.ToolResultOutput
	var merr error
	if t.HasToModelOutput() {
		mo, merr = recorded(r, r.ctx, func(ctx context.Context) (*model.ToolResultOutput, error) {
			return t.ModelOutput(ctx, c.Name, res.Output, inv)
		})
	}
	if t.HasOutput() {
		r.once(func() error {
			safeCallback(r.agent.cfg.Logger, "onOutput", func() {
				t.Output(r.ctx, tools.OutputEvent{Output: res.Output, ToolName: c.Name, ToolCallID: c.ID})
			})
			return nil
		})
	}
	if merr != nil {
		mo = nil
	}
	return r.resultOutcome(i, c, raw, t, mo)
}

// invocation is what the tool of call c is run with.
func (r *run) invocation(c callState, rs *resumeInput, target *autoResumeTarget, w chanWriter) *tools.Invocation {
	inv := &tools.Invocation{
		Tracer:     r.agent.cfg.Tracer,
		ToolCallID: c.ID, ToolName: c.Name, RunID: r.opts.runID, Messages: r.report.seen,
		RequestContext: r.opts.requestContext, Logger: r.agent.cfg.Logger, Writer: w,
		Agent: &tools.AgentInfo{AgentID: r.agent.cfg.ID, ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID}, Mastra: r.registry(),
	}
	if rs != nil {
		inv.ResumeData = rs.data
		if inv.ResumeData == nil {
			inv.ResumeData = json.RawMessage("null")
		}
		inv.SuspendPayload = c.SuspendPayload
		inv.Agent.SuspendedToolRunID = c.SuspendedRunID
	}
	if target != nil {
		target.resumedInvocation(inv)
	}
	m := r.models.step
	inv.PrepareInput = r.kit.lookup(c.Name).ModelSchema(compat.Model{Provider: m.Provider(), ModelID: m.ModelID()}).PrepareInput
	return inv
}

// resultOutcome is a call that returned raw: a tool-result chunk, and
// the result the model sees (mo, the tool's toModelOutput, or the JSON as
// the tool wrote it: key order kept, as Mastra's).
func (r *run) resultOutcome(i int, c callState, raw []byte, t *tools.Tool, mo *model.ToolResultOutput) callOutcome {
	var meta map[string]any
	output := model.JSONOutput(json.RawMessage(raw))
	if mo != nil {
		meta = map[string]any{"mastra": map[string]any{"modelOutput": mo}}
		output = *mo
	}
	var tmeta map[string]any
	if r.transforms(t) {
		var result any
		_ = json.Unmarshal(raw, &result)
		tmeta = r.transformMeta(t, transform.Context{Phase: transform.PhaseOutputAvailable, ToolName: c.Name, ToolCallID: c.ID, Input: decodedArgs(c.Args), Output: result})
	}
	c.Status, c.Resume, c.Value = callDone, nil, nil
	c.Result = &model.ToolResultPart{ToolCallID: c.ID, ToolName: c.Name, Output: output, Input: argsOrEmpty(c.Args)}
	if v, ok := output.Value.(json.RawMessage); ok {
		c.Value = v
	}
	return callOutcome{index: i, call: c, chunk: stream.Chunk{Type: stream.TypeToolResult, RunID: r.opts.runID, From: stream.FromAgent, Metadata: tmeta,
		Payload: stream.ToolResultPayload{Args: c.Args, ToolCallID: c.ID, ToolName: c.Name, Result: json.RawMessage(raw), ProviderMetadata: meta}}}
}

// errorOutcome is a call that failed: a tool-error chunk, and the error
// text the model sees.
func (r *run) errorOutcome(i int, c callState, name, message string) callOutcome {
	errValue := map[string]any{"name": name, "message": message}
	var tmeta map[string]any
	if t := r.kit.lookup(c.Name); r.transforms(t) {
		tmeta = r.transformMeta(t, transform.Context{Phase: transform.PhaseError, ToolName: c.Name, ToolCallID: c.ID, Input: decodedArgs(c.Args), Error: errValue})
	}
	c.Status, c.Resume, c.Value = callDone, nil, nil
	c.Result = &model.ToolResultPart{ToolCallID: c.ID, ToolName: c.Name, Output: model.ErrorTextOutput(message), Input: argsOrEmpty(c.Args)}
	return callOutcome{index: i, call: c, chunk: stream.Chunk{Type: stream.TypeToolError, RunID: r.opts.runID, From: stream.FromAgent, Metadata: tmeta,
		Payload: stream.ToolErrorPayload{ToolCallID: c.ID, ToolName: c.Name, Error: errValue, Args: c.Args}}}
}

// deniedOutcome is a declined call: a tool-output-denied chunk, and, as
// in Mastra, the reason (or DefaultDeclineReason) as the call's text
// result for the model.
func (r *run) deniedOutcome(i int, c callState, reason string) callOutcome {
	if reason == "" {
		reason = DefaultDeclineReason
	}
	c.Status, c.Resume, c.Value = callDone, nil, nil
	c.Result = &model.ToolResultPart{ToolCallID: c.ID, ToolName: c.Name, Output: model.TextOutput(reason), Input: argsOrEmpty(c.Args)}
	return callOutcome{index: i, call: c, chunk: stream.Chunk{Type: stream.TypeToolOutputDenied, RunID: r.opts.runID, From: stream.FromAgent,
		Payload: stream.ToolOutputDeniedPayload{ToolCallID: c.ID, ToolName: c.Name, Args: c.Args, Approval: stream.Approval{ID: c.ID, Approved: false, Reason: reason}}}}
}

// suspendedOutcome is a call that suspended: it waits with its payload
// and the schema its resume data must match.
func (r *run) suspendedOutcome(i int, c callState, t *tools.Tool, s *tools.Suspension) callOutcome {
	c.Status, c.Resume, c.SuspendPayload, c.SuspendedRunID = callSuspended, nil, s.Payload, s.Options.RunID
	c.ResumeSchema = s.Options.ResumeSchema
	if c.ResumeSchema == "" {
		c.ResumeSchema = t.ResumeSchemaJSON()
	}
	return callOutcome{index: i, call: c, chunk: r.waitingChunk(c)}
}

// waitingChunk is the chunk that reports a waiting call.
func (r *run) waitingChunk(c callState) stream.Chunk {
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

// toolNotFoundMessage is Mastra's text, literal ".." included when no tool
// is available.
func toolNotFoundMessage(name string, names []string) string {
	available := ""
	if len(names) > 0 {
		available = " Available tools: " + strings.Join(names, ", ")
	}
	return `Tool "` + name + `" not found.` + available + `. Call tools by their exact name only — never add prefixes, namespaces, or colons.`
}
