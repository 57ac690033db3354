package agent

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// WithAutoResumeSuspendedTools lets the model resume the thread's suspended
// tool calls from the conversation (Mastra's autoResumeSuspendedTools):
// before each model call the suspended calls of the run's thread
// (WithMemory) are described to the model, which may call the tool again
// with resumeData and suspendedToolCallId; that call then resumes the
// suspended one, exactly once. Approvals are never resumed this way: only a
// person, through the approval API, approves or declines.
func WithAutoResumeSuspendedTools() Option { return func(o *runOptions) { o.autoResume = true } }

// Keys the model adds to a tool call that resumes a suspended one.
const (
	keySuspendedToolCallID = "suspendedToolCallId"
	keySuspendedToolRunID  = "suspendedToolRunId"
	keyResumeData          = "resumeData"
)

// withResumableKeys is a tool's model-facing schema with the optional
// resume keys added (the tool's own schema is not changed).
func withResumableKeys(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil || s.Properties == nil && s.Type != "object" {
		return s
	}
	out := *s
	out.Properties = maps.Clone(s.Properties)
	if out.Properties == nil {
		out.Properties = map[string]*jsonschema.Schema{}
	}
	out.Properties[keySuspendedToolCallID] = &jsonschema.Schema{Types: []string{"string", "null"}, Description: "The toolCallId of the suspended tool to resume"}
	out.Properties[keySuspendedToolRunID] = &jsonschema.Schema{Types: []string{"string", "null"}, Description: "The runId of the suspended tool"}
	out.Properties[keyResumeData] = &jsonschema.Schema{Description: "The resumeData object created from the resumeSchema of suspended tool"}
	if len(s.PropertyOrder) > 0 {
		out.PropertyOrder = append(append([]string(nil), s.PropertyOrder...), keySuspendedToolCallID, keySuspendedToolRunID, keyResumeData)
	}
	return &out
}

// threadSuspensions are the suspended (not approval) calls of the run's
// thread in other runs, as the model is told about them.
func (r *run) threadSuspensions() []waitingEntry {
	if !r.opts.autoResume || r.opts.threadID == "" {
		return nil
	}
	runs, _, err := r.agent.ListSuspendedRuns(r.ctx, SuspendedRunsFilter{ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID})
	if err != nil {
		r.agent.cfg.Logger.Warn(storage.ErrorDetail(err), "agent", r.agent.cfg.ID)
		return nil
	}
	var out []waitingEntry
	for _, run := range runs {
		if run.RunID == r.opts.runID {
			continue
		}
		for _, c := range run.ToolCalls {
			if c.RequiresApproval {
				continue
			}
			e := waitingEntry{ToolCallID: c.ToolCallID, ToolName: c.ToolName, Args: decodedArgs(c.Args), Type: "suspension", RunID: run.RunID}
			if len(c.SuspendPayload) > 0 {
				e.SuspendPayload = c.SuspendPayload
			}
			out = append(out, e)
		}
	}
	return out
}

// autoResumeDirective tells the model about the thread's suspended calls
// (Mastra's text, without its advice to approve when unsure: approvals
// are not listed at all).
func autoResumeDirective(entries []waitingEntry) string {
	list, _ := json.Marshal(entries)
	return "\n\nAnalyse the suspended tools: " + string(list) + `, using the messages available to you and the resumeSchema of each suspended tool, find the tool whose resumeData you can construct properly.
resumeData can not be an empty object nor null/undefined.
When you find that and call that tool, add the resumeData to the tool call arguments/input.
Also, add the toolCallId of the suspended tool as suspendedToolCallId to the tool call arguments/input. This identifies the exact framework-persisted suspension to resume.
You may also add the runId as suspendedToolRunId for compatibility, but it does not select the suspension and must match the runId associated with suspendedToolCallId.

IMPORTANT: If you're able to construct resumeData and get suspendedToolCallId, get the previous arguments/input of the tool call from args in the suspended tool, and spread it in the new arguments/input created, do not add duplicate data.
`
}

// withAutoResume appends the directive to a step's system message.
func (r *run) withAutoResume(messages []model.Message) []model.Message {
	entries := r.threadSuspensions()
	if len(entries) == 0 {
		return messages
	}
	directive := autoResumeDirective(entries)
	out := append([]model.Message(nil), messages...)
	if len(out) > 0 && out[0].Role == model.RoleSystem {
		out[0] = model.System(out[0].TextContent() + directive)
		return out
	}
	return append([]model.Message{model.System(directive[2:])}, out...)
}

// autoResumeTarget is a suspended call of another run that a tool call's
// arguments ask to resume.
type autoResumeTarget struct {
	stored *storage.Run
	state  *runState
	call   callState
	data   json.RawMessage
}

