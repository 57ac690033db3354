package aisdk

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// ChatOptions configure how chat requests are run and answered.
type ChatOptions struct {
	// Stream configures the UI message stream. Its LastMessageID is
	// taken from the request (the client's last message, when it is an
	// assistant message) unless set here.
	Stream StreamOptions
	// AgentOptions apply to every run before the request's own options
	// (Mastra's defaultOptions), for example agent.WithMaxSteps(5).
	AgentOptions []agent.Option
	// Resource is the caller's resource, as authentication established
	// it (server.AuthResource). When set it replaces any resource the
	// request names, is the request context's mastra__resourceId, and
	// threads and runs of other resources are refused (403).
	Resource string
}

// errResumeWithoutRun is Mastra's error for resume data without a run.
var errResumeWithoutRun = &RequestError{Status: http.StatusBadRequest, Message: "runId is required when resumeData is provided"}

// StreamChat answers one chat request with agent a and returns the
// response's UI message stream parts (Mastra's handleChatStream):
//
//   - with ResumeData (and RunID), the suspended run is resumed with it:
//     an approval ({"approved": bool, "reason"?}) or a suspended tool's
//     answer; the resumed run continues the message the client shows, so
//     no new start part is sent;
//   - with Stream.Version V6, approvals the client answered on tool parts
//     (state approval-responded, approval id "<runId>::<toolCallId>") in
//     a request ending with an assistant message are resumed, each in
//     turn, as one response;
//   - otherwise the messages are converted (ToModelMessages) and the agent
//     runs on them. A trailing assistant message is the message the
//     response continues (its id becomes the start part's messageId) or,
//     with Trigger "regenerate-message", the one it replaces (it is not
//     sent). With a memory thread that already holds messages, only the
//     messages after the last assistant message are sent (the thread has
//     the rest), or, when an assistant message ends the request, its last
//     step (the results of client-side tools).
//
// Problems found before the run starts are yielded as the first and only
// error: a *RequestError (400 bad request, 403 a thread or run of another
// resource, 409 a run being resumed elsewhere) or the agent's own error
// (an *agent.RunError: no such run, a call that is not waiting). The run
// is cancelled when ctx is, or when the caller stops iterating.
func StreamChat(ctx context.Context, a *agent.Agent, req *ChatRequest, opts ChatOptions) iter.Seq2[Part, error] {
	return streamChat(ctx, a, req, opts, boundRuns)
}

// chatRuns are how a chat's runs go: its new runs (start) and its
// resumes (resume).
type chatRuns struct {
	start  newRunFunc
	resume resumeFunc
}

// boundRuns are runs bound to the request: they stop when it ends.
var boundRuns = chatRuns{start: boundRun, resume: boundResume}

// resumeFunc resumes the run runID with data and returns its chunks.
type resumeFunc func(ctx context.Context, a *agent.Agent, runID string, data json.RawMessage, opts []agent.Option) iter.Seq2[stream.Chunk, error]

// boundResume is the agent's resumed stream, bound to ctx and its reader.
func boundResume(ctx context.Context, a *agent.Agent, runID string, data json.RawMessage, opts []agent.Option) iter.Seq2[stream.Chunk, error] {
	return a.ResumeStream(ctx, runID, data, opts...)
}

// newRunFunc starts a chat's new run on input with opts and returns its
// chunks; chat tells which thread, resource and message the run answers.
type newRunFunc func(ctx context.Context, a *agent.Agent, input []model.Message, opts []agent.Option, chat activeStream) iter.Seq2[stream.Chunk, error]

// boundRun is the agent's stream, bound to ctx and to its reader.
func boundRun(ctx context.Context, a *agent.Agent, input []model.Message, opts []agent.Option, _ activeStream) iter.Seq2[stream.Chunk, error] {
	return a.Stream(ctx, input, opts...)
}

