package enginetest

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/stream"
)

// Local is the Runner of the in-process engine: runs stream in the
// caller's goroutine, a waiting call ends its run suspended and an
// answer resumes it.
func Local(m *mastra.Mastra) Runner { return local{m} }

type local struct{ m *mastra.Mastra }

func (l local) Run(ctx context.Context, agentKey string, in Input) (Outcome, error) {
	a, err := l.m.GetAgent(agentKey)
	if err != nil {
		return Outcome{}, err
	}
	runID := uuid.New()
	opts := []agent.Option{agent.WithRunID(runID)}
	if in.ThreadID != "" {
		opts = append(opts, agent.WithMemory(in.ThreadID, in.ResourceID))
	}
	if in.Output != nil {
		opts = append(opts, agent.WithStructuredOutput(*in.Output))
	}
	return collect(runID, a.Stream(ctx, in.Prompt, opts...))
}

func (l local) Answer(ctx context.Context, agentKey, runID string, ans agent.Answer) (Outcome, error) {
	a, err := l.m.GetAgent(agentKey)
	if err != nil {
		return Outcome{}, err
	}
	switch {
	case ans.Approved != nil && *ans.Approved:
		return collect(runID, a.ApproveToolCall(ctx, runID, ans.ToolCallID))
	case ans.Approved != nil:
		return collect(runID, a.DeclineToolCall(ctx, runID, ans.ToolCallID, ans.Reason))
	}
	return collect(runID, a.ResumeStream(ctx, runID, json.RawMessage(ans.Data), agent.WithToolCallID(ans.ToolCallID)))
}

// collect reads a stream to its end.
func collect(runID string, s iter.Seq2[stream.Chunk, error]) (Outcome, error) {
	r := Outcome{RunID: runID}
	for c, err := range s {
		if err != nil {
			return r, err
		}
		r.Chunks = append(r.Chunks, c)
	}
	return r, nil
}
