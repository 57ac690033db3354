package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
)

// SuspendedRunsFilter selects suspended runs (Mastra's listSuspendedRuns
// options). Page counts from 0; PerPage <= 0 lists all.
type SuspendedRunsFilter struct {
	ThreadID, ResourceID string
	// From and To bound when the run suspended; zero is unbounded.
	From, To      time.Time
	Page, PerPage int
}

// SuspendedRun is one suspended run and the calls it waits for.
type SuspendedRun struct {
	RunID       string              `json:"runId"`
	Status      string              `json:"status"`
	ThreadID    string              `json:"threadId,omitempty"`
	ResourceID  string              `json:"resourceId,omitempty"`
	SuspendedAt time.Time           `json:"suspendedAt"`
	ToolCalls   []SuspendedToolCall `json:"toolCalls"`
}

// SuspendedToolCall is a waiting call of a suspended run: a call waiting
// for approval has its Args, a suspended one its SuspendPayload (Mastra's
// shapes).
type SuspendedToolCall struct {
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Args             json.RawMessage `json:"args,omitempty"`
	RequiresApproval bool            `json:"requiresApproval"`
	SuspendPayload   json.RawMessage `json:"suspendPayload,omitempty"`
}

// ListSuspendedRuns lists the agent's suspended runs, newest first, and
// how many match in all (Mastra's listSuspendedRuns).
func (a *Agent) ListSuspendedRuns(ctx context.Context, f SuspendedRunsFilter) ([]SuspendedRun, int, error) {
	return a.listRuns(ctx, storage.RunSuspended, f)
}

// ListRunningRuns lists the agent's runs stored as running: runs in
// progress, or left so by a process that died (a crash, a kill -9). A
// process that starts after a crash resumes them with ResumeStream (no
// resume data); calls that had ended are not run again. Resuming a run
// another live process is still running takes it over (that process's
// next save fails), so resume only the runs you know are orphaned — at
// the start of the one process that owns a store, all of them.
// ToolCalls lists the calls of the interrupted step that had not ended.
func (a *Agent) ListRunningRuns(ctx context.Context, f SuspendedRunsFilter) ([]SuspendedRun, int, error) {
	return a.listRuns(ctx, storage.RunRunning, f)
}