// streamChat is StreamChat with the way runs go: runs.
func streamChat(ctx context.Context, a *agent.Agent, req *ChatRequest, opts ChatOptions, runs chatRuns) iter.Seq2[Part, error] {
	return func(yield func(Part, error) bool) {
		if req == nil || a == nil {
			yield(Part{}, &RequestError{Status: http.StatusBadRequest, Message: "a chat needs an agent and a request"})
			return
		}
		if len(req.ResumeData) > 0 && req.RunID == "" {
			yield(Part{}, errResumeWithoutRun)
			return
		}
		msgs := req.Messages
		sopts := opts.Stream
		last := len(msgs) - 1
		if last >= 0 && msgs[last].Role == "assistant" {
			if sopts.LastMessageID == "" {
				sopts.LastMessageID = msgs[last].ID
			}
			if req.Trigger == "regenerate-message" {
				msgs = msgs[:last]
			}
		}
		runOpts, mem, err := runOptions(ctx, a, req, opts)
		if err != nil {
			yield(Part{}, err)
			return
		}
		var approvals []NativeApproval
		if sopts.v6() && len(req.ResumeData) == 0 && req.Trigger != "regenerate-message" && last >= 0 && req.Messages[last].Role == "assistant" {
			approvals = NativeApprovals(req.Messages)
		}
		var parts iter.Seq2[Part, error]
		switch {
		case len(req.ResumeData) > 0:
			chunks := resumeChunks(ctx, a, runs.resume, req.RunID, req.ToolCallID, req.ResumeData, opts.Resource, resumeOptions(req, opts))
			parts = ToUIStream(chunks, sopts)
		case len(approvals) > 0:
			parts = approvalResumes(ctx, a, runs.resume, approvals, opts.Resource, resumeOptions(req, opts), sopts)
		default:
			if len(msgs) == 0 {
				yield(Part{}, invalidBody(Issue{Field: "messages", Message: ErrNoMessages.Error()}))
				return
			}
			if req.Memory != nil && threadHasMessages(ctx, a, req.Memory.Thread) {
				msgs = newMessages(msgs)
			}
			input, err := ToModelMessages(msgs)
			if err != nil {
				var me *MessageError
				if errors.As(err, &me) {
					err = invalidBody(Issue{Field: me.Field, Message: me.Message})
				}
				yield(Part{}, err)
				return
			}
			mem.MessageID = sopts.LastMessageID
			parts = ToUIStream(runs.start(ctx, a, input, runOpts, mem), sopts)
		}
		for p, err := range parts {
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// runOptions are a new run's options: the defaults, then the request's
// run id, step limit, request context and memory (with the caller's
// resource in place of the request's, and the thread checked to be the
// caller's), and the thread and resource the run is for.
func runOptions(ctx context.Context, a *agent.Agent, req *ChatRequest, opts ChatOptions) ([]agent.Option, activeStream, error) {
	out := append([]agent.Option(nil), opts.AgentOptions...)
	out = append(out, agent.WithRequestContext(requestContext(req.RequestContext, opts.Resource)))
	if req.RunID != "" && len(req.ResumeData) == 0 {
		out = append(out, agent.WithRunID(req.RunID))
	}
	if req.MaxSteps > 0 {
		out = append(out, agent.WithMaxSteps(req.MaxSteps))
	}
	var mem activeStream
	if len(req.ResumeData) == 0 {
		var thread, resource string
		if req.Memory != nil {
			thread, resource = req.Memory.Thread, req.Memory.Resource
		}
		if opts.Resource != "" {
			resource = opts.Resource
			if thread != "" {
				if err := checkThreadOwner(ctx, a, thread, resource); err != nil {
					return nil, mem, err
				}
			}
		}
		if thread != "" || resource != "" {
			out = append(out, agent.WithMemory(thread, resource))
		}
		mem = activeStream{ThreadID: thread, ResourceID: resource}
	}
	return out, mem, nil
}

// resumeOptions are a resume's options: the defaults, the step limit,
// and a request context only when the request brings one (a resumed run
// otherwise keeps its own, and its memory).
func resumeOptions(req *ChatRequest, opts ChatOptions) []agent.Option {
	out := append([]agent.Option(nil), opts.AgentOptions...)
	if req.RequestContext != nil {
		out = append(out, agent.WithRequestContext(requestContext(req.RequestContext, opts.Resource)))
	}
	if req.MaxSteps > 0 {
		out = append(out, agent.WithMaxSteps(req.MaxSteps))
	}
	return out
}

// requestContext builds a run's request context from the client's
// entries without the reserved keys, plus the caller's resource.
func requestContext(entries map[string]any, resource string) *tools.RequestContext {
	clean := make(map[string]any, len(entries)+1)
	for k, v := range entries {
		if k != tools.ResourceIDKey && k != tools.ThreadIDKey {
			clean[k] = v
		}
	}
	rc := tools.NewRequestContext(clean)
	if resource != "" {
		_ = rc.Set(tools.ResourceIDKey, resource)
	}
	return rc
}

var errForbiddenThread = &RequestError{Status: http.StatusForbidden, Message: "Access denied: thread belongs to a different resource"}

// checkThreadOwner refuses (403) a thread of another resource than the
// caller's; a thread that does not exist yet is the caller's to create.
func checkThreadOwner(ctx context.Context, a *agent.Agent, threadID, resource string) error {
	err := a.CheckThreadResource(ctx, threadID, resource)
	if errors.Is(err, agent.ErrThreadOfAnotherResource) {
		return errForbiddenThread
	}
	return err
}

// threadHasMessages reports whether the agent's memory thread already
// holds messages.
func threadHasMessages(ctx context.Context, a *agent.Agent, threadID string) bool {
	st := a.Storage()
	if st == nil || threadID == "" {
		return false
	}
	msgs, err := st.ListMessages(ctx, threadID, 1)
	return err == nil && len(msgs) > 0
}

// newMessages are the messages a memory thread does not hold yet: those
// after the last assistant message or, when an assistant message is last
// (a continuation after client-side tools), its last step.
func newMessages(msgs []UIMessage) []UIMessage {
	last := -1
	for i := range msgs {
		if msgs[i].Role == "assistant" {
			last = i
		}
	}
	switch {
	case last < 0:
		return msgs
	case last < len(msgs)-1:
		return msgs[last+1:]
	}
	m := msgs[last]
	from := 0
	for i, p := range m.Parts {
		if p.Type == "step-start" {
			from = i + 1
		}
	}
	m.Parts = m.Parts[from:]
	return []UIMessage{m}
}

// withoutStart drops a resumed run's start chunk: the resumed run goes on
// in the message the client already shows (Mastra's resumed streams have
// no start).
func withoutStart(seq iter.Seq2[stream.Chunk, error]) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		first := true
		for c, err := range seq {
			if first && err == nil && c.Type == stream.TypeStart {
				first = false
				continue
			}
			first = false
			if !yield(c, err) {
				return
			}
		}
	}
}
