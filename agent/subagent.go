package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// subAgentInputSchema is the model-facing input of agent-<key> tools,
// Mastra's: a required prompt and optional threadId, resourceId,
// instructions and maxSteps (at least 3).
var subAgentInputSchema = schema.MustFromJSON([]byte(`{
  "type": "object",
  "properties": {
    "prompt": {"type": "string"},
    "threadId": {"type": ["string", "null"]},
    "resourceId": {"type": ["string", "null"]},
    "instructions": {"type": ["string", "null"]},
    "maxSteps": {"type": ["integer", "null"], "minimum": 3}
  },
  "required": ["prompt"]
}`))

// SubAgentInput is what the model passes to an agent-<key> tool.
type SubAgentInput struct {
	Prompt       string  `json:"prompt"`
	ThreadID     *string `json:"threadId,omitempty"`
	ResourceID   *string `json:"resourceId,omitempty"`
	Instructions *string `json:"instructions,omitempty"`
	MaxSteps     *int    `json:"maxSteps,omitempty"`
}

// SubAgentToolResult is one tool result of the sub-agent's run.
type SubAgentToolResult struct {
	ToolName   string          `json:"toolName"`
	ToolCallID string          `json:"toolCallId"`
	Result     any             `json:"result"`
	Args       json.RawMessage `json:"args,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
}

// SubAgentOutput is an agent-<key> tool's result.
type SubAgentOutput struct {
	Text                string               `json:"text"`
	SubAgentThreadID    string               `json:"subAgentThreadId,omitempty"`
	SubAgentResourceID  string               `json:"subAgentResourceId,omitempty"`
	SubAgentToolResults []SubAgentToolResult `json:"subAgentToolResults,omitempty"`
	// SubAgentPendingToolCalls are the client-tool calls the sub-agent
	// stopped on: it cannot run them, so the parent (or its client) must.
	SubAgentPendingToolCalls []SubAgentToolCall `json:"subAgentPendingToolCalls,omitempty"`
	FinishReason             model.FinishReason `json:"finishReason,omitempty"`
	Usage                    *model.Usage       `json:"usage,omitempty"`
}

// SubAgentToolCall is a tool call of the sub-agent's run.
type SubAgentToolCall struct {
	ToolName   string          `json:"toolName"`
	ToolCallID string          `json:"toolCallId"`
	Args       json.RawMessage `json:"args"`
}

// AgentTool turns sub into the tool a parent agent offers as "agent-<key>",
// as Mastra's agent tools work: the model sends a prompt; the sub-agent
// runs on it with the parent's conversation as context (tool calls and
// results left out), a copy of the request context without the memory keys,
// a thread and resource of its own derived from the parent's (one thread per
// parent thread, which every call from it continues; calls that run side by
// side in this process take turns on it), and at most
// its own maxSteps (a model-given maxSteps can lower it, never raise it;
// the model's threadId and resourceId are ignored). Its chunks stream
// through the parent as tool-output chunks (data-* chunks pass as they
// are), and the model sees only its text.
func AgentTool(key string, sub *Agent) *tools.Tool {
	description := sub.cfg.Description
	if description == "" {
		description = "Agent: " + key
	}
	return tools.New(tools.Config[SubAgentInput, SubAgentOutput]{
		ID:          "agent-" + key,
		Description: description,
		InputSchema: subAgentInputSchema,
		MCP:         &tools.MCPOptions{ToolType: "agent"},
		ToModelOutput: func(_ context.Context, out SubAgentOutput) (*model.ToolResultOutput, error) {
			o := model.TextOutput(out.Text)
			return &o, nil
		},
		Execute: func(ctx tools.Context, in SubAgentInput) (SubAgentOutput, error) {
			return runSubAgent(ctx, key, sub, in)
		},
	})
}

// runSubAgent runs sub on the model's prompt as the agent-<key> tool's
// call: in a thread of its own, with the parent's conversation as
// context, its chunks streamed through the call's writer; a resumed call
// resumes the sub-agent's suspended run instead.
func runSubAgent(ctx tools.Context, key string, sub *Agent, in SubAgentInput) (SubAgentOutput, error) {
	threadID, resourceID := subAgentMemory(ctx, key)
	// Parallel calls from one parent thread continue one sub-thread: they
	// take turns, each seeing the conversation the previous one left.
	unlock, err := sub.subThreads.lock(ctx, threadID)
	if err != nil {
		return SubAgentOutput{}, err
	}
	defer unlock()
	opts := []Option{
		WithRequestContext(subAgentRequestContext(ctx.RequestContext())),
		WithContextMessages(forwardedHistory(ctx.Messages())...),
		WithMemory(threadID, resourceID),
	}
	if in.MaxSteps != nil && *in.MaxSteps < sub.cfg.MaxSteps {
		opts = append(opts, WithMaxSteps(*in.MaxSteps))
	}
	if in.Instructions != nil && *in.Instructions != "" {
		opts = append(opts, WithInstructions(*in.Instructions))
	}
	if sub.launcher.get() != nil {
		// A launched sub-run's id derives from the call, so that the
		// call tried again (its worker lost) follows the same run.
		opts = append(opts, WithRunID(tools.SubRunID(ctx.RunID(), "agent-"+key, ctx.ToolCallID())))
	}
	fail := func(err error) (SubAgentOutput, error) {
		return SubAgentOutput{}, &SubAgentError{Parent: parentID(ctx), Key: key, ThreadID: threadID, Err: err}
	}
	chunks := sub.Stream(ctx, in.Prompt, opts...)
	if data := ctx.ResumeData(); data != nil && ctx.Agent() != nil && ctx.Agent().SuspendedToolRunID != "" {
		// The sub-agent's run waited for this resume: it goes on, in its
		// own thread.
		chunks = sub.ResumeStream(ctx, ctx.Agent().SuspendedToolRunID, data, WithRequestContext(subAgentRequestContext(ctx.RequestContext())))
	}
	col := subAgentRun{out: SubAgentOutput{SubAgentThreadID: threadID, SubAgentResourceID: resourceID}, answered: map[string]bool{}}
	for c, err := range chunks {
		if err != nil {
			return fail(err)
		}
		if err := col.take(ctx, c); err != nil {
			var failed *subAgentFailure
			if errors.As(err, &failed) {
				return fail(err)
			}
			return SubAgentOutput{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if col.waiting != nil {
		return SubAgentOutput{}, suspendForSubAgent(ctx, *col.waiting)
	}
	return col.output(), nil
}

// subAgentFailure is a sub-agent run that failed (its error chunk).
type subAgentFailure struct{ msg string }

func (f *subAgentFailure) Error() string { return f.msg }

// subAgentRun collects what a sub-agent's stream says: its text, the
// calls it made and which were answered, a call that waits, its finish.
type subAgentRun struct {
	out      SubAgentOutput
	text     []byte
	calls    []SubAgentToolCall
	answered map[string]bool
	waiting  *stream.Chunk
}

// take passes c on through the call's writer and notes what it says.
func (s *subAgentRun) take(ctx tools.Context, c stream.Chunk) error {
	if c.IsData() {
		return ctx.Writer().Custom(tools.DataChunk{Type: c.Type, Data: c.Data, ID: c.ID, Transient: c.Transient})
	}
	if err := ctx.Writer().Write(c); err != nil {
		return err
	}
	switch p := c.Payload.(type) {
	case stream.TextPayload:
		if c.Type == stream.TypeTextDelta {
			s.text = append(s.text, p.Text...)
		}
	case stream.ToolCallPayload:
		s.calls = append(s.calls, SubAgentToolCall{ToolName: p.ToolName, ToolCallID: p.ToolCallID, Args: argsOrEmpty(p.Args)})
	case stream.ToolResultPayload:
		s.answered[p.ToolCallID] = true
		s.out.SubAgentToolResults = append(s.out.SubAgentToolResults, SubAgentToolResult{ToolName: p.ToolName, ToolCallID: p.ToolCallID, Result: p.Result, Args: p.Args})
	case stream.ToolErrorPayload:
		s.answered[p.ToolCallID] = true
		s.out.SubAgentToolResults = append(s.out.SubAgentToolResults, SubAgentToolResult{ToolName: p.ToolName, ToolCallID: p.ToolCallID, Result: p.Error, Args: p.Args, IsError: true})
	case stream.ErrorPayload:
		return &subAgentFailure{msg: fmt.Sprintf("%v", errorMessage(p.Error))}
	case stream.ToolCallApprovalPayload, stream.ToolCallSuspendedPayload:
		w := c
		s.waiting = &w
	case stream.FinishPayload:
		if c.Type == stream.TypeFinish {
			s.out.FinishReason = p.StepResult.Reason
			usage := p.Output.Usage
			s.out.Usage = &usage
		}
	}
	if c.Type == stream.TypeStepStart {
		s.text = s.text[:0]
	}
	return nil
}

// output is the sub-agent's answer: its last step's text and the calls it
// left unanswered (client tools).
func (s *subAgentRun) output() SubAgentOutput {
	for _, c := range s.calls {
		if !s.answered[c.ToolCallID] {
			s.out.SubAgentPendingToolCalls = append(s.out.SubAgentPendingToolCalls, c)
		}
	}
	s.out.Text = string(s.text)
	return s.out
}

// suspendForSubAgent suspends the agent tool's call because the sub-agent's
// run waits (for approval or for resume data): the call's suspend payload
// is the sub-agent's waiting chunk payload (its own tool's name, args and
// request), its resume schema the sub-agent's, and resuming the call
// resumes the sub-agent's run with the same data (an approval decision for
// an approval).
func suspendForSubAgent(ctx tools.Context, waiting stream.Chunk) error {
	opts := []tools.SuspendOption{tools.WithRunID(waiting.RunID)}
	switch p := waiting.Payload.(type) {
	case stream.ToolCallApprovalPayload:
		opts = append(opts, tools.WithToolApproval(), tools.WithResumeSchema(p.ResumeSchema))
	case stream.ToolCallSuspendedPayload:
		if p.ResumeSchema != "" {
			opts = append(opts, tools.WithResumeSchema(p.ResumeSchema))
		}
	}
	return ctx.Suspend(map[string]any{"type": waiting.Type, "payload": waiting.Payload}, opts...)
}

// SubAgentError is an agent-<key> tool's failure (Mastra's
// AGENT_AGENT_TOOL_EXECUTION_FAILED): the sub-agent's run failed or was
// cancelled.
type SubAgentError struct {
	Parent, Key string
	// ThreadID is the sub-agent's thread.
	ThreadID string
	Err      error
}

func (e *SubAgentError) Error() string {
	return fmt.Sprintf("[Agent:%s] - Failed agent tool execution for %s: %v", e.Parent, e.Key, e.Err)
}

func (e *SubAgentError) Unwrap() error { return e.Err }

// forwardedHistory is the parent's conversation as the sub-agent gets it:
// without tool calls and tool results, and without the messages left
// empty by their removal.
func forwardedHistory(msgs []any) []model.Message {
	var out []model.Message
	for _, v := range msgs {
		m, ok := v.(model.Message)
		if !ok || m.Role == model.RoleTool || m.Role == model.RoleSystem {
			continue
		}
		var parts []model.Part
		for _, p := range m.Content {
			if p.Type != model.MessageToolCall && p.Type != model.MessageToolResult {
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			continue
		}
		m.Content = parts
		out = append(out, m)
	}
	return out
}

// subAgentRequestContext copies the parent's request context without the
// memory keys.
func subAgentRequestContext(rc *tools.RequestContext) *tools.RequestContext {
	entries := map[string]any{}
	if rc != nil {
		entries = rc.All()
	}
	delete(entries, tools.ThreadIDKey)
	delete(entries, tools.ResourceIDKey)
	delete(entries, tools.MemoryKey)
	return tools.NewRequestContext(entries)
}

// subAgentMemory derives the sub-agent's thread and resource. With a
// parent thread, the thread is the same on every delegation to key from
// that thread (in one run or later ones), so the sub-agent continues its
// own conversation there: "<parent thread>-<key>-<digest>", the digest
// (subThreadDigest) telling apart parent threads and resources whose
// joined names would coincide. Without a parent thread, every delegation
// gets a new thread. The resource is "<parent resource>-<key>" (else
// "<parent agent id, slugged>-<key>", else a new id).
func subAgentMemory(ctx tools.Context, key string) (threadID, resourceID string) {
	rc := ctx.RequestContext()
	parentResource, hasResource := stringEntry(rc, tools.ResourceIDKey)
	threadID = newID()
	if parent, ok := stringEntry(rc, tools.ThreadIDKey); ok {
		threadID = parent + "-" + key + "-" + subThreadDigest(parentResource, parent, key)
	}
	switch {
	case hasResource:
		resourceID = parentResource + "-" + key
	case parentID(ctx) != "":
		resourceID = slug(parentID(ctx)) + "-" + key
	default:
		resourceID = newID()
	}
	return threadID, resourceID
}

// subThreadDigest is 16 hex digits of the SHA-256 of the parent's
// resource, thread and the sub-agent's key, each length-prefixed.
func subThreadDigest(resource, thread, key string) string {
	h := sha256.New()
	for _, s := range []string{resource, thread, key} {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func stringEntry(rc *tools.RequestContext, key string) (string, bool) {
	if rc == nil {
		return "", false
	}
	v, _ := rc.Get(key)
	s, ok := v.(string)
	return s, ok && s != ""
}

// slug lower-cases s and turns runs of other characters than letters and
// digits into single dashes.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}

// errorMessage is the message of an error chunk's error.
func errorMessage(e any) string {
	switch t := e.(type) {
	case *RunError:
		return t.Message
	case map[string]any:
		if m, ok := t["message"].(string); ok {
			return m
		}
	case error:
		return t.Error()
	}
	return fmt.Sprint(e)
}

func parentID(ctx tools.Context) string {
	if a := ctx.Agent(); a != nil {
		return a.AgentID
	}
	return ""
}