// withoutResumeKeys strips the resume keys from a call's arguments (in a
// run that auto-resumes) and returns the id of the suspended call they
// name ("" for an ordinary call) and the resume data they carry.
func (r *run) withoutResumeKeys(c callState) (callState, string, json.RawMessage) {
	if !r.opts.autoResume || c.Args == nil {
		return c, "", nil
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(c.Args, &args) != nil {
		return c, "", nil
	}
	idRaw, hasID := args[keySuspendedToolCallID]
	data, hasData := args[keyResumeData]
	_, hasRun := args[keySuspendedToolRunID]
	if !hasID && !hasData && !hasRun {
		return c, "", nil
	}
	delete(args, keySuspendedToolCallID)
	delete(args, keyResumeData)
	delete(args, keySuspendedToolRunID)
	clean, _ := json.Marshal(args)
	c.Args = clean
	var id string
	_ = json.Unmarshal(idRaw, &id)
	return c, id, data
}

// takeResumeKeys strips the resume keys from a call's arguments and, when
// they name a suspended call, finds and claims it. It returns the call
// with clean arguments, the target (nil for an ordinary call), or an
// error to report to the model.
func (r *run) takeResumeKeys(c callState) (callState, *autoResumeTarget, error) {
	c, id, data := r.withoutResumeKeys(c)
	if id == "" {
		return c, nil, nil
	}
	t, err := r.findSuspended(id, c.Name)
	if err != nil {
		return c, nil, err
	}
	t.data = data
	if err := r.agent.claim(r.ctx, r.agent.runStore(), t.stored, "autoResumeSuspendedTools"); err != nil {
		return c, nil, err
	}
	return c, t, nil
}

// findSuspended finds the thread's suspended call id of tool name.
func (r *run) findSuspended(id, name string) (*autoResumeTarget, error) {
	runs, _, err := r.agent.runStore().ListRuns(r.ctx, storage.RunFilter{Kind: storage.KindAgent, Name: r.agent.cfg.ID, Status: storage.RunSuspended, ThreadID: r.opts.threadID})
	if err != nil {
		return nil, err
	}
	for i := range runs {
		st, err := decodeState(runs[i].Snapshot, runs[i].Deltas)
		if err != nil || st.Pending == nil {
			continue
		}
		for _, pc := range st.Pending.Calls {
			if pc.ID != id || !pc.waiting() {
				continue
			}
			if pc.Status == callApproval {
				return nil, fmt.Errorf("tool call %q waits for a person's approval; only they can approve or decline it", id)
			}
			if pc.Name != name {
				return nil, fmt.Errorf("tool call %q is a suspended call of %q, not of %q", id, pc.Name, name)
			}
			return &autoResumeTarget{stored: &runs[i], state: st, call: pc}, nil
		}
	}
	return nil, fmt.Errorf("no suspended tool call %q on this thread to resume", id)
}

// settleAutoResumed records that the suspended call was resumed by this
// run: the old run no longer waits for it (and is removed when nothing
// else waits there).
func (r *run) settleAutoResumed(t *autoResumeTarget) {
	ctx := r.storageCtx()
	j := continueJournal(r.agent.runStore(), t.stored, true)
	var err error
	if i, waiting := t.settle(r.opts.runID); waiting {
		err = j.record(ctx, storage.RunSuspended, t.state, &stateChange{Call: &callChange{Index: i, Call: t.state.Pending.Calls[i]}})
	} else {
		err = j.remove(ctx)
	}
	if err != nil {
		r.agent.cfg.Logger.Warn("agent: settling an auto-resumed call: "+storage.ErrorDetail(err), "agent", r.agent.cfg.ID, "runId", t.stored.RunID)
	}
}

// settle marks the target call done, resumed in run runID, and returns
// its index and whether other calls of its run still wait.
func (t *autoResumeTarget) settle(runID string) (index int, waiting bool) {
	for i := range t.state.Pending.Calls {
		c := &t.state.Pending.Calls[i]
		if c.ID == t.call.ID {
			index = i
			c.Status = callDone
			c.Result = &model.ToolResultPart{ToolCallID: c.ID, ToolName: c.Name, Output: model.TextOutput("Resumed in run " + runID), Input: argsOrEmpty(c.Args)}
		} else if c.waiting() {
			waiting = true
		}
	}
	return index, waiting
}

// resumedInvocation fills a tool invocation for an auto-resumed call.
func (t *autoResumeTarget) resumedInvocation(inv *tools.Invocation) {
	inv.ResumeData = t.data
	if len(inv.ResumeData) == 0 {
		inv.ResumeData = json.RawMessage("null")
	}
	inv.SuspendPayload = t.call.SuspendPayload
	inv.Agent.SuspendedToolRunID = t.call.SuspendedRunID
}
