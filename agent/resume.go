package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// WithToolCallID names the waiting call a resume is for (without it, the
// run's first waiting call).
func WithToolCallID(id string) Option { return func(o *runOptions) { o.toolCallID = id } }

// ResumeStream resumes the suspended run runID (Mastra's resumeStream):
// the waiting call runs again from the top with resumeData (validated
// against its resume schema), the step ends once none of its calls waits,
// and the loop goes on, streaming from a fresh assistant message. A run
// left "running" by a process that died is recovered by a resume with
// nil resumeData: calls that had ended are not run again, and a call cut
// short during its own resume runs again with the data it was resumed
// with. A resume with data of a run stored as running is a conflict (the
// run is being resumed, perhaps by a live process).
//
// Resumes of one run are serialised: a resume claims the run's current
// snapshot, so of two concurrent resumes (in this process or another
// sharing the storage) exactly one goes through; the other fails with a
// *RunError that wraps storage.ErrConflict. Other failures: no such run
// (AGENT_RESUME_NO_SNAPSHOT_FOUND) and a call that does not wait
// (AGENT_RESUME_TOOL_CALL_NOT_SUSPENDED), with Mastra's texts.
//
// Options are those of Stream; the thread, resource, request context and
// maxSteps default to the suspended run's.
func (a *Agent) ResumeStream(ctx context.Context, runID string, resumeData any, opts ...Option) iter.Seq2[stream.Chunk, error] {
	return a.resumeStream(ctx, runID, resumeRequest{data: resumeData, method: "resumeStream"}, opts)
}

// ResumeGenerate is ResumeStream drained into an Output (Mastra's
// resumeGenerate).
func (a *Agent) ResumeGenerate(ctx context.Context, runID string, resumeData any, opts ...Option) (*Output, error) {
	return a.resumeGenerate(ctx, runID, resumeRequest{data: resumeData, method: "resumeGenerate"}, opts)
}

// ApproveToolCall approves the call toolCallID of run runID, which then
// runs, and the run goes on (Mastra's approveToolCall, bound to the exact
// call: a stale or mismatched id fails).
func (a *Agent) ApproveToolCall(ctx context.Context, runID, toolCallID string, opts ...Option) iter.Seq2[stream.Chunk, error] {
	return a.resumeStream(ctx, runID, resumeRequest{approval: &approvalDecision{Approved: true}, method: "approveToolCall"}, withCall(opts, toolCallID))
}

// DeclineToolCall declines the call: it does not run, a
// tool-output-denied chunk reports it, and the model is told (reason, or
// DefaultDeclineReason).
func (a *Agent) DeclineToolCall(ctx context.Context, runID, toolCallID, reason string, opts ...Option) iter.Seq2[stream.Chunk, error] {
	return a.resumeStream(ctx, runID, resumeRequest{approval: &approvalDecision{Reason: reason}, method: "declineToolCall"}, withCall(opts, toolCallID))
}

// ApproveToolCallGenerate is ApproveToolCall drained into an Output.
func (a *Agent) ApproveToolCallGenerate(ctx context.Context, runID, toolCallID string, opts ...Option) (*Output, error) {
	return a.resumeGenerate(ctx, runID, resumeRequest{approval: &approvalDecision{Approved: true}, method: "approveToolCallGenerate"}, withCall(opts, toolCallID))
}

// DeclineToolCallGenerate is DeclineToolCall drained into an Output.
func (a *Agent) DeclineToolCallGenerate(ctx context.Context, runID, toolCallID, reason string, opts ...Option) (*Output, error) {
	return a.resumeGenerate(ctx, runID, resumeRequest{approval: &approvalDecision{Reason: reason}, method: "declineToolCallGenerate"}, withCall(opts, toolCallID))
}

func withCall(opts []Option, toolCallID string) []Option {
	return append(append([]Option(nil), opts...), WithToolCallID(toolCallID))
}

// resumeRequest is what a resume API was given.
type resumeRequest struct {
	data     any
	approval *approvalDecision
	method   string
}

// answer is the request as an Answer to the call toolCallID (for a
// Launcher): resume data as JSON, or a decision.
func (req resumeRequest) answer(toolCallID string) Answer {
	ans := Answer{ToolCallID: toolCallID}
	if d := req.approval; d != nil {
		ans.Approved, ans.Reason = &d.Approved, d.Reason
		return ans
	}
	if req.data != nil {
		ans.Data, _ = json.Marshal(req.data)
	}
	return ans
}

func (a *Agent) resumeStream(ctx context.Context, runID string, req resumeRequest, opts []Option) iter.Seq2[stream.Chunk, error] {
	if l := a.launcherFor(opts); l != nil {
		return a.answerLaunched(ctx, l, runID, req.answer(a.options(opts).toolCallID))
	}
	return func(yield func(stream.Chunk, error) bool) {
		r, in, err := a.resumeRun(ctx, runID, req, opts)
		if err != nil {
			yield(stream.Chunk{}, err)
			return
		}
		defer r.cancel(nil)
		out, end := r.live(r.sinkOf(yield))
		defer end()
		r.resume(out, in)
	}
}

