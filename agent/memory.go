package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/gomastra/mastra/internal/uuid"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools/transform"
)

// MemoryOptions configure an agent's memory (Config.Memory, with
// Config.Storage): runs given a thread (WithMemory) see its last messages
// and add theirs to it. When the thread already holds messages, a run
// takes of its input only what the thread lacks: the messages after the
// last assistant or tool message, or, when the input ends with client
// tool results, those results and the calls they answer.
type MemoryOptions struct {
	// LastMessages is how many of the thread's latest messages a run is
	// given before its input (0: the default, 10; negative: none).
	LastMessages int
	// ReadOnly makes runs read the thread without writing to it.
	ReadOnly bool
	// WorkingMemory, when set, gives the agent's runs with a memory
	// thread Mastra's working memory (see WorkingMemory).
	WorkingMemory *WorkingMemory
	// SemanticRecall, when set, embeds the messages memory keeps and
	// shows runs the ones most similar to their user's latest message
	// (see SemanticRecall).
	SemanticRecall *SemanticRecall
}

// WithMemoryReadOnly makes this run read its thread without writing to it.
func WithMemoryReadOnly() Option { return func(o *runOptions) { o.readOnly = true } }

// memoryOn reports whether the run uses memory; writes whether it may
// write to it.
func (r *run) memoryOn() bool { return r.agent.memoryOn(r.opts) }

func (r *run) memoryWrites() bool { return r.agent.memoryWrites(r.opts) }

// memoryOn reports whether a run of options o uses memory: the agent
// keeps memory and o names a thread.
func (a *Agent) memoryOn(o runOptions) bool {
	return a.cfg.Storage != nil && a.cfg.Memory != nil && o.threadID != ""
}

// memoryWrites reports whether a run of options o may write its memory.
func (a *Agent) memoryWrites(o runOptions) bool {
	return a.memoryOn(o) && !a.memoryReadOnly(o)
}

// memoryReadOnly reports whether a run of options o was asked not to
// write its memory (MemoryOptions.ReadOnly, WithMemoryReadOnly).
func (a *Agent) memoryReadOnly(o runOptions) bool {
	return o.readOnly || (a.cfg.Memory != nil && a.cfg.Memory.ReadOnly)
}

// remember starts a run's memory: the thread is created if need be and
// its last messages become the run's history. The request's input is
// saved by rememberInput, once the run's snapshot exists.
func (r *run) remember() error {
	if !r.memoryOn() {
		return nil
	}
	h, err := recorded(r, r.storageCtx(), r.readHistory)
	if err != nil {
		return err
	}
	r.state.History = append(r.state.History, h.Messages...)
	r.state.HistoryIDs = append(r.state.HistoryIDs, h.IDs...)
	if wm := r.agent.cfg.Memory.WorkingMemory; wm != nil {
		r.state.WorkingMemory = wm.instruction(h.WorkingMemory, !r.memoryWrites())
	}
	return nil
}

// history is what a run reads of its thread: its last messages and
// their ids, and the working memory document ("" when none).
type history struct {
	Messages      []model.Message
	IDs           []string
	WorkingMemory string `json:",omitempty"`
}

// readHistory checks the run's thread (creating it when memory is
// written) and reads its last messages.
func (r *run) readHistory(ctx context.Context) (history, error) {
	var h history
	store, threadID := r.agent.cfg.Storage, r.opts.threadID
	th, err := store.GetThread(ctx, threadID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		if r.memoryWrites() {
			if err := store.SaveThread(ctx, storage.Thread{ID: threadID, ResourceID: r.opts.resourceID}); err != nil {
				return h, fmt.Errorf("memory: %w", err)
			}
		}
	case err != nil:
		return h, fmt.Errorf("memory: %w", err)
	case r.opts.resourceID != "" && th.ResourceID != "" && th.ResourceID != r.opts.resourceID:
		return h, fmt.Errorf("memory: thread %s belongs to resource %s, not %s", threadID, th.ResourceID, r.opts.resourceID)
	}
	if n := r.agent.LastMessages(); n > 0 {
		stored, err := store.ListMessages(ctx, threadID, n)
		if err != nil {
			return h, fmt.Errorf("memory: %w", err)
		}
		for _, m := range stored {
			var msg model.Message
			if err := json.Unmarshal(m.Content, &msg); err != nil {
				return h, fmt.Errorf("memory: message %s: %w", m.ID, err)
			}
			h.Messages = append(h.Messages, msg)
			h.IDs = append(h.IDs, m.ID)
		}
	}
	switch wm := r.agent.cfg.Memory.WorkingMemory; {
	case wm == nil:
	case wm.scope() == ScopeThread:
		h.WorkingMemory = threadDocument(th) // (the thread read above)
	case r.opts.resourceID != "":
		doc, err := r.agent.WorkingMemory(ctx, threadID, r.opts.resourceID)
		if err != nil {
			return h, fmt.Errorf("memory: %w", err)
		}
		h.WorkingMemory = doc
	}
	return h, nil
}

