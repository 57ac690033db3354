package agent

import (
	"fmt"

	"github.com/gomastra/mastra/model"
)

// ClientToolResult is the caller's result for one call of a client tool
// (a tool without Execute, given with WithClientTools).
type ClientToolResult struct {
	ToolCallID string
	// Output is what the tool returned; the model is given it as JSON.
	Output any
	// Error, when not empty, says the tool failed: the model is given
	// this text as the call's error result, and Output is not used.
	Error string
}

// ClientToolCalls lists the calls the caller must run before the run
// can go on: the calls without a result of a run that ended on client
// tools (FinishReason "tool-calls"), in order. It is empty for a run
// that ended otherwise, or on the step limit with every call answered.
func (o *Output) ClientToolCalls() []ToolCall {
	if o.FinishReason != model.FinishToolCalls {
		return []ToolCall{}
	}
	answered := map[string]bool{}
	for _, m := range o.Response.Messages {
		for _, p := range m.Content {
			if p.ToolResult != nil {
				answered[p.ToolResult.ToolCallID] = true
			}
		}
	}
	calls := []ToolCall{}
	for _, m := range o.Response.Messages {
		for _, p := range m.Content {
			if c := p.ToolCall; c != nil && !c.ProviderExecuted && !answered[c.ToolCallID] {
				calls = append(calls, ToolCall{ToolCallID: c.ToolCallID, ToolName: c.ToolName, Args: argsOrEmpty(c.Input)})
			}
		}
	}
	return calls
}

// ContinueMessages is the input of the run that goes on after o ended on
// client-tool calls, given the caller's results for every one of them
// (ClientToolCalls): the run's input and response messages, then a tool
// message with the results; only the tool message when the run kept its
// conversation in a memory thread (WithMemory, not read-only), which
// holds the rest. (An Output read back from JSON knows neither its
// input nor its thread: its continuation starts at the response.) Pass it to Generate or Stream with the same options
// (WithClientTools, WithMemory) as the run that stopped. A result for a
// call that does not wait, two for one call, or a call left without one
// is an error.
func (o *Output) ContinueMessages(results ...ClientToolResult) ([]model.Message, error) {
	pending := o.ClientToolCalls()
	if len(pending) == 0 {
		return nil, fmt.Errorf("agent: run %s does not wait for client tools (finish reason %q)", o.RunID, o.FinishReason)
	}
	byID := make(map[string]ClientToolResult, len(results))
	for _, r := range results {
		if _, dup := byID[r.ToolCallID]; dup {
			return nil, fmt.Errorf("agent: two results for client tool call %s", r.ToolCallID)
		}
		byID[r.ToolCallID] = r
	}
	parts := make([]model.ToolResultPart, 0, len(pending))
	for _, c := range pending {
		r, ok := byID[c.ToolCallID]
		if !ok {
			return nil, fmt.Errorf("agent: no result for the call %s of client tool %s", c.ToolCallID, c.ToolName)
		}
		delete(byID, c.ToolCallID)
		output := model.JSONOutput(r.Output)
		if r.Error != "" {
			output = model.ErrorTextOutput(r.Error)
		}
		parts = append(parts, model.ToolResultPart{ToolCallID: c.ToolCallID, ToolName: c.ToolName, Output: output, Input: c.Args})
	}
	for _, r := range results {
		if _, left := byID[r.ToolCallID]; left {
			return nil, fmt.Errorf("agent: run %s has no client tool call %s waiting for a result", o.RunID, r.ToolCallID)
		}
	}
	result := model.ToolMessage(parts...)
	if o.threaded {
		return []model.Message{result}, nil
	}
	msgs := make([]model.Message, 0, len(o.input)+len(o.Response.Messages)+1)
	msgs = append(msgs, o.input...)
	// The response lists an empty tool message for unanswered calls.
	msgs = append(msgs, withoutEmptyToolMessages(o.Response.Messages)...)
	return append(msgs, result), nil
}
