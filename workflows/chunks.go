package workflows

import (
	"encoding/json"

	"github.com/gomastra/mastra/stream"
)

// stepPayload is the payload of workflow-step-start, -result and
// -suspended chunks, in Mastra's key order.
type stepPayload struct {
	StepName       string          `json:"stepName"`
	ID             string          `json:"id"`
	StepCallID     string          `json:"stepCallId,omitempty"`
	Payload        json.RawMessage `json:"payload,omitempty"`
	StartedAt      int64           `json:"startedAt,omitempty"`
	Status         string          `json:"status"`
	ResumePayload  json.RawMessage `json:"resumePayload,omitempty"`
	ResumedAt      int64           `json:"resumedAt,omitempty"`
	Output         json.RawMessage `json:"output,omitempty"`
	Error          *ErrorInfo      `json:"error,omitempty"`
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	SuspendedAt    int64           `json:"suspendedAt,omitempty"`
	EndedAt        int64           `json:"endedAt,omitempty"`
}

// progressPayload is the payload of workflow-step-progress (one foreach
// iteration ended).
type progressPayload struct {
	StepName        string          `json:"stepName"`
	ID              string          `json:"id"`
	CompletedCount  int             `json:"completedCount"`
	TotalCount      int             `json:"totalCount"`
	CurrentIndex    int             `json:"currentIndex"`
	IterationStatus string          `json:"iterationStatus"`
	IterationOutput json.RawMessage `json:"iterationOutput,omitempty"`
}

// finishPayload is the payload of workflow-finish.
type finishPayload struct {
	WorkflowStatus      string          `json:"workflowStatus"`
	Metadata            map[string]any  `json:"metadata"`
	Output              finishOutput    `json:"output"`
	FinalWorkflowResult json.RawMessage `json:"finalWorkflowResult,omitempty"`
}

type finishOutput struct {
	Usage usage `json:"usage"`
}

// usage is the token usage of the run's agent steps (Mastra's shape).
type usage struct {
	InputTokens              int `json:"inputTokens"`
	OutputTokens             int `json:"outputTokens"`
	TotalTokens              int `json:"totalTokens"`
	CachedInputTokens        int `json:"cachedInputTokens"`
	CacheCreationInputTokens int `json:"cacheCreationInputTokens"`
	ReasoningTokens          int `json:"reasoningTokens"`
}

// outputPayload is the payload of workflow-step-output (a step's writer).
type outputPayload struct {
	StepName string `json:"stepName"`
	Output   any    `json:"output"`
	RunID    string `json:"runId"`
}

// ErrorInfo is an error as Mastra reports it in results and chunks.
type ErrorInfo struct {
	Message string `json:"message"`
	Name    string `json:"name"`
}

func errorInfo(err error) *ErrorInfo {
	if err == nil {
		return nil
	}
	return &ErrorInfo{Message: err.Error(), Name: "Error"}
}

// stepChunk reports a step record as a chunk of type typ.
func (r *Run) stepChunk(typ, key, callID string, rec *StepResult) {
	p := stepPayload{
		StepName: key, ID: key, StepCallID: callID, Payload: rec.Payload, StartedAt: rec.StartedAt, Status: rec.Status,
		ResumePayload: rec.ResumePayload, ResumedAt: rec.ResumedAt,
	}
	switch rec.Status {
	case StatusSuccess:
		p.Output, p.EndedAt = rec.Output, rec.EndedAt
	case StatusFailed:
		p.Error, p.EndedAt = rec.Error, rec.EndedAt
	case StatusSuspended:
		p.SuspendPayload, p.SuspendedAt = rec.SuspendPayload, rec.SuspendedAt
	}
	r.send(typ, stream.FromWorkflow, p)
}
