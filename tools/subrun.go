package tools

import "github.com/gomastra/mastra/internal/uuid"

// SubRunID is the id of the run a call of a tool that runs a whole
// agent or workflow (agent-<key>, workflow-<key>) launches on another
// process: derived from the calling run's id, the tool's name and the
// call's id, so that the call made again (its worker lost) finds the
// same run, and an engine that aborts the calling run can name it.
func SubRunID(runID, toolName, toolCallID string) string {
	return uuid.Derived(runID, toolName, toolCallID)
}
