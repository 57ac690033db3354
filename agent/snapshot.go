package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
)

// snapshot is what a resumable run keeps in storage (the Snapshot of a
// storage.Run): enough to rebuild the run and go on from where it
// stopped. It is saved when a step's tool calls are known, as each call
// ends, and when the step suspends; it is deleted when the run finishes.
type snapshot struct {
	AgentID string `json:"agentId"`
	// The run's messages: context messages, memory history, the request's
	// input (as reported, and as the model was given it), and what the
	// run produced so far (assistant and tool messages of finished steps).
	Context  storedMessages `json:"context,omitempty"`
	History  storedMessages `json:"history,omitempty"`
	User     storedMessages `json:"user"`
	Input    storedMessages `json:"input"`
	Response storedMessages `json:"response"`
	// Carried counts the messages at the start of Response that the
	// request's input carried (saved to memory with the input).
	Carried int `json:"carried,omitempty"`
	// Instructions is the run's system text (instructions override and
	// structured-output additions included).
	Instructions string `json:"instructions,omitempty"`
	// Step is the number of finished steps; Usage their usage.
	Step  int         `json:"step"`
	Usage storedUsage `json:"usage"`
	// Resumed says the run has been resumed before: the steps it runs
	// from then on are after a resume (see stepResult.afterResume).
	Resumed bool `json:"resumed,omitempty"`
	// Pending is the current step when its tool calls are being run or
	// are suspended: the assistant message and each call's state.
	Pending *pendingStep `json:"pending,omitempty"`
	// Options the run was started with that a resume keeps.
	MaxSteps       int            `json:"maxSteps"`
	ThreadID       string         `json:"threadId,omitempty"`
	ResourceID     string         `json:"resourceId,omitempty"`
	RequestContext map[string]any `json:"requestContext,omitempty"`
}

// pendingStep is a step whose tool calls have not all ended.
type pendingStep struct {
	Assistant model.Message  `json:"assistant"`
	Text      string         `json:"text,omitempty"`
	Reasoning string         `json:"reasoning,omitempty"`
	Reason    string         `json:"reason"`
	Usage     storedUsage    `json:"usage"`
	Calls     []pendingCall  `json:"calls"`
	Meta      *responseStamp `json:"meta,omitempty"`
	// Warnings, Sources, Files and ProviderMetadata are the model call's,
	// for the step's record.
	Warnings         []model.Warning        `json:"warnings,omitempty"`
	Sources          []model.Source         `json:"sources,omitempty"`
	Files            []model.GeneratedFile  `json:"files,omitempty"`
	ProviderMetadata model.ProviderMetadata `json:"providerMetadata,omitempty"`
	// AfterResume says the step's model call came after a resume.
	AfterResume bool `json:"afterResume,omitempty"`
}

// storedMessages are messages as a snapshot keeps them: the values of
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

// storedUsage is a model.Usage as a snapshot keeps it: its Raw record
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

// responseStamp is a step's response metadata, kept for its Step record.
type responseStamp struct {
	ID        string    `json:"id,omitempty"`
	Timestamp time.Time `json:"timestamp"`
	ModelID   string    `json:"modelId,omitempty"`
}

// Call states in a pending step.
const (
	callRunning   = "running"   // not ended: runs again on resume
	callDone      = "done"      // ended: Result holds what the model sees
	callSuspended = "suspended" // waits for resume data
	callApproval  = "approval"  // waits for an approval decision
	callClient    = "client"    // a client tool: no result here
)

// pendingCall is one tool call of a pending step.
type pendingCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`
	Raw    string          `json:"raw,omitempty"`
	Status string          `json:"status"`
	// Result is the tool-result part of a done call; Chunk its result or
	// error chunk as it was streamed.
	Result *model.ToolResultPart `json:"result,omitempty"`
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

// storedResume is a resumeInput as the snapshot keeps it.
type storedResume struct {
	Data     json.RawMessage   `json:"data,omitempty"`
	Approval *approvalDecision `json:"approval,omitempty"`
}

// input is the stored resume as the loop takes it.
func (s *storedResume) input(toolCallID string) *resumeInput {
	return &resumeInput{toolCallID: toolCallID, data: s.Data, approval: s.Approval}
}

// call returns the pending call as the loop's call.
func (p pendingCall) call() call {
	return call{id: p.ID, name: p.Name, args: p.Args, rawArgs: p.Raw}
}

// restore gives a done call's result back its JSON text.
func (p *pendingCall) restore() {
	if p.Result != nil && len(p.Value) > 0 && p.Result.Output.Type == model.OutputJSON {
		p.Result.Output.Value = p.Value
	}
}

// waiting reports whether the call waits for someone.
func (p pendingCall) waiting() bool { return p.Status == callSuspended || p.Status == callApproval }

// runStore is where the agent keeps resumable runs: Config.Storage, or an
// in-process table when none is configured (runs then resume only in this
// process).
func (a *Agent) runStore() storage.Runs {
	if a.cfg.Storage != nil {
		return a.cfg.Storage
	}
	return a.local
}

// persister saves one run's snapshot, serialised, with the version it
// last saved.
type persister struct {
	mu      sync.Mutex
	store   storage.Runs
	runID   string
	agentID string
	version int64
	created time.Time
	// durable says the store outlives the process (Config.Storage):
	// only then are runs in progress saved, not just suspensions.
	durable bool
	// lost is set when a save found a newer version: another process
	// took the run over, and this one never writes nor deletes its
	// snapshot again.
	lost bool
}

// parked reports whether the run's snapshot is saved as running, by this
// process: a run stopped now stays recoverable.
func (p *persister) parked() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.durable && p.version > 0 && !p.lost
}

// save stores snap under status. A version conflict means another
// process took the run over: this run is lost to it (an error, and no
// more writes).
func (p *persister) save(ctx context.Context, status string, snap *snapshot) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lost || (status == storage.RunRunning && !p.durable) {
		return nil
	}
	raw, err := json.Marshal(snap)
	if err != nil {
		return fmt.Errorf("agent: encoding run snapshot: %w", err)
	}
	v, err := p.store.SaveRun(ctx, storage.Run{
		RunID: p.runID, Kind: storage.KindAgent, Name: p.agentID, ThreadID: snap.ThreadID, ResourceID: snap.ResourceID,
		Status: status, Snapshot: raw, Version: p.version, CreatedAt: p.created,
	})
	if errors.Is(err, storage.ErrConflict) {
		p.lost = true
		return fmt.Errorf("agent: run %s was taken over by another resume: %w", p.runID, err)
	}
	if err != nil {
		return fmt.Errorf("agent: saving run %s: %w", p.runID, err)
	}
	p.version = v
	return nil
}

// remove deletes the run's snapshot: the run has finished.
func (p *persister) remove(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.version == 0 || p.lost {
		return nil
	}
	if err := p.store.DeleteRun(ctx, p.runID); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("agent: removing finished run %s: %w", p.runID, err)
	}
	p.version = 0
	return nil
}