func (a *Agent) listRuns(ctx context.Context, status string, f SuspendedRunsFilter) ([]SuspendedRun, int, error) {
	stored, total, err := a.runStore().ListRuns(ctx, storage.RunFilter{
		Kind: storage.KindAgent, Name: a.cfg.ID, Status: status, ThreadID: f.ThreadID, ResourceID: f.ResourceID,
		From: f.From, To: f.To, Page: f.Page, PerPage: f.PerPage,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("agent %s: listing %s runs: %w", a.cfg.ID, status, err)
	}
	runs := make([]SuspendedRun, 0, len(stored))
	for _, r := range stored {
		snap, err := decodeState(r.Snapshot, r.Deltas)
		if err != nil {
			return nil, 0, fmt.Errorf("agent %s: run %s: reading its state: %w", a.cfg.ID, r.RunID, err)
		}
		sr := SuspendedRun{RunID: r.RunID, Status: r.Status, ThreadID: r.ThreadID, ResourceID: r.ResourceID, SuspendedAt: suspendedAt(r), ToolCalls: []SuspendedToolCall{}}
		if snap.Pending != nil {
			for _, c := range snap.Pending.Calls {
				if c.waiting() || (status == storage.RunRunning && c.Status == callRunning) {
					tc := SuspendedToolCall{ToolCallID: c.ID, ToolName: c.Name, RequiresApproval: c.Status == callApproval, SuspendPayload: c.SuspendPayload}
					if c.Status != callSuspended {
						tc.Args = argsOrEmpty(c.Args)
					}
					sr.ToolCalls = append(sr.ToolCalls, tc)
				}
			}
		}
		runs = append(runs, sr)
	}
	return runs, total, nil
}

// ToolApproval is a person's answer for a thread's waiting call (Mastra's
// sendToolApproval): the run is found by thread, and by ToolCallID when
// several wait.
type ToolApproval struct {
	ThreadID, ResourceID string
	ToolCallID           string
	Approved             bool
	// Reason is told to the model when the call is declined.
	Reason string
	// ResumeData, when set and the call is a suspended tool rather than
	// one waiting for approval (say, ask_user), is the data the tool is
	// resumed with (Mastra's sendToolApproval resumeData); Approved and
	// Reason are then not used. A call waiting for approval is always
	// decided by Approved.
	ResumeData any
}

// SendToolApproval finds the thread's suspended run and resumes it with
// the decision, returning the run's id and its resumed stream. No
// suspended run is AGENT_SEND_TOOL_APPROVAL_NO_ACTIVE_THREAD_RUN; several,
// without a ToolCallID telling them apart,
// AGENT_SEND_TOOL_APPROVAL_AMBIGUOUS_SUSPENDED_RUNS (Mastra's texts).
func (a *Agent) SendToolApproval(ctx context.Context, ap ToolApproval, opts ...Option) (string, iter.Seq2[stream.Chunk, error], error) {
	runs, _, err := a.ListSuspendedRuns(ctx, SuspendedRunsFilter{ThreadID: ap.ThreadID, ResourceID: ap.ResourceID})
	if err != nil {
		return "", nil, err
	}
	var matching []SuspendedRun
	for _, r := range runs {
		if ap.ToolCallID == "" {
			matching = append(matching, r)
			continue
		}
		for _, c := range r.ToolCalls {
			if c.ToolCallID == ap.ToolCallID {
				matching = append(matching, r)
				break
			}
		}
	}
	details := map[string]any{"threadId": ap.ThreadID, "resourceId": ap.ResourceID, "agentName": a.cfg.Name}
	switch {
	case len(matching) == 0:
		return "", nil, &RunError{
			Message: fmt.Sprintf("Agent %q sendToolApproval() could not find an active or suspended run for thread %q. The run may have already completed or been resumed.", a.cfg.Name, ap.ThreadID),
			Domain:  mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: mastraerror.IDAgentSendToolApprovalNoActiveThreadRun, Details: details,
		}
	case len(matching) > 1:
		ids := ""
		for i, r := range matching {
			if i > 0 {
				ids += ", "
			}
			ids += r.RunID
		}
		details["runIds"] = ids
		return "", nil, &RunError{
			Message: fmt.Sprintf("Agent %q sendToolApproval() found %d suspended runs for thread %q. Pass a toolCallId to disambiguate, or resume a specific run with approveToolCall()/declineToolCall() and an explicit runId.", a.cfg.Name, len(matching), ap.ThreadID),
			Domain:  mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: mastraerror.IDAgentSendToolApprovalAmbiguousSuspendedRuns, Details: details,
		}
	}
	runID := matching[0].RunID
	toolCallID := ap.ToolCallID
	if toolCallID == "" && len(matching[0].ToolCalls) > 0 {
		toolCallID = matching[0].ToolCalls[0].ToolCallID
	}
	req := resumeRequest{approval: &approvalDecision{Approved: ap.Approved, Reason: ap.Reason}, method: "sendToolApproval"}
	for _, c := range matching[0].ToolCalls {
		if c.ToolCallID == toolCallID && !c.RequiresApproval && ap.ResumeData != nil {
			req = resumeRequest{data: ap.ResumeData, method: "sendToolApproval"}
		}
	}
	return runID, a.resumeStream(ctx, runID, req, withCall(opts, toolCallID)), nil
}

// FindRun looks one of the agent's runs up by id: nil when the agent has
// no such run (or it has ended); otherwise its status (storage's
// "suspended" or "running") and, for a suspended run, its thread,
// resource and waiting calls. With storage the run is read by id;
// without, the agent's runs in this process are scanned.
func (a *Agent) FindRun(ctx context.Context, runID string) (*SuspendedRun, error) {
	var f SuspendedRunsFilter
	if st := a.cfg.Storage; st != nil {
		stored, err := st.GetRun(ctx, runID)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if stored.Kind != storage.KindAgent || stored.Name != a.ID() {
			return nil, nil
		}
		if stored.Status != storage.RunSuspended {
			return &SuspendedRun{RunID: runID, Status: stored.Status, ThreadID: stored.ThreadID, ResourceID: stored.ResourceID}, nil
		}
		f = SuspendedRunsFilter{ThreadID: stored.ThreadID, ResourceID: stored.ResourceID}
	}
	for _, list := range []func(context.Context, SuspendedRunsFilter) ([]SuspendedRun, int, error){a.ListSuspendedRuns, a.ListRunningRuns} {
		runs, _, err := list(ctx, f)
		if err != nil {
			return nil, err
		}
		for i := range runs {
			if runs[i].RunID == runID {
				return &runs[i], nil
			}
		}
	}
	return nil, nil
}
