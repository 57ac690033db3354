// Package resumegate is the admission check of an agent run's resume over
// HTTP, shared by package server's resume and approval routes and the
// chat route of server/aisdk: who may resume a run, and when a resume
// conflicts with another one.
package resumegate

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/storage"
)

// Refusal is a resume Admit (or Conflict) refuses: the HTTP status and
// message of the answer. Callers turn it into their own error type.
type Refusal struct {
	Status  int
	Message string
}

func (r *Refusal) Error() string { return r.Message }

// Admission is a resume Admit lets through.
type Admission struct {
	// ToolCallID is the call to resume: the one asked for, or, when none
	// was, the first call the run waits on ("" when there is none or the
	// run was not found).
	ToolCallID string
	// Waiting reports whether the run was found waiting on ToolCallID.
	Waiting bool
}

// Admit checks the resume of run runID of a before the agent takes it. A
// run of another resource than resource (when resource is not "") is
// refused with 403; a run that is not suspended (another resume is under
// way, or it has ended) with 409 (see Conflict), never taken over: the
// agent resumes a running run as crash recovery, which over HTTP would
// let a client hijack a live run. Without a toolCallID the first waiting
// call is named, so that a race with another resume ends in a conflict,
// never in a takeover. A run that does not exist is let through, left to
// the agent (its AGENT_RESUME_NO_SNAPSHOT_FOUND). method is the agent
// method named in the conflict's message ("resumeStream", ...). A
// refusal is a *Refusal; other errors are the agent's.
func Admit(ctx context.Context, a *agent.Agent, method, runID, toolCallID, resource string) (Admission, error) {
	run, err := a.FindRun(ctx, runID)
	if err != nil {
		return Admission{}, err
	}
	if run == nil {
		return Admission{ToolCallID: toolCallID}, nil
	}
	if resource != "" && run.ResourceID != resource {
		return Admission{}, &Refusal{Status: http.StatusForbidden, Message: "Access denied: run belongs to a different resource"}
	}
	if run.Status != storage.RunSuspended {
		return Admission{}, Conflict(a, method, runID)
	}
	if toolCallID == "" && len(run.ToolCalls) > 0 {
		toolCallID = run.ToolCalls[0].ToolCallID
	}
	waiting := false
	for _, c := range run.ToolCalls {
		waiting = waiting || c.ToolCallID == toolCallID
	}
	return Admission{ToolCallID: toolCallID, Waiting: waiting}, nil
}

// Conflict is the 409 of a resume of a run that is not waiting: another
// resume of it is under way or has just claimed it.
func Conflict(a *agent.Agent, method, runID string) *Refusal {
	return &Refusal{Status: http.StatusConflict,
		Message: fmt.Sprintf("Agent %q %s() cannot resume run %q: another resume of it is under way or has finished.", a.Name(), method, runID)}
}

// ClaimedMeanwhile reports whether err, the agent's first answer to a
// resume Admit let through, says the call is not suspended although it
// was waiting (adm.Waiting) a moment before: another resume claimed it in
// between, which callers answer with Conflict.
func ClaimedMeanwhile(err error, adm Admission) bool {
	return adm.Waiting && mastraerror.IDOf(err) == mastraerror.IDAgentResumeToolCallNotSuspended
}
