package agent

import (
	"encoding/json"
	"time"

	"github.com/gomastra/mastra/model"
)

// runState is a run as it is saved: everything a driver needs to go on
// from where the run is, and nothing it can recompute. A run's stream
// changes it only through apply, so that what is saved (a snapshot, then
// the changes after it) folds back into the same value.
type runState struct {
	AgentID string `json:"agentId"`
	// The conversation in its named parts: context messages, memory
	// history, the request's input (as reported, and as the model was
	// given it), and what the run produced (assistant and tool messages
	// of finished steps; the messages the input carried of an earlier
	// response come first, Carried of them). The history is saved as the
	// ids of the thread's messages it holds, not as copies (loadHistory
	// reads them back), so that a run's state does not grow with its
	// thread.
	Context    storedMessages `json:"context,omitempty"`
	History    storedMessages `json:"-"`
	HistoryIDs []string       `json:"historyIds,omitempty"`
	User       storedMessages `json:"user"`
	Input      storedMessages `json:"input"`
	Response   storedMessages `json:"response"`
	Carried    int            `json:"carried,omitempty"`
	// Instructions is the run's system text (instructions override and
	// structured-output additions included).
	Instructions string `json:"instructions,omitempty"`
	// WorkingMemory is the working memory's system message (the
	// document as the run found it), "" without working memory.
	WorkingMemory string `json:"workingMemory,omitempty"`
	// Recalled is semantic recall's system message of messages from the
	// resource's other threads, "" when none.
	Recalled string `json:"recalled,omitempty"`
	// Step is the number of finished steps; Usage the run's usage so far
	// (the pending step's included).
	Step  int         `json:"step"`
	Usage storedUsage `json:"usage"`
	// Resumed says the run has been resumed: the steps it runs from then
	// on come after a resume (see stepState.AfterResume).
	Resumed bool `json:"resumed,omitempty"`
	// Done are the finished steps, as they were reported (the step-finish
	// and finish chunks and Generate's Output list them all).
	Done []doneStep `json:"done,omitempty"`
	// Pending is the step whose model call has ended and which has not:
	// its calls run, wait, or have all ended.
	Pending *stepState `json:"pending,omitempty"`
	// Options the run was started with that a resume keeps.
	MaxSteps       int            `json:"maxSteps"`
	ThreadID       string         `json:"threadId,omitempty"`
	ResourceID     string         `json:"resourceId,omitempty"`
	RequestContext map[string]any `json:"requestContext,omitempty"`
}

// stepState is one model call's step: what the model produced and the
// state of each tool call it made.
type stepState struct {
	Assistant model.Message  `json:"assistant"`
	Text      string         `json:"text,omitempty"`
	Reasoning string         `json:"reasoning,omitempty"`
	Reason    string         `json:"reason"`
	Usage     storedUsage    `json:"usage"`
	Calls     []callState    `json:"calls"`
	Meta      *responseStamp `json:"meta,omitempty"`
	// Warnings, Sources, Files and ProviderMetadata are the model call's,
	// for the step's record.
	Warnings         []model.Warning        `json:"warnings,omitempty"`
	Sources          []model.Source         `json:"sources,omitempty"`
	Files            []model.GeneratedFile  `json:"files,omitempty"`
	ProviderMetadata model.ProviderMetadata `json:"providerMetadata,omitempty"`
	// ToolCalls and ProviderResults are the tool-call chunks the model
	// call was reported with and the tool-result chunks of the provider's
	// own tools, for the step's record (with each call's Reported chunk).
	ToolCalls       storedChunks `json:"toolCalls,omitempty"`
	ProviderResults storedChunks `json:"providerResults,omitempty"`
	// AfterResume says the model call came after the run was resumed:
	// Mastra's step results then list no content (it reads a step's
	// content between the step boundaries of its response messages,
	// which a resumed run's rebuilt message list no longer has).
	AfterResume bool `json:"afterResume,omitempty"`
}

// Call states.
const (
	callRunning   = "running"   // not ended: runs again on resume
	callDone      = "done"      // ended: Result holds what the model sees
	callSuspended = "suspended" // waits for resume data
	callApproval  = "approval"  // waits for an approval decision
	callClient    = "client"    // a client tool: no result here
)

// callState is one tool call of a step and where it is.
type callState struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"` // nil when the model's text did not parse
	Raw  string          `json:"raw,omitempty"`  // the model's argument text
	// Status is one of the call states.
	Status string `json:"status"`
	// Result is the tool-result part of a done call.
	Result *model.ToolResultPart `json:"result,omitempty"`
	// Reported is the tool-result chunk a done call was reported with,
	// for the step's record.
	Reported *storedChunk `json:"reported,omitempty"`
	// Value keeps a JSON result's text as the tool wrote it (key order
	// and all), which decoding Result would lose.
	Value json.RawMessage `json:"value,omitempty"`
	// SuspendPayload and ResumeSchema describe a suspended call.
	SuspendPayload json.RawMessage `json:"suspendPayload,omitempty"`
	ResumeSchema   string          `json:"resumeSchema,omitempty"`
	// SuspendedRunID is the delegated run of a suspended agent or
	// workflow tool.
	SuspendedRunID string `json:"suspendedRunId,omitempty"`
	// Resume is what a resume brought a waiting call, kept while the call
	// runs again, so that a resume cut short by a crash is taken up again
	// with the same data or decision.
	Resume *storedResume `json:"resume,omitempty"`
}

// waiting reports whether the call waits for someone.
func (c callState) waiting() bool { return c.Status == callSuspended || c.Status == callApproval }

// storedResume is what a resume brought a waiting call.
type storedResume struct {
	Data     json.RawMessage   `json:"data,omitempty"`
	Approval *approvalDecision `json:"approval,omitempty"`
}