func (a *Agent) resumeGenerate(ctx context.Context, runID string, req resumeRequest, opts []Option) (*Output, error) {
	if l := a.launcherFor(opts); l != nil {
		return a.generateLaunched(ctx, a.answerLaunched(ctx, l, runID, req.answer(a.options(opts).toolCallID)))
	}
	r, in, err := a.resumeRun(ctx, runID, req, opts)
	if err != nil {
		return nil, err
	}
	return r.drain(ctx, func(out sink) { r.resume(out, in) })
}

// resume streams a resumed run. Unlike a fresh run's, its stream has no
// start chunk: as Mastra's, it begins with what the waiting call produced
// (tool-result, tool-output-denied, ...).
func (r *run) resume(out sink, in *resumeInput) {
	span := r.startRunSpan()
	defer span.End()
	r.steps(out, in)
}

// resumeRun loads run runID, checks and claims the resume, and makes the
// run of its state.
func (a *Agent) resumeRun(ctx context.Context, runID string, req resumeRequest, opts []Option) (*run, *resumeInput, error) {
	store := a.runStore()
	stored, state, err := a.loadRun(ctx, store, runID, req.method)
	if err != nil {
		return nil, nil, err
	}
	// A run stored as running is being resumed (or was, by a process
	// that died): only a recovery (no resume data of its own) may take it
	// up. A person's resume of it lost the race to the resume under way,
	// which may still be alive — taking the run over would run its call
	// twice.
	if stored.Status == storage.RunRunning && (req.data != nil || req.approval != nil) {
		return nil, nil, a.resumeConflict(req.method, runID, fmt.Errorf("run %s is running", runID))
	}
	o := a.options(append([]Option{WithRunID(runID)}, opts...))
	target, err := a.resumeTarget(req.method, runID, o.toolCallID, stored, state)
	if err != nil {
		return nil, nil, err
	}
	in, err := resumeFor(target, req)
	if err != nil {
		return nil, nil, err
	}
	if err := a.claim(ctx, store, stored, req.method); err != nil {
		return nil, nil, err
	}
	a.restoreOptions(&o, opts, state)
	r, err := a.newRun(ctx, o, state)
	if err != nil {
		return nil, nil, err
	}
	r.journal = continueJournal(store, stored, a.cfg.Storage != nil)
	if err := r.takeUp(in, stored.Status == storage.RunRunning); err != nil {
		r.cancel(nil)
		return nil, nil, err
	}
	return r, in, nil
}

// loadRun loads run runID of this agent and its state.
func (a *Agent) loadRun(ctx context.Context, store storage.Runs, runID, method string) (*storage.Run, *runState, error) {
	stored, err := store.GetRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (stored.Kind != storage.KindAgent || stored.Name != a.cfg.ID)) {
		return nil, nil, a.noSnapshotError(method, runID)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("agent %s: %s: %w", a.cfg.ID, method, err)
	}
	state, err := decodeState(stored.Snapshot, stored.Deltas)
	if err == nil {
		err = a.loadHistory(ctx, state)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("agent %s: run %s: reading its state: %w", a.cfg.ID, runID, err)
	}
	return stored, state, nil
}

// takeUp makes the claimed run a resumed one and saves it whole, before
// anything runs: the waiting call in gets what the resume brought (so
// that if this process dies during the call, the run is found running
// and resumed again with the same data, under a claim of its own). A
// recovery (recovering) saves the run's input to memory again: the
// process that died may have saved the run but not yet its input.
func (r *run) takeUp(in *resumeInput, recovering bool) error {
	r.report.resumedStep = r.state.Pending != nil
	if err := r.resolveTools(); err != nil {
		return err
	}
	r.restoreSteps()
	r.state.apply(stateChange{Resumed: true})
	if in != nil {
		for i := range r.state.Pending.Calls {
			if c := &r.state.Pending.Calls[i]; c.ID == in.toolCallID {
				c.Status, c.Resume = callRunning, &storedResume{Data: in.data, Approval: in.approval}
			}
		}
	}
	if err := r.save(storage.RunRunning, nil); err != nil {
		return err
	}
	if !recovering {
		return nil
	}
	s := r.state
	return r.rememberInput(s.Response[:min(s.Carried, len(s.Response))])
}

// claim takes the one right to resume the run as it was loaded (its
// version): of concurrent resumes, in any process, exactly one goes
// through; the others get the resume-conflict error.
func (a *Agent) claim(ctx context.Context, store storage.Runs, stored *storage.Run, method string) error {
	err := storage.ClaimRun(ctx, store, stored, a.cfg.ID)
	if errors.Is(err, storage.ErrConflict) {
		return a.resumeConflict(method, stored.RunID, err)
	}
	if err != nil {
		return fmt.Errorf("agent %s: %s: %w", a.cfg.ID, method, err)
	}
	return nil
}

