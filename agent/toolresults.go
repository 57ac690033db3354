package agent

import (
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/stream"
)

// ToolCall is a tool call of a run, as its tool-call chunk reports it.
type ToolCall struct {
	ToolCallID, ToolName string
	// Args is the call's arguments as JSON ({} when the model gave none).
	Args json.RawMessage
	// ProviderExecuted says the model's provider ran the tool.
	ProviderExecuted bool
}

// ToolResult is a tool call's result, as its tool-result chunk reports
// it. Calls that failed in this process are tool-error chunks (see
// Output.Chunks), not results.
type ToolResult struct {
	ToolCallID, ToolName string
	// Args is the call's arguments as JSON.
	Args json.RawMessage
	// Result is the tool's output as JSON, as the tool returned it
	// (before any ToModelOutput): decode it with ToolResultAs.
	Result json.RawMessage
	// IsError says the result reports a failure (a provider-executed
	// tool's error); Error is then its text.
	IsError bool
	Error   string
	// ProviderExecuted says the model's provider ran the tool.
	ProviderExecuted bool
}

// Calls lists the run's tool calls (ToolCalls), in order.
func (o *Output) Calls() []ToolCall { return toolCallsOf(o.ToolCalls) }

// Results lists the run's tool results (ToolResults), in order.
func (o *Output) Results() []ToolResult { return toolResultsOf(o.ToolResults) }

// Calls lists the step's tool calls (ToolCalls), in order.
func (s Step) Calls() []ToolCall { return toolCallsOf(s.ToolCalls) }

// Results lists the step's tool results (ToolResults), in order.
func (s Step) Results() []ToolResult { return toolResultsOf(s.ToolResults) }

func toolCallsOf(chunks []stream.Chunk) []ToolCall {
	calls := make([]ToolCall, 0, len(chunks))
	for _, c := range chunks {
		switch p := c.Payload.(type) {
		case stream.ToolCallPayload:
			calls = append(calls, ToolCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args, ProviderExecuted: p.ProviderExecuted})
		case *stream.ToolCallPayload:
			calls = append(calls, ToolCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args, ProviderExecuted: p.ProviderExecuted})
		}
	}
	return calls
}

func toolResultsOf(chunks []stream.Chunk) []ToolResult {
	results := make([]ToolResult, 0, len(chunks))
	for _, c := range chunks {
		switch p := c.Payload.(type) {
		case stream.ToolResultPayload:
			results = append(results, toolResultOf(p))
		case *stream.ToolResultPayload:
			results = append(results, toolResultOf(*p))
		}
	}
	return results
}

func toolResultOf(p stream.ToolResultPayload) ToolResult {
	r := ToolResult{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args, Result: rawJSON(p.Result),
		IsError: p.IsError, ProviderExecuted: p.ProviderExecuted}
	if r.Result == nil {
		r.Result = json.RawMessage("null")
	}
	if r.IsError {
		r.Error = errorText(r.Result)
	}
	return r
}

// errorText is an error result's text: the string itself, an object's
// message, or else the JSON.
func errorText(result json.RawMessage) string {
	var s string
	if json.Unmarshal(result, &s) == nil {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(result, &e) == nil && e.Message != "" {
		return e.Message
	}
	return string(result)
}

// ToolResultAs decodes a tool result into a T (the tool's output type).
// A result that reports a failure (IsError) is an error naming the tool
// and giving the failure's text.
func ToolResultAs[T any](r ToolResult) (v T, err error) {
	if r.IsError {
		return v, fmt.Errorf("agent: tool %s (%s) failed: %s", r.ToolName, r.ToolCallID, r.Error)
	}
	if err := json.Unmarshal(r.Result, &v); err != nil {
		return v, fmt.Errorf("agent: the result of %s (%s): %w", r.ToolName, r.ToolCallID, err)
	}
	return v, nil
}
