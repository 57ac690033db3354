package agent

import (
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// The types of a run's events, as Mastra's observe stream names them.
const (
	// RunEventChunk is a chunk of the run's stream (Chunk).
	RunEventChunk = "chunk"
	// RunEventStepStart is a step's step-start chunk (Chunk).
	RunEventStepStart = "step-start"
	// RunEventIterationComplete follows each step's step-finish chunk
	// (Iteration); a stream does not carry it, observers see it.
	RunEventIterationComplete = "iteration-complete"
	// RunEventFinish is the run's finish chunk (Chunk): the run has
	// ended (finished, failed or aborted).
	RunEventFinish = "finish"
	// RunEventError is an error chunk of the run (Chunk).
	RunEventError = "error"
)

// RunEvent is one event of a run's event log, as Observe yields it.
type RunEvent struct {
	// Index is the event's place in the run's log, from 0.
	Index int64
	// Type is one of the RunEvent* constants.
	Type string
	// Chunk is the run's chunk, for every type but
	// RunEventIterationComplete.
	Chunk stream.Chunk
	// Iteration is the step summary of a RunEventIterationComplete.
	Iteration *Iteration
	// CreatedAt is when the event was appended to the log.
	CreatedAt time.Time
	// Live is true for an event Observe waited for (appended after the
	// reader had read the log's history), false for one of the history.
	Live bool
}

// Iteration summarises a run's step when it ends: its number (from 1)
// of at most MaxIterations, its text, calls and results, whether it was
// the run's last step (IsFinal) and its finish reason. Its JSON is
// Mastra's iteration-complete event data.
type Iteration struct {
	Iteration     int                        `json:"iteration"`
	MaxIterations int                        `json:"maxIterations"`
	Text          string                     `json:"text"`
	ToolCalls     []stream.ToolCallPayload   `json:"toolCalls"`
	ToolResults   []stream.ToolResultPayload `json:"toolResults"`
	IsFinal       bool                       `json:"isFinal"`
	FinishReason  model.FinishReason         `json:"finishReason"`
	RunID         string                     `json:"runId"`
	ThreadID      string                     `json:"threadId,omitempty"`
	ResourceID    string                     `json:"resourceId,omitempty"`
	AgentID       string                     `json:"agentId"`
	AgentName     string                     `json:"agentName"`
}
