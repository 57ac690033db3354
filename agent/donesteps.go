package agent

import (
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
)

// doneStep is a finished step as the run's state keeps it: the step
// itself (its model call and calls), how it was reported, and where its
// messages end in the response. A resumed run, in this process or
// another, lists it again from these, as the stream that ran it did.
type doneStep struct {
	Step     *stepState `json:"step"`
	Report   stepReport `json:"report"`
	Messages int        `json:"messages"`
}

// stepReport is what a finished step's record holds that its state does
// not: its finish reason and its response's metadata.
type stepReport struct {
	Reason   model.FinishReason `json:"reason"`
	Response responseMeta       `json:"response"`
}

// responseMeta is a step's Response without its messages (the run's
// response up to the step, which the state has).
type responseMeta struct {
	ID            string               `json:"id,omitempty"`
	Timestamp     string               `json:"timestamp,omitempty"`
	ModelID       string               `json:"modelId,omitempty"`
	ModelMetadata stream.ModelMetadata `json:"modelMetadata"`
}

// stepChunks are the tool-call and tool-result chunks step p was
// reported with: the model call's (its calls, the results of the
// provider's own tools), then the result of each call that has one, in
// call order.
func stepChunks(runID string, p *stepState) (calls, results []stream.Chunk) {
	calls = p.ToolCalls
	if len(calls) == 0 {
		// A step saved without its chunks: its calls as the stream
		// reported them.
		for _, c := range p.Calls {
			calls = append(calls, stream.Chunk{Type: stream.TypeToolCall, RunID: runID, From: stream.FromAgent,
				Payload: stream.ToolCallPayload{ToolCallID: c.ID, ToolName: c.Name, Args: argsOrEmpty(c.Args)}})
		}
	}
	results = append(results, p.ProviderResults...)
	for _, c := range p.Calls {
		if c.Reported != nil {
			results = append(results, stream.Chunk(*c.Reported))
		}
	}
	return clip(calls), clip(results)
}

// restoreSteps gives a resumed run's report the steps it had finished
// before, as they were reported.
func (r *run) restoreSteps() {
	if len(r.report.steps) > 0 {
		return
	}
	for i, d := range r.state.Done {
		r.addStep(i, d)
	}
}
