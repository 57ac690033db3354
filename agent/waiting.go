package agent

import (
	"encoding/json"
	"fmt"

	"github.com/gomastra/mastra/stream"
)

// Waiting describes the call a suspended run (FinishReason "suspended")
// waits for, the one SuspendPayload and ResumeSchema describe: its id and
// tool, its arguments, whether it waits for an approval (Suspended false:
// answer with ApproveToolCall or DeclineToolCall) or suspended itself
// (Suspended true: resume with ResumeGenerate or ResumeStream, with data
// matching ResumeSchema), and the JSON its tool suspended with. ok is
// false when the run waits for nothing.
func (o *Output) Waiting() (w WaitingCall, ok bool) {
	switch p := o.SuspendPayload.(type) {
	case nil:
		return WaitingCall{}, false
	case stream.ToolCallApprovalPayload:
		w = WaitingCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args}
	case *stream.ToolCallApprovalPayload:
		w = WaitingCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args}
	case stream.ToolCallSuspendedPayload:
		w = suspendedCall(p)
	case *stream.ToolCallSuspendedPayload:
		w = suspendedCall(*p)
	default:
		// An Output decoded from JSON holds the chunk payload as JSON
		// values: read it back by its keys.
		var ok bool
		if w, ok = decodedWaiting(p); !ok {
			return WaitingCall{}, false
		}
	}
	w.ResumeSchema = o.ResumeSchema
	return w, true
}

func suspendedCall(p stream.ToolCallSuspendedPayload) WaitingCall {
	return WaitingCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args, Suspended: true, SuspendPayload: rawJSON(p.SuspendPayload)}
}

// decodedWaiting reads a waiting chunk's payload held as JSON values:
// a tool-call-suspended payload has a suspendPayload key, an approval's
// has none.
func decodedWaiting(v any) (WaitingCall, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return WaitingCall{}, false
	}
	var p struct {
		stream.ToolCallSuspendedPayload
		SuspendPayload json.RawMessage `json:"suspendPayload"`
	}
	if json.Unmarshal(b, &p) != nil || p.ToolCallID == "" {
		return WaitingCall{}, false
	}
	w := WaitingCall{ToolCallID: p.ToolCallID, ToolName: p.ToolName, Args: p.Args}
	if p.SuspendPayload != nil {
		w.Suspended = true
		if string(p.SuspendPayload) != "null" {
			w.SuspendPayload = p.SuspendPayload
		}
	}
	return w, true
}

// rawJSON is v as JSON: v itself when it is JSON already, nil for nil.
func rawJSON(v any) json.RawMessage {
	switch t := v.(type) {
	case nil:
		return nil
	case json.RawMessage:
		return t
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// SuspendPayloadAs decodes what the tool of out's waiting call suspended
// with (the value it gave ctx.Suspend) into a T. ok is false, with no
// error, when the run does not wait for a suspended call or its tool
// suspended with no payload; err reports a payload that does not decode
// into a T.
func SuspendPayloadAs[T any](out *Output) (v T, ok bool, err error) {
	w, waiting := out.Waiting()
	if !waiting || !w.Suspended || len(w.SuspendPayload) == 0 {
		return v, false, nil
	}
	if err := json.Unmarshal(w.SuspendPayload, &v); err != nil {
		return v, false, fmt.Errorf("agent: the suspend payload of %s (%s): %w", w.ToolName, w.ToolCallID, err)
	}
	return v, true, nil
}
