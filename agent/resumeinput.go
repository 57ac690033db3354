package agent

import (
	"encoding/json"
	"time"

	"github.com/gomastra/mastra/storage"
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

// runStore is where the agent keeps resumable runs: Config.Storage, or an
// in-process table when none is configured (runs then resume only in this
// process).
func (a *Agent) runStore() storage.Runs {
	if a.cfg.Storage != nil {
		return a.cfg.Storage
	}
	return a.local
}

// suspendedAt is when a stored run was last saved.
func suspendedAt(r storage.Run) time.Time { return r.UpdatedAt }
