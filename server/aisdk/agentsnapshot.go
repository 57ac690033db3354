package aisdk

import (
	"strconv"
	"strings"
	"time"

	"github.com/gomastra/mastra/internal/jsjson"
	"github.com/gomastra/mastra/stream"
)

// agentRun is what is known of one sub-agent run, from its chunks: the
// snapshot a data-tool-agent part carries (Mastra's AgentRunSnapshot: the
// run's text, tool calls and results so far, finished steps, usage and
// status). Payloads are kept in their JSON form.
type agentRun struct {
	id           any
	object       any
	finishReason any
	usage        any
	warnings     any
	text         string
	reasoning    []any
	sources      []any
	files        []any
	toolCalls    []any
	pending      []pendingCall
	toolResults  []any
	toolErrors   []any
	response     jsObject
	steps        []jsObject
	status       string

	textOffset, reasoningOffset int
}

// pendingCall is a tool call of the sub-agent whose input is streaming
// or complete but whose call has not been made yet.
type pendingCall struct {
	toolCallID, toolName, argsText, state string
	providerExecuted, dynamic             *bool
	providerMetadata                      any
}

func (p pendingCall) object() jsObject {
	o := jsObject{{"toolCallId", p.toolCallID}, {"toolName", p.toolName}, {"argsText", p.argsText}, {"state", p.state}}
	if p.providerExecuted != nil {
		o = append(o, member{"providerExecuted", *p.providerExecuted})
	}
	o = appendDefined(o, "providerMetadata", p.providerMetadata)
	if p.dynamic != nil {
		o = append(o, member{"dynamic", *p.dynamic})
	}
	return o
}

func newAgentRun(id any) *agentRun {
	return &agentRun{
		id:       id,
		warnings: []any{},
		response: jsObject{{"id", ""}, {"timestamp", isoNow()}, {"modelId", ""}, {"messages", []any{}}},
		status:   "running",
	}
}

func isoNow() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

func (c *Converter) agentRunFor(runID string) *agentRun {
	if c.agents == nil {
		c.agents = map[string]*agentRun{}
	}
	r, ok := c.agents[runID]
	if !ok {
		r = newAgentRun("")
		c.agents[runID] = r
	}
	return r
}