// loadHistory reads back the history messages a saved state names.
func (a *Agent) loadHistory(ctx context.Context, s *runState) error {
	if len(s.HistoryIDs) == 0 || a.cfg.Storage == nil {
		return nil
	}
	stored, err := a.cfg.Storage.GetMessages(ctx, s.HistoryIDs)
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	s.History = make(storedMessages, 0, len(stored))
	for _, m := range stored {
		var msg model.Message
		if err := json.Unmarshal(m.Content, &msg); err != nil {
			return fmt.Errorf("memory: message %s: %w", m.ID, err)
		}
		s.History = append(s.History, msg)
	}
	return nil
}

// rememberInput saves the request's input (with the messages it carried
// of an earlier response, see splitInput) before the model sees it, so
// that nothing the agent acknowledged is lost. The messages' ids derive
// from the run: saving them again (a recovery) replaces them.
func (r *run) rememberInput(carried []model.Message) error {
	if !r.memoryWrites() || len(r.state.User)+len(carried) == 0 {
		return nil
	}
	var msgs []storage.Message
	for i, m := range append(slices.Clip([]model.Message(r.state.User)), carried...) {
		sm, err := r.stored(r.messageIDOf("input", i), m, nil)
		if err != nil {
			return err
		}
		msgs = append(msgs, sm)
	}
	return r.saveMessages(msgs)
}

// messageIDOf is the memory id of the run's message kind n ("input" i,
// "assistant" and "tool" of step n): the same however often it is saved.
func (r *run) messageIDOf(kind string, n int) string {
	return uuid.Derived(r.opts.runID, kind, strconv.Itoa(n))
}

// storageCtx is the context of the run's saves: the run's values, never
// its cancellation, so that a run stopped mid-way (a shutdown, a client
// gone) still saves what it has and stays recoverable.
func (r *run) storageCtx() context.Context { return context.WithoutCancel(r.ctx) }

// rememberStep saves a finished step's assistant message (replacing the
// suspended one, whose waiting entries are then gone) and tool results,
// under ids that derive from the step, so that a step saved again after a
// crash replaces its messages instead of adding copies.
func (r *run) rememberStep(step int, p *stepState, results []model.ToolResultPart) error {
	if !r.memoryWrites() {
		return nil
	}
	assistant, results := r.withoutWorkingMemoryCalls(p.Assistant, results)
	var msgs []storage.Message
	if len(assistant.Content) > 0 {
		am, err := r.stored(r.messageIDOf("assistant", step), r.transcribed(assistant), r.modelMeta(nil))
		if err != nil {
			return err
		}
		msgs = append(msgs, am)
	}
	if len(results) > 0 {
		tm, err := r.stored(r.messageIDOf("tool", step), r.transcribed(model.ToolMessage(results...)), nil)
		if err != nil {
			return err
		}
		msgs = append(msgs, tm)
	}
	if len(msgs) == 0 {
		return nil
	}
	return r.saveMessages(msgs)
}

// withoutWorkingMemoryCalls is a step's assistant message and tool
// results without the updateWorkingMemory calls and their results:
// memory keeps the document, not the calls that wrote it (as Mastra
// leaves them out of a thread's history).
func (r *run) withoutWorkingMemoryCalls(assistant model.Message, results []model.ToolResultPart) (model.Message, []model.ToolResultPart) {
	if r.agent.memoryTool == nil {
		return assistant, results
	}
	kept := assistant
	kept.Content = nil
	for _, p := range assistant.Content {
		if p.ToolCall == nil || p.ToolCall.ToolName != WorkingMemoryToolName {
			kept.Content = append(kept.Content, p)
		}
	}
	var rest []model.ToolResultPart
	for _, res := range results {
		if res.ToolName != WorkingMemoryToolName {
			rest = append(rest, res)
		}
	}
	return kept, rest
}

// transcribed returns m with the transcript transforms
// (transform.TargetTranscript: what a stored conversation shows of a tool
// payload) of its tool calls and results attached to their parts, under
// providerOptions.mastra.toolPayloadTransform; the payloads stay raw.
func (r *run) transcribed(m model.Message) model.Message {
	out := m
	out.Content = nil
	for _, p := range m.Content {
		var name, id string
		var tc transform.Context
		switch {
		case p.ToolCall != nil:
			name, id = p.ToolCall.ToolName, p.ToolCall.ToolCallID
			tc = transform.Context{Phase: transform.PhaseInputAvailable, Input: decodedArgs(p.ToolCall.Input)}
		case p.ToolResult != nil:
			name, id = p.ToolResult.ToolName, p.ToolResult.ToolCallID
			tc = transform.Context{Phase: transform.PhaseOutputAvailable, Input: decodedArgs(p.ToolResult.Input), Output: p.ToolResult.Output.Value}
			if p.ToolResult.Output.Type == model.OutputErrorText || p.ToolResult.Output.Type == model.OutputErrorJSON {
				tc.Phase, tc.Output, tc.Error = transform.PhaseError, nil, p.ToolResult.Output.Value
			}
		}
		t := r.kit.lookup(name)
		if !r.transforms(t) {
			out.Content = append(out.Content, p)
			continue
		}
		tc.Target, tc.ToolName, tc.ToolCallID = transform.TargetTranscript, name, id
		if res := transform.Apply(r.ctx, r.agent.cfg.Logger, r.policy, t.Transform(), tc); res != nil {
			md := transform.Metadata{transform.TargetTranscript: {tc.Phase: *res}}
			po := model.ProviderOptions{transform.MastraKey: {transform.MetadataKey: md}}
			if p.ToolCall != nil {
				c := *p.ToolCall
				c.ProviderOptions = po
				p.ToolCall = &c
			} else {
				tr := *p.ToolResult
				tr.ProviderOptions = po
				p.ToolResult = &tr
			}
		}
		out.Content = append(out.Content, p)
	}
	return out
}