// input is the stored resume as the loop takes it.
func (s *storedResume) input(toolCallID string) *resumeInput {
	return &resumeInput{toolCallID: toolCallID, data: s.Data, approval: s.Approval}
}

// restore gives a done call's JSON result back the text it was saved as.
func (c *callState) restore() {
	if c.Result != nil && len(c.Value) > 0 && c.Result.Output.Type == model.OutputJSON {
		c.Result.Output.Value = c.Value
	}
}

// stateChange is one change of a run's state: what is saved after the
// snapshot it follows. Exactly one field is set.
type stateChange struct {
	// Step: a model call ended; its step is pending.
	Step *stepState `json:"step,omitempty"`
	// Call: a pending call has a new state.
	Call *callChange `json:"call,omitempty"`
	// End: the pending step ended; its messages join the response.
	End *stepEnd `json:"end,omitempty"`
	// Resumed: the run is resumed.
	Resumed bool `json:"resumed,omitempty"`
}

// callChange is a pending call's new state.
type callChange struct {
	Index int       `json:"index"`
	Call  callState `json:"call"`
}

// stepEnd is how the pending step ended: the messages it adds to the
// response (its assistant message, then its tool message if it made
// calls), and how it was reported (nil: not kept).
type stepEnd struct {
	Messages storedMessages `json:"messages"`
	Report   *stepReport    `json:"report,omitempty"`
}

// apply changes s as c says.
func (s *runState) apply(c stateChange) {
	switch {
	case c.Step != nil:
		s.Pending = c.Step
		s.Usage = storedUsage(model.Usage(s.Usage).Add(model.Usage(c.Step.Usage)))
	case c.Call != nil:
		if s.Pending != nil && c.Call.Index < len(s.Pending.Calls) {
			s.Pending.Calls[c.Call.Index] = c.Call.Call
		}
	case c.End != nil:
		s.Response = append(s.Response, c.End.Messages...)
		if c.End.Report != nil && s.Pending != nil {
			s.Done = append(s.Done, doneStep{Step: s.Pending, Report: *c.End.Report, Messages: len(s.Response)})
		}
		s.Step++
		s.Pending = nil
	case c.Resumed:
		s.Resumed = true
	}
}

// waitingCalls lists the pending step's waiting calls, in call order.
func (s *runState) waitingCalls() []callState {
	var out []callState
	if s.Pending != nil {
		for _, c := range s.Pending.Calls {
			if c.waiting() {
				out = append(out, c)
			}
		}
	}
	return out
}

// decodeState folds a saved run (its snapshot, then the changes after
// it) back into its state.
func decodeState(snapshot json.RawMessage, deltas []json.RawMessage) (*runState, error) {
	var s runState
	if err := json.Unmarshal(snapshot, &s); err != nil {
		return nil, err
	}
	for _, d := range deltas {
		var c stateChange
		if err := json.Unmarshal(d, &c); err != nil {
			return nil, err
		}
		s.apply(c)
	}
	s.Pending.restore()
	for _, d := range s.Done {
		d.Step.restore()
	}
	return &s, nil
}

// restore restores the results of p's calls (see callState.restore); p
// may be nil.
func (p *stepState) restore() {
	if p == nil {
		return
	}
	for i := range p.Calls {
		p.Calls[i].restore()
	}
}

// storedMessages are messages as a run's state keeps them: the values of
// their JSON tool results come back as the JSON text they were saved as,
// so that their members keep the order the tool wrote them in (decoded
// maps would sort them).
type storedMessages []model.Message

// UnmarshalJSON decodes messages, keeping JSON tool results' text.
func (s *storedMessages) UnmarshalJSON(b []byte) error {
	var msgs []model.Message
	if err := json.Unmarshal(b, &msgs); err != nil {
		return err
	}
	var raw []struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(b, &raw) == nil && len(raw) == len(msgs) {
		for i := range msgs {
			keepJSONOutputs(msgs[i].Content, raw[i].Content)
		}
	}
	*s = msgs
	return nil
}

// keepJSONOutputs gives the JSON tool results among parts, decoded from
// the JSON array raw, their value's text from raw.
func keepJSONOutputs(parts []model.Part, raw json.RawMessage) {
	var rs []struct {
		Output *struct {
			Value json.RawMessage `json:"value"`
		} `json:"output"`
	}
	if json.Unmarshal(raw, &rs) != nil || len(rs) != len(parts) {
		return
	}
	for i, p := range parts {
		if p.ToolResult == nil || rs[i].Output == nil || len(rs[i].Output.Value) == 0 {
			continue
		}
		if o := &p.ToolResult.Output; o.Type == model.OutputJSON || o.Type == model.OutputErrorJSON {
			o.Value = rs[i].Output.Value
		}
	}
}

// storedUsage is a model.Usage as a run's state keeps it: its Raw record
// comes back as the JSON text it was saved as, so that its members keep
// the provider's order (a decoded map would sort them).
type storedUsage model.Usage

// UnmarshalJSON decodes a usage, keeping raw as json.RawMessage.
func (u *storedUsage) UnmarshalJSON(b []byte) error {
	type plain model.Usage
	var w struct {
		plain
		Raw json.RawMessage `json:"raw"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = storedUsage(w.plain)
	u.Raw = nil
	if len(w.Raw) > 0 && string(w.Raw) != "null" {
		u.Raw = w.Raw
	}
	return nil
}

// responseStamp is a step's response metadata, kept for its record.
type responseStamp struct {
	ID        string    `json:"id,omitempty"`
	Timestamp time.Time `json:"timestamp"`
	ModelID   string    `json:"modelId,omitempty"`
}
