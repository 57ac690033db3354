package aisdk

import (
	"context"
	"encoding/json"
	"errors"
	"iter"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/resumegate"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/stream"
)

// resumeChunks resumes run runID with data (by resume), after checking
// that the run may be resumed by this caller (resumegate.Admit; a refusal
// is a *RequestError), and returns its chunks without their start chunk.
func resumeChunks(ctx context.Context, a *agent.Agent, resume resumeFunc, runID, toolCallID string, data json.RawMessage, resource string, opts []agent.Option) iter.Seq2[stream.Chunk, error] {
	return func(yield func(stream.Chunk, error) bool) {
		adm, err := resumegate.Admit(ctx, a, "resumeStream", runID, toolCallID, resource)
		if err != nil {
			yield(stream.Chunk{}, refusalError(err))
			return
		}
		if adm.ToolCallID != "" {
			opts = append(opts[:len(opts):len(opts)], agent.WithToolCallID(adm.ToolCallID))
		}
		first := true
		for c, err := range withoutStart(resume(ctx, a, runID, data, opts)) {
			if err != nil && first && resumegate.ClaimedMeanwhile(err, adm) {
				err = refusalError(resumegate.Conflict(a, "resumeStream", runID))
			}
			first = false
			if !yield(c, err) {
				return
			}
		}
	}
}

// refusalError turns a resumegate.Refusal into the *RequestError it
// stands for; other errors are returned as they are.
func refusalError(err error) error {
	var ref *resumegate.Refusal
	if errors.As(err, &ref) {
		return &RequestError{Status: ref.Status, Message: ref.Message}
	}
	return err
}

// NativeApproval is a person's answer to an approval request, as an AI
// SDK v6 client sends it back on the tool part (state
// approval-responded): the run and call it is for, and the resume data
// {"approved": bool, "reason"?}.
type NativeApproval struct {
	RunID, ToolCallID string
	ResumeData        json.RawMessage
}

// NativeApprovals collects the answered approvals of a v6 request's
// assistant messages, by their "<runId>::<toolCallId>" approval ids, in
// request order; an answer repeated in the history counts once (the last
// copy wins). Parts whose approval id does not name their own tool call
// are stale or malformed and skipped.
func NativeApprovals(msgs []UIMessage) []NativeApproval {
	var out []NativeApproval
	index := map[string]int{}
	for _, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		for _, p := range m.Parts {
			if !p.IsTool() || p.State != StateApprovalResponded || p.Approval == nil || p.Approval.Approved == nil {
				continue
			}
			runID, callID, ok := splitApprovalID(p.Approval.ID)
			if !ok || callID != p.ToolCallID {
				continue
			}
			data := map[string]any{"approved": *p.Approval.Approved}
			if p.Approval.Reason != "" {
				data["reason"] = p.Approval.Reason
			}
			raw, err := json.Marshal(data)
			if err != nil {
				continue
			}
			a := NativeApproval{RunID: runID, ToolCallID: callID, ResumeData: raw}
			key := runID + approvalIDSeparator + callID
			if i, seen := index[key]; seen {
				out[i] = a
				continue
			}
			index[key] = len(out)
			out = append(out, a)
		}
	}
	return out
}

// splitApprovalID splits "<runId>::<toolCallId>" at the last separator.
func splitApprovalID(id string) (runID, callID string, ok bool) {
	for i := len(id) - len(approvalIDSeparator); i >= 0; i-- {
		if id[i:i+len(approvalIDSeparator)] == approvalIDSeparator {
			runID, callID = id[:i], id[i+len(approvalIDSeparator):]
			return runID, callID, runID != "" && callID != ""
		}
	}
	return "", "", false
}

// approvalResumes resumes each answered approval in turn and makes one
// response of them: one start part, the resumed runs' parts, and the last
// run's finish. An approval whose call no longer waits (answered before,
// history resent) is skipped; when none of them could be resumed, the
// first such error is the response's error.
func approvalResumes(ctx context.Context, a *agent.Agent, resume resumeFunc, approvals []NativeApproval, resource string, opts []agent.Option, sopts StreamOptions) iter.Seq2[Part, error] {
	return func(yield func(Part, error) bool) {
		started, resumed := false, 0
		var skipped error
		var finish *Part
		start := func() bool {
			if started || sopts.OmitStart {
				return true
			}
			started = true
			return yield(Part{Type: PartStart, MessageID: sopts.LastMessageID}, nil)
		}
		for _, ap := range approvals {
			leg := ToUIStream(resumeChunks(ctx, a, resume, ap.RunID, ap.ToolCallID, ap.ResumeData, resource, opts), sopts)
			first, skip := true, false
			for p, err := range leg {
				if err != nil {
					if id := mastraerror.IDOf(err); first && (id == mastraerror.IDAgentResumeToolCallNotSuspended || id == mastraerror.IDAgentResumeNoSnapshotFound) {
						if skipped == nil {
							skipped = err
						}
						skip = true
						break
					}
					yield(Part{}, err)
					return
				}
				first = false
				switch p.Type {
				case PartStart:
					if started {
						continue
					}
					started = true
					if !yield(p, nil) {
						return
					}
					continue
				case PartFinish:
					f := p
					finish = &f
					continue
				}
				if !start() || !yield(p, nil) {
					return
				}
			}
			if !skip {
				resumed++
			}
		}
		if resumed == 0 && skipped != nil {
			yield(Part{}, skipped)
			return
		}
		if !start() {
			return
		}
		if !sopts.OmitFinish {
			if finish == nil {
				finish = &Part{Type: PartFinish}
			}
			yield(*finish, nil)
		}
	}
}