// resumeConflict is the error of a resume another resume got ahead of;
// it wraps storage.ErrConflict.
func (a *Agent) resumeConflict(method, runID string, cause error) error {
	if !errors.Is(cause, storage.ErrConflict) {
		cause = fmt.Errorf("%w: %w", storage.ErrConflict, cause)
	}
	return &RunError{
		Message: fmt.Sprintf("Agent %q %s() cannot resume run %q: another resume of it is under way or has finished.", a.cfg.Name, method, runID),
		Domain:  mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: mastraerror.IDAgentResumeConflict, Details: map[string]any{"runId": runID}, Cause: cause,
	}
}

// resumeTarget is the waiting call a resume is for: the one named, else
// the first; nil when the run was left running by a process that died.
func (a *Agent) resumeTarget(method, runID, toolCallID string, stored *storage.Run, state *runState) (*callState, error) {
	if state.Pending != nil {
		for i, c := range state.Pending.Calls {
			if c.waiting() && (toolCallID == "" || c.ID == toolCallID) {
				return &state.Pending.Calls[i], nil
			}
		}
	}
	if toolCallID != "" || stored.Status == storage.RunSuspended {
		return nil, &RunError{
			Message: fmt.Sprintf("Agent %q %s() cannot resume tool call %q because it is not suspended.", a.cfg.Name, method, toolCallID),
			Domain:  mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: mastraerror.IDAgentResumeToolCallNotSuspended,
			Details: map[string]any{"agentName": a.cfg.Name, "method": method, "runId": runID, "toolCallId": toolCallID},
		}
	}
	return nil, nil
}

// resumeFor turns a resume request into the input of its waiting call:
// an approval decision for a call waiting for approval (from the
// Approve/Decline APIs, or resume data {approved, reason?}), resume data
// for a suspended one.
func resumeFor(target *callState, req resumeRequest) (*resumeInput, error) {
	if target == nil {
		return nil, nil
	}
	in := &resumeInput{toolCallID: target.ID}
	if target.Status == callApproval {
		in.approval = req.approval
		if in.approval == nil {
			var d struct {
				Approved *bool  `json:"approved"`
				Reason   string `json:"reason"`
			}
			raw, err := json.Marshal(req.data)
			if err == nil {
				err = json.Unmarshal(raw, &d)
			}
			if err != nil || d.Approved == nil {
				return nil, fmt.Errorf("agent: tool call %s waits for an approval: resume it with {\"approved\": true|false, \"reason\"?: string} (or ApproveToolCall/DeclineToolCall)", target.ID)
			}
			in.approval = &approvalDecision{Approved: *d.Approved, Reason: d.Reason}
		}
		return in, nil
	}
	data := req.data
	if req.approval != nil && data == nil {
		data = req.approval
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("agent: encoding resume data: %w", err)
	}
	in.data = raw
	return in, nil
}

// restoreOptions gives a resumed run the suspended run's memory, request
// context, context messages and step limit where the caller gave none.
func (a *Agent) restoreOptions(o *runOptions, given []Option, snap *runState) {
	var explicit runOptions
	for _, opt := range given {
		opt(&explicit)
	}
	if explicit.threadID == "" {
		o.threadID = snap.ThreadID
	}
	if explicit.resourceID == "" {
		o.resourceID = snap.ResourceID
	}
	if explicit.maxSteps == 0 && snap.MaxSteps > 0 {
		o.maxSteps = snap.MaxSteps
	}
	if explicit.context == nil {
		o.context = snap.Context
	}
	merged := tools.NewRequestContext(snap.RequestContext)
	for k, v := range o.requestContext.All() {
		_ = merged.Set(k, v)
	}
	if explicit.requestContext != nil {
		// Keep the caller's context object (tools may write to it).
		for k, v := range snap.RequestContext {
			if !explicit.requestContext.Has(k) {
				_ = explicit.requestContext.Set(k, v)
			}
		}
		merged = explicit.requestContext
	}
	o.requestContext = merged
	if o.threadID != "" {
		_ = o.requestContext.Set(tools.ThreadIDKey, o.threadID)
	}
	if o.resourceID != "" {
		_ = o.requestContext.Set(tools.ResourceIDKey, o.resourceID)
	}
}

func (a *Agent) noSnapshotError(method, runID string) error {
	storageNote := "The run may have already completed, never suspended, or the runId is invalid. "
	if a.cfg.Storage == nil {
		storageNote = "No storage is configured on this agent, so run snapshots live only in this process. Configure Config.Storage (SQLite or PostgreSQL) to resume runs in another process or after a restart. "
	}
	return &RunError{
		Message: fmt.Sprintf("Agent %q %s() could not find a suspended run for runId %q. ", a.cfg.Name, method, runID) + storageNote +
			fmt.Sprintf("Ensure you are calling %s() only with a runId from a currently-suspended run.", method),
		Domain: mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: mastraerror.IDAgentResumeNoSnapshotFound,
		Details: map[string]any{"runId": runID, "agentName": a.cfg.Name, "hasStorage": a.cfg.Storage != nil},
	}
}
