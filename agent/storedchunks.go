package agent

import (
	"encoding/json"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools/transform"
)

// storedChunks are tool-call and tool-result chunks as a run's state
// keeps them. Decoded, they hold the Go values a live run's chunks hold
// (see storedChunk).
type storedChunks []stream.Chunk

// UnmarshalJSON decodes the chunks as storedChunk does.
func (s *storedChunks) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	out := make([]stream.Chunk, len(raws))
	for i, raw := range raws {
		if err := (*storedChunk)(&out[i]).UnmarshalJSON(raw); err != nil {
			return err
		}
	}
	*s = out
	return nil
}

// storedChunk is a tool chunk as a run's state keeps it. Decoded, it
// holds the Go values of the live run's chunk: args and a tool's result
// as their JSON text (json.RawMessage); metadata and provider metadata
// as map[string]any, whose "mastra" member is a map[string]any holding
// the transform entries as a transform.Metadata and what the model saw
// of a result as a *model.ToolResultOutput. Values a tool's own function
// made come back decoded from JSON: a transformed payload as
// encoding/json decodes it into an any, a JSON model output's value as
// its text (as the run's restored messages hold it).
type storedChunk stream.Chunk

// MarshalJSON encodes the chunk as the stream does.
func (c storedChunk) MarshalJSON() ([]byte, error) { return stream.Chunk(c).MarshalJSON() }

// UnmarshalJSON decodes a chunk with the live run's Go values.
func (c *storedChunk) UnmarshalJSON(raw []byte) error {
	var out stream.Chunk
	if err := json.Unmarshal(raw, &out); err != nil {
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
	var err error
	if out.Metadata, err = decodeChunkMeta(w.Metadata); err != nil {
		return err
	}
	switch p := out.Payload.(type) {
	case stream.ToolResultPayload:
		if len(w.Payload.Result) > 0 {
			p.Result = w.Payload.Result
		}
		p.ProviderMetadata, err = decodeChunkMeta(w.Payload.ProviderMetadata)
		out.Payload = p
	case stream.ToolCallPayload:
		p.ProviderMetadata, err = decodeChunkMeta(w.Payload.ProviderMetadata)
		out.Payload = p
	}
	*c = storedChunk(out)
	return err
}

// decodeChunkMeta decodes a chunk's metadata map (nil: none), its
// "mastra" member as decodeMastraMeta does.
func decodeChunkMeta(m map[string]json.RawMessage) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]any, len(m))
	for k, raw := range m {
		var err error
		if k == transform.MastraKey {
			out[k], err = decodeMastraMeta(raw)
		} else {
			out[k] = decodeAny(raw)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeMastraMeta decodes the "mastra" member of a chunk's metadata:
// its transform entries and the model's view of a result typed, the rest
// as encoding/json decodes it.
func decodeMastraMeta(raw json.RawMessage) (any, error) {
	var ns map[string]json.RawMessage
	if json.Unmarshal(raw, &ns) != nil || ns == nil {
		return decodeAny(raw), nil
	}
	out := make(map[string]any, len(ns))
	for k, v := range ns {
		switch k {
		case transform.MetadataKey:
			var md transform.Metadata
			if err := json.Unmarshal(v, &md); err != nil {
				return nil, err
			}
			out[k] = md
		case "modelOutput":
			o, err := decodeModelOutput(v)
			if err != nil {
				return nil, err
			}
			out[k] = o
		default:
			out[k] = decodeAny(v)
		}
	}
	return out, nil
}

// decodeModelOutput decodes what the model saw of a result, a JSON
// value as its text.
func decodeModelOutput(raw json.RawMessage) (*model.ToolResultOutput, error) {
	var o model.ToolResultOutput
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, err
	}
	if o.Type == model.OutputJSON || o.Type == model.OutputErrorJSON {
		var w struct {
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(raw, &w) == nil && len(w.Value) > 0 {
			o.Value = w.Value
		}
	}
	return &o, nil
}

// decodeAny is raw as encoding/json decodes it into an any.
func decodeAny(raw json.RawMessage) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}