// waitingEntry is one entry of an assistant message's suspendedTools or
// pendingToolApprovals metadata (what the stored assistant message says
// about the calls waiting for resume data or for approval), with
// transcript transforms applied to what it shows.
type waitingEntry struct {
	ToolCallID     string          `json:"toolCallId"`
	ToolName       string          `json:"toolName"`
	Args           any             `json:"args"`
	Type           string          `json:"type"`
	RunID          string          `json:"runId"`
	SuspendPayload any             `json:"suspendPayload,omitempty"`
	ResumeSchema   string          `json:"resumeSchema,omitempty"`
	Metadata       json.RawMessage `json:"metadata,omitempty"`
}

// rememberSuspended saves the suspended step's assistant message with the
// calls it waits for in its metadata.
func (r *run) rememberSuspended() error {
	p := r.state.Pending
	if !r.memoryWrites() || p == nil {
		return nil
	}
	suspended, approvals := map[string]waitingEntry{}, map[string]waitingEntry{}
	for _, c := range p.Calls {
		if !c.waiting() {
			continue
		}
		e := waitingEntry{ToolCallID: c.ID, ToolName: c.Name, Args: decodedArgs(c.Args), RunID: r.opts.runID, ResumeSchema: c.ResumeSchema}
		phase := transform.PhaseSuspend
		if c.Status == callApproval {
			e.Type, e.ResumeSchema, phase = "approval", stream.ApprovalResumeSchema, transform.PhaseApproval
		} else {
			e.Type = "suspension"
			if len(c.SuspendPayload) > 0 {
				e.SuspendPayload = c.SuspendPayload
			}
		}
		if t := r.kit.lookup(c.Name); r.transforms(t) {
			tc := transform.Context{Target: transform.TargetTranscript, Phase: phase, ToolName: c.Name, ToolCallID: c.ID, Input: e.Args, SuspendPayload: e.SuspendPayload}
			if res := transform.Apply(r.ctx, r.agent.cfg.Logger, r.policy, t.Transform(), tc); res != nil {
				if v, ok := res.Value(); ok {
					if phase == transform.PhaseApproval {
						e.Args = v
					} else {
						e.SuspendPayload = v
					}
				}
			}
		}
		if c.Status == callApproval {
			approvals[c.ID] = e
		} else {
			suspended[c.ID] = e
		}
	}
	meta := map[string]any{}
	if len(suspended) > 0 {
		meta["suspendedTools"] = suspended
	}
	if len(approvals) > 0 {
		meta["pendingToolApprovals"] = approvals
	}
	am, err := r.stored(r.messageIDOf("assistant", r.state.Step), p.Assistant, r.modelMeta(meta))
	if err != nil {
		return err
	}
	return r.saveMessages([]storage.Message{am})
}

// modelMeta is meta with the step's model, as Mastra keeps it with an
// assistant message: modelId and provider.
func (r *run) modelMeta(meta map[string]any) map[string]any {
	m := r.models.step
	if m == nil {
		m = r.models.base
	}
	if m == nil {
		return meta
	}
	if meta == nil {
		meta = map[string]any{}
	}
	meta["modelId"], meta["provider"] = m.ModelID(), m.Provider()
	return meta
}

// stored is m as memory stores it.
func (r *run) stored(id string, m model.Message, meta map[string]any) (storage.Message, error) {
	content, err := json.Marshal(m)
	if err != nil {
		return storage.Message{}, fmt.Errorf("memory: encoding message: %w", err)
	}
	sm := storage.Message{ID: id, ThreadID: r.opts.threadID, ResourceID: r.opts.resourceID, Role: string(m.Role), Content: content, CreatedAt: r.engine.Now().UTC()}
	if meta != nil {
		if sm.Metadata, err = json.Marshal(meta); err != nil {
			return storage.Message{}, fmt.Errorf("memory: encoding message metadata: %w", err)
		}
	}
	return sm, nil
}

func (r *run) saveMessages(msgs []storage.Message) error {
	err := r.engine.Save(r.storageCtx(), func(ctx context.Context) error {
		if err := r.agent.cfg.Storage.SaveMessages(ctx, msgs); err != nil {
			return err
		}
		r.agent.embedMessages(ctx, msgs)
		return nil
	})
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return nil
}
