package agent

import (
	"encoding/json"

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
// not: its finish reason, its response's metadata, and its tool-call and
// tool-result chunks.
type stepReport struct {
	Reason      model.FinishReason `json:"reason"`
	Response    responseMeta       `json:"response"`
	ToolCalls   storedChunks       `json:"toolCalls,omitempty"`
	ToolResults storedChunks       `json:"toolResults,omitempty"`
}

// responseMeta is a step's Response without its messages (the run's
// response up to the step, which the state has).
type responseMeta struct {
	ID            string               `json:"id,omitempty"`
	Timestamp     string               `json:"timestamp,omitempty"`
	ModelID       string               `json:"modelId,omitempty"`
	ModelMetadata stream.ModelMetadata `json:"modelMetadata"`
}

// storedChunks are a step's tool-call or tool-result chunks as a run's
// state keeps them. Decoded, a tool result's value and the members of
// the chunks' metadata maps come back as the JSON text they were saved
// as (json.RawMessage), so that the chunks encode exactly as they did.
type storedChunks []stream.Chunk

// UnmarshalJSON decodes the chunks, keeping results and metadata as text.
func (s *storedChunks) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	out := make([]stream.Chunk, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return err
		}
		var w struct {
			Metadata map[string]json.RawMessage `json:"metadata"`
			Payload  struct {
				Result           json.RawMessage            `json:"result"`
				ProviderMetadata map[string]json.RawMessage `json:"providerMetadata"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			return err
		}
		if w.Metadata != nil {
			out[i].Metadata = rawMembers(w.Metadata)
		}
		switch p := out[i].Payload.(type) {
		case stream.ToolResultPayload:
			if len(w.Payload.Result) > 0 {
				p.Result = w.Payload.Result
			}
			if w.Payload.ProviderMetadata != nil {
				p.ProviderMetadata = rawMembers(w.Payload.ProviderMetadata)
			}
			out[i].Payload = p
		case stream.ToolCallPayload:
			if w.Payload.ProviderMetadata != nil {
				p.ProviderMetadata = rawMembers(w.Payload.ProviderMetadata)
			}
			out[i].Payload = p
		}
	}
	*s = out
	return nil
}

// rawMembers is m with its values as any.
func rawMembers(m map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
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
