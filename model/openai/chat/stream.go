package chat

import (
	"encoding/json"
	"fmt"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// Part ids the AI SDK's chat provider uses for its single text and
// reasoning blocks.
const (
	textID      = "0"
	reasoningID = "reasoning-0"
)

type chatToolCall struct {
	id, name string
	args     []byte
	finished bool
}

// state turns Chat Completions chunks into stream parts as the AI SDK's
// OpenAIChatLanguageModel.doStream does.
type state struct {
	metaKey         string
	first           bool
	textActive      bool
	reasoningActive bool
	toolCalls       map[int64]*chatToolCall
	order           []int64 // tool call indices in order of appearance
	finishReason    model.FinishReason
	rawFinish       string
	usage           model.Usage
	meta            map[string]any
}

func newState(metaKey string) *state {
	return &state{
		metaKey: metaKey, first: true, toolCalls: map[int64]*chatToolCall{},
		finishReason: model.FinishUnknown, meta: map[string]any{},
	}
}

// chunk handles one chunk; false means stop (the consumer stopped or an
// error part ended the stream).
func (s *state) chunk(c sdk.ChatCompletionChunk, yield core.Yield) bool {
	if s.first {
		s.first = false
		md := &model.ResponseMetadata{ID: c.ID, ModelID: c.Model}
		if c.Created != 0 {
			md.Timestamp = time.Unix(c.Created, 0).UTC()
		}
		if !yield(model.StreamPart{Type: model.PartResponseMetadata, Response: md}, nil) {
			return false
		}
	}
	if c.JSON.Usage.Valid() {
		u := c.Usage
		s.usage = model.Usage{
			InputTokens:       int(u.PromptTokens),
			OutputTokens:      int(u.CompletionTokens),
			TotalTokens:       int(u.TotalTokens),
			ReasoningTokens:   int(u.CompletionTokensDetails.ReasoningTokens),
			CachedInputTokens: int(u.PromptTokensDetails.CachedTokens),
		}
		if u.CompletionTokensDetails.JSON.AcceptedPredictionTokens.Valid() {
			s.meta["acceptedPredictionTokens"] = int(u.CompletionTokensDetails.AcceptedPredictionTokens)
		}
		if u.CompletionTokensDetails.JSON.RejectedPredictionTokens.Valid() {
			s.meta["rejectedPredictionTokens"] = int(u.CompletionTokensDetails.RejectedPredictionTokens)
		}
	}
	if len(c.Choices) == 0 {
		return true
	}
	ch := c.Choices[0]
	if ch.JSON.FinishReason.Valid() {
		s.rawFinish = ch.FinishReason
		s.finishReason = mapFinishReason(ch.FinishReason)
	}
	d := ch.Delta

	// reasoning_content (DeepSeek, vLLM) / reasoning (OpenRouter, Groq):
	// what OpenAI-compatible servers stream reasoning as.
	for _, key := range []string{"reasoning_content", "reasoning"} {
		// Extra fields are never Valid (the SDK has no type for them);
		// their raw JSON is kept.
		f, ok := d.JSON.ExtraFields[key]
		if !ok {
			continue
		}
		var r string
		if json.Unmarshal([]byte(f.Raw()), &r) != nil || r == "" {
			continue
		}
		if !s.reasoningActive {
			s.reasoningActive = true
			if !yield(model.StreamPart{Type: model.PartReasoningStart, ID: reasoningID}, nil) {
				return false
			}
		}
		if !yield(model.StreamPart{Type: model.PartReasoningDelta, ID: reasoningID, Delta: r}, nil) {
			return false
		}
		break
	}

	if d.JSON.Content.Valid() {
		if !s.textActive {
			s.textActive = true
			if !yield(model.StreamPart{Type: model.PartTextStart, ID: textID}, nil) {
				return false
			}
		}
		if !yield(model.StreamPart{Type: model.PartTextDelta, ID: textID, Delta: d.Content}, nil) {
			return false
		}
	}

	for _, tc := range d.ToolCalls {
		call := s.toolCalls[tc.Index]
		if call == nil {
			if tc.Type != "" && tc.Type != "function" {
				return s.fail(fmt.Errorf("openai: invalid response: expected a 'function' tool call, got type %q", tc.Type), yield)
			}
			if tc.ID == "" {
				return s.fail(fmt.Errorf("openai: invalid response: tool call %d has no 'id'", tc.Index), yield)
			}
			if tc.Function.Name == "" {
				return s.fail(fmt.Errorf("openai: invalid response: tool call %d has no 'function.name'", tc.Index), yield)
			}
			call = &chatToolCall{id: tc.ID, name: tc.Function.Name}
			s.toolCalls[tc.Index] = call
			s.order = append(s.order, tc.Index)
			if !yield(model.StreamPart{Type: model.PartToolInputStart, ID: call.id, ToolName: call.name}, nil) {
				return false
			}
		} else if call.finished {
			continue
		}
		if tc.Function.Arguments == "" {
			continue
		}
		call.args = append(call.args, tc.Function.Arguments...)
		if !yield(model.StreamPart{Type: model.PartToolInputDelta, ID: call.id, Delta: tc.Function.Arguments}, nil) {
			return false
		}
		if json.Valid(call.args) {
			if !s.finishCall(call, yield) {
				return false
			}
		}
	}
	return true
}

// finishCall ends a tool call's input and yields the tool call.
func (s *state) finishCall(call *chatToolCall, yield core.Yield) bool {
	call.finished = true
	if !yield(model.StreamPart{Type: model.PartToolInputEnd, ID: call.id}, nil) {
		return false
	}
	input := string(call.args)
	if input == "" {
		input = "{}"
	}
	return yield(model.StreamPart{Type: model.PartToolCall, ToolCallID: call.id, ToolName: call.name, Input: input}, nil)
}

func (s *state) fail(err error, yield core.Yield) bool {
	yield(model.StreamPart{Type: model.PartError, Err: err}, nil)
	return false
}

// flush ends open blocks and tool calls and yields the finish part.
func (s *state) flush(yield core.Yield) {
	if s.reasoningActive {
		if !yield(model.StreamPart{Type: model.PartReasoningEnd, ID: reasoningID}, nil) {
			return
		}
	}
	if s.textActive {
		if !yield(model.StreamPart{Type: model.PartTextEnd, ID: textID}, nil) {
			return
		}
	}
	for _, idx := range s.order {
		if call := s.toolCalls[idx]; !call.finished {
			if !s.finishCall(call, yield) {
				return
			}
		}
	}
	yield(model.StreamPart{
		Type: model.PartFinish, FinishReason: s.finishReason, RawFinishReason: s.rawFinish,
		Usage: s.usage, ProviderMetadata: model.ProviderMetadata{s.metaKey: s.meta},
	}, nil)
}

// mapFinishReason maps OpenAI's finish_reason as the AI SDK does.
func mapFinishReason(r string) model.FinishReason {
	switch r {
	case "stop":
		return model.FinishStop
	case "length":
		return model.FinishLength
	case "content_filter":
		return model.FinishContentFilter
	case "function_call", "tool_calls":
		return model.FinishToolCalls
	}
	return model.FinishUnknown
}