// agentSnapshot applies one chunk of a sub-agent run and emits the run's
// data-tool-agent snapshot when the chunk changed it (and, at the end of
// a step, a data-tool-agent-step part with the step's details).
func (c *Converter) agentSnapshot(ch stream.Chunk, ancestry []AncestryEntry) {
	var r *agentRun
	completed := -1
	switch ch.Type {
	case stream.TypeStart:
		var id string
		if p, ok := ch.Payload.(stream.StartPayload); ok {
			id = p.ID
		}
		r = newAgentRun(id)
		if c.agents == nil {
			c.agents = map[string]*agentRun{}
		}
		c.agents[ch.RunID] = r
	case stream.TypeToolCallInputStreamingStart:
		p, ok := ch.Payload.(stream.ToolInputStartPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		args := ""
		if i := r.pendingIndex(p.ToolCallID); i >= 0 {
			args = r.pending[i].argsText
		}
		r.upsert(pendingCall{toolCallID: p.ToolCallID, toolName: p.ToolName, argsText: args, state: "input-streaming",
			providerExecuted: executed(p.ProviderExecuted), dynamic: executed(p.Dynamic), providerMetadata: mapOrNil(p.ProviderMetadata)}, true)
	case stream.TypeToolCallDelta:
		p, ok := ch.Payload.(stream.ToolCallDeltaPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		next := pendingCall{toolCallID: p.ToolCallID, toolName: p.ToolName, argsText: p.ArgsTextDelta, state: "input-streaming", providerMetadata: mapOrNil(p.ProviderMetadata)}
		if i := r.pendingIndex(p.ToolCallID); i >= 0 {
			prev := r.pending[i]
			if next.toolName == "" {
				next.toolName = prev.toolName
			}
			next.argsText = prev.argsText + p.ArgsTextDelta
			if next.providerMetadata == nil {
				next.providerMetadata = prev.providerMetadata
			}
		}
		r.upsert(next, false)
	case stream.TypeToolCallInputStreamingEnd:
		p, ok := ch.Payload.(stream.ToolInputEndPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		next := pendingCall{toolCallID: p.ToolCallID, state: "input-available", providerMetadata: mapOrNil(p.ProviderMetadata)}
		if i := r.pendingIndex(p.ToolCallID); i >= 0 {
			next.toolName, next.argsText = r.pending[i].toolName, r.pending[i].argsText
			if next.providerMetadata == nil {
				next.providerMetadata = r.pending[i].providerMetadata
			}
		}
		r.upsert(next, false)
	case stream.TypeFinish:
		r = c.agentRunFor(ch.RunID)
		r.finish(ch)
	case stream.TypeTextDelta:
		p, ok := ch.Payload.(stream.TextPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		r.text += p.Text
	case stream.TypeReasoningDelta:
		p, ok := ch.Payload.(stream.TextPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		r.reasoning = append(r.reasoning, p.Text)
	case stream.TypeSource:
		r = c.agentRunFor(ch.RunID)
		r.sources = append(r.sources, jsValue(ch.Payload))
	case stream.TypeFile:
		r = c.agentRunFor(ch.RunID)
		r.files = append(r.files, jsValue(ch.Payload))
	case stream.TypeToolCall:
		p, ok := ch.Payload.(stream.ToolCallPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		r.removePending(p.ToolCallID)
		r.toolCalls = append(r.toolCalls, jsValue(p))
	case stream.TypeToolResult:
		p, ok := ch.Payload.(stream.ToolResultPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		r.removePending(p.ToolCallID)
		r.toolResults = append(r.toolResults, jsValue(p))
	case stream.TypeToolError:
		p, ok := ch.Payload.(stream.ToolErrorPayload)
		if !ok {
			return
		}
		r = c.agentRunFor(ch.RunID)
		r.removePending(p.ToolCallID)
		e := jsObject{{"toolCallId", p.ToolCallID}, {"toolName", p.ToolName}}
		e = appendDefined(e, "args", jsValue(rawArgs(p.Args)))
		e = append(e, member{"errorText", SafeErrorText(p.Error)})
		if p.ProviderExecuted {
			e = append(e, member{"providerExecuted", true})
		}
		r.toolErrors = append(r.toolErrors, e)
	case stream.TypeObject, stream.TypeObjectResult:
		r = c.agentRunFor(ch.RunID)
		r.object = jsValue(ch.Object)
	case stream.TypeStepFinish:
		r = c.agentRunFor(ch.RunID)
		completed = r.finishStep(ch)
	default:
		return
	}
	final := ch.Type == stream.TypeFinish
	meta := ancestryMeta(ancestry)
	c.emit(Part{Type: PartToolAgent, ID: ch.RunID, Data: r.snapshot(final, final), idFirst: true,
		Ancestry: meta.ancestry, Depth: meta.depth, ParentAgentID: meta.parent})
	if completed >= 0 {
		c.emit(Part{Type: PartToolAgentStep, ID: ch.RunID + ":" + strconv.Itoa(completed), idFirst: true,
			Data:     jsObject{{"runId", ch.RunID}, {"stepIndex", float64(completed)}, {"step", stepDetail(r.steps[completed], true)}},
			Ancestry: meta.ancestry, Depth: meta.depth, ParentAgentID: meta.parent})
	}
}

type ancestryInfo struct {
	ancestry []AncestryEntry
	depth    int
	parent   string
}

// ancestryMeta is a snapshot part's place in the delegation tree; the
// parent is the agent the next-to-last delegation named.
func ancestryMeta(a []AncestryEntry) ancestryInfo {
	info := ancestryInfo{ancestry: a, depth: len(a)}
	if len(a) >= 2 {
		info.parent = a[len(a)-2].AgentID
	}
	return info
}

func mapOrNil(m map[string]any) any {
	if m == nil {
		return nil
	}
	return jsValue(m)
}

func (r *agentRun) pendingIndex(id string) int {
	for i, p := range r.pending {
		if p.toolCallID == id {
			return i
		}
	}
	return -1
}

// upsert adds or updates a pending call. An update from an input start
// replaces every field; other updates keep providerExecuted and dynamic.
func (r *agentRun) upsert(next pendingCall, replaceAll bool) {
	i := r.pendingIndex(next.toolCallID)
	if i < 0 {
		r.pending = append(r.pending, next)
		return
	}
	prev := r.pending[i]
	if !replaceAll {
		next.providerExecuted, next.dynamic = prev.providerExecuted, prev.dynamic
	}
	if next.toolName == "" {
		next.toolName = prev.toolName
	}
	r.pending[i] = next
}

func (r *agentRun) removePending(id string) {
	if i := r.pendingIndex(id); i >= 0 {
		r.pending = append(r.pending[:i:i], r.pending[i+1:]...)
	}
}

// finish records the run's end: reason, usage, warnings and status.
func (r *agentRun) finish(ch stream.Chunk) {
	p, ok := ch.Payload.(stream.FinishPayload)
	if !ok {
		r.status = "finished"
		return
	}
	r.finishReason = optString(string(p.StepResult.Reason))
	r.usage = jsValue(p.Output.Usage)
	if p.StepResult.Warnings != nil {
		r.warnings = jsValue(p.StepResult.Warnings)
	} else {
		r.warnings = jsjson.Undefined{}
	}
	r.status = "finished"
}

// finishStep closes the current step: it is recorded with only its own
// text and reasoning, and the per-step lists start empty again (text and
// reasoning stay cumulative at the run level). It returns the step's
// index.
func (r *agentRun) finishStep(ch stream.Chunk) int {
	p, _ := ch.Payload.(stream.FinishPayload)
	idx := len(r.steps)
	stepText := r.text[r.textOffset:]
	stepReasoning := r.reasoning[r.reasoningOffset:]
	var warnings any = []any{}
	if p.StepResult.Warnings != nil {
		warnings = jsValue(p.StepResult.Warnings)
	}
	usage := jsValue(p.Output.Usage)
	stepType := "initial"
	if idx > 0 {
		stepType = "tool-result"
	}
	timestamp := p.Metadata.Timestamp
	if timestamp == "" {
		timestamp = isoNow()
	}
	response := r.response.clone().
		set("id", "").
		set("timestamp", timestamp).
		set("modelId", p.Metadata.ModelID)
	if _, ok := response.get("messages"); !ok {
		response = response.set("messages", []any{})
	}
	reasoningText := make([]string, 0, len(stepReasoning))
	for _, s := range stepReasoning {
		if t, ok := s.(string); ok {
			reasoningText = append(reasoningText, t)
		}
	}
	step := jsObject{
		{"id", r.id},
		{"object", r.object},
		{"finishReason", optString(string(p.StepResult.Reason))},
		{"usage", usage},
		{"warnings", warnings},
		{"text", stepText},
		{"reasoning", cloneList(stepReasoning)},
		{"sources", r.sources},
		{"files", r.files},
		{"toolCalls", r.toolCalls},
		{"pendingToolCalls", []any{}},
		{"toolResults", r.toolResults},
		{"toolErrors", r.toolErrors},
		{"request", jsObject{}},
		{"response", response},
		{"status", r.status},
		{"stepType", stepType},
		{"reasoningText", strings.Join(reasoningText, "")},
		{"staticToolCalls", []any{}},
		{"dynamicToolCalls", []any{}},
		{"staticToolResults", []any{}},
		{"dynamicToolResults", []any{}},
	}
	r.steps = append(r.steps, step)
	r.sources, r.files, r.toolCalls, r.pending, r.toolResults, r.toolErrors = nil, nil, nil, nil, nil, nil
	r.usage, r.warnings = usage, warnings
	r.textOffset, r.reasoningOffset = len(r.text), len(r.reasoning)
	return idx
}

func cloneList(l []any) []any { return append([]any{}, l...) }

// snapshot is the run as a data-tool-agent part shows it. Completed steps
// carry their details (tool calls, results, text) and the response
// messages only in the final snapshot.
func (r *agentRun) snapshot(stepDetails, responseMessages bool) jsObject {
	pending := make([]any, len(r.pending))
	for i, p := range r.pending {
		pending[i] = p.object()
	}
	steps := make([]any, len(r.steps))
	for i, s := range r.steps {
		steps[i] = stepDetail(s, stepDetails)
	}
	return jsObject{
		{"id", r.id},
		{"object", r.object},
		{"finishReason", r.finishReason},
		{"usage", r.usage},
		{"warnings", r.warnings},
		{"text", r.text},
		{"reasoning", cloneList(r.reasoning)},
		{"sources", cloneList(r.sources)},
		{"files", cloneList(r.files)},
		{"toolCalls", cloneList(r.toolCalls)},
		{"pendingToolCalls", pending},
		{"toolResults", cloneList(r.toolResults)},
		{"toolErrors", cloneList(r.toolErrors)},
		{"request", jsObject{}},
		{"response", responseView(r.response, responseMessages)},
		{"steps", steps},
		{"status", r.status},
	}
}

// stepDetail is a completed step as a snapshot shows it: with its details,
// or with its lists emptied (its text and reasoning too) and no response
// messages.
func stepDetail(s jsObject, details bool) jsObject {
	out := s.clone()
	resp, _ := out.get("response")
	if ro, ok := resp.(jsObject); ok {
		out = out.set("response", responseView(ro, details))
	}
	if details {
		return out
	}
	for _, k := range []string{"files", "sources", "toolCalls", "pendingToolCalls", "toolResults", "toolErrors",
		"dynamicToolCalls", "dynamicToolResults", "staticToolCalls", "staticToolResults", "reasoning"} {
		out = out.set(k, []any{})
	}
	return out.set("object", nil).set("text", "").set("reasoningText", "")
}

// responseView is a response with or without its messages.
func responseView(resp jsObject, withMessages bool) jsObject {
	if withMessages {
		return resp
	}
	if _, ok := resp.get("messages"); !ok {
		return resp
	}
	return resp.clone().set("messages", []any{})
}
