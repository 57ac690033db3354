package aisdk

import (
	"encoding/json"
	"strings"

	"github.com/gomastra/mastra/internal/wire"
	"github.com/gomastra/mastra/stream"
)

// maxNesting bounds how deep tool-output envelopes are unwrapped (one per
// delegation level); deeper ones are dropped rather than followed.
const maxNesting = 64

// toolOutput converts a tool-output chunk: what a tool wrote with its
// writer. Sub-agent and workflow tools write the chunks of the run they
// delegate to, wrapped in one tool-output envelope per delegation level;
// the innermost chunk is converted with the ancestry of delegations that
// led to it:
//
//   - a sub-agent chunk (from AGENT) updates that run's data-tool-agent
//     snapshot (IncludeSubAgentMetadata only);
//   - a workflow chunk (from WORKFLOW) updates the run's
//     data-tool-workflow snapshot;
//   - a data-* chunk is passed on as a data part;
//   - anything else (plain progress data) has no UI part.
func (c *Converter) toolOutput(ch stream.Chunk) {
	callID, toolName, output, ok := toolOutputFields(ch.Payload)
	if !ok {
		return
	}
	ancestry := []AncestryEntry{ancestryEntry(callID, toolName)}
	inner, isChunk := asChunk(output)
	for depth := 0; isChunk && inner.Type == stream.TypeToolOutput; depth++ {
		id, name, out, ok := toolOutputFields(inner.Payload)
		if !ok || out == nil || depth == maxNesting {
			return
		}
		ancestry = append(ancestry, ancestryEntry(id, name))
		inner, isChunk = asChunk(out)
	}
	if !isChunk {
		return
	}
	switch {
	case inner.From == stream.FromAgent && !inner.IsData():
		if c.opts.IncludeSubAgentMetadata {
			c.agentSnapshot(inner, ancestry)
		}
	case inner.From == stream.FromWorkflow && !inner.IsData():
		c.workflowSnapshot(inner)
	case inner.IsData():
		c.emit(Part{Type: inner.Type, Data: inner.Data, ID: inner.ID})
	}
}

// ancestryEntry describes one delegation; an agent-<key> tool names the
// key of the agent it delegates to.
func ancestryEntry(callID, toolName string) AncestryEntry {
	e := AncestryEntry{ToolCallID: callID, ToolName: toolName}
	if key, ok := strings.CutPrefix(toolName, "agent-"); ok && key != "" {
		e.AgentID = key
	}
	return e
}

// toolOutputFields reads a tool-output payload, typed or decoded.
func toolOutputFields(p any) (callID, toolName string, output any, ok bool) {
	if t, isTyped := p.(stream.ToolOutputPayload); isTyped {
		return t.ToolCallID, t.ToolName, t.Output, true
	}
	o := payloadObject(p)
	if o == nil {
		return "", "", nil, false
	}
	id, isString := get(o, "toolCallId").(string)
	if !isString {
		return "", "", nil, false
	}
	return id, str(o, "toolName"), get(o, "output"), true
}

// asChunk reads v as a stream chunk: a stream.Chunk, or any value whose
// JSON is a chunk ({type, runId, from, payload} or a data chunk). Plain
// data (no string type) is not a chunk.
func asChunk(v any) (stream.Chunk, bool) {
	switch t := v.(type) {
	case stream.Chunk:
		return t, true
	case *stream.Chunk:
		if t == nil {
			return stream.Chunk{}, false
		}
		return *t, true
	case nil, string, bool, float64, json.Number:
		return stream.Chunk{}, false
	}
	raw, err := wire.MarshalNoHTML(v)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		return stream.Chunk{}, false
	}
	var probe struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return stream.Chunk{}, false
	}
	if _, ok := probe.Type.(string); !ok {
		return stream.Chunk{}, false
	}
	c, err := decodeChunk(raw)
	if err != nil {
		return stream.Chunk{}, false
	}
	return c, true
}

// decodeChunk decodes a chunk's JSON as stream.Chunk does, keeping the
// member order of the values it passes on to UI parts (tool results,
// errors, suspend payloads, nested tool outputs, usage records, objects),
// which decoding into Go maps would lose.
func decodeChunk(raw []byte) (stream.Chunk, error) {
	var c stream.Chunk
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, err
	}
	var env struct {
		Payload map[string]json.RawMessage `json:"payload"`
		Object  json.RawMessage            `json:"object"`
	}
	if json.Unmarshal(raw, &env) != nil {
		return c, nil
	}
	ordered := func(r json.RawMessage) any {
		if len(r) == 0 {
			return nil
		}
		v, err := decodeOrdered(r)
		if err != nil {
			return nil
		}
		return v
	}
	field := func(key string) any { return ordered(env.Payload[key]) }
	switch p := c.Payload.(type) {
	case stream.ToolResultPayload:
		p.Result = field("result")
		c.Payload = p
	case stream.ToolErrorPayload:
		p.Error = field("error")
		c.Payload = p
	case stream.ToolCallSuspendedPayload:
		p.SuspendPayload = field("suspendPayload")
		c.Payload = p
	case stream.ToolOutputPayload:
		p.Output = field("output")
		c.Payload = p
	case stream.ErrorPayload:
		p.Error = field("error")
		c.Payload = p
	case stream.FinishPayload:
		var out struct {
			Usage struct {
				Raw json.RawMessage `json:"raw"`
			} `json:"usage"`
		}
		if json.Unmarshal(env.Payload["output"], &out) == nil && len(out.Usage.Raw) > 0 {
			p.Output.Usage.Raw = ordered(out.Usage.Raw)
			c.Payload = p
		}
	}
	if c.IsObject() {
		c.Object = ordered(env.Object)
	}
	return c, nil
}
