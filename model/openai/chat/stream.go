package chat

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// chunk is a chat.completion.chunk: the members the model reads, decoded
// with encoding/json (the SDK's ChatCompletionChunk decodes every member
// of the API through reflection, the bulk of a step's time).
type chunk struct {
	core.ErrorField
	ID      string   `json:"id"`
	Model   string   `json:"model"`
	Created core.Int `json:"created"`
	Choices []choice `json:"choices"`
	Usage   *usage   `json:"usage"`
}

type choice struct {
	FinishReason core.OptString `json:"finish_reason"`
	Delta        delta          `json:"delta"`
}

type delta struct {
	Content core.OptString `json:"content"`
	// ReasoningContent (DeepSeek, vLLM) and Reasoning (OpenRouter, Groq)
	// are what OpenAI-compatible servers stream reasoning as.
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    core.Int `json:"index"`
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens        core.Int `json:"prompt_tokens"`
	CompletionTokens    core.Int `json:"completion_tokens"`
	TotalTokens         core.Int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens core.Int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens          core.Int  `json:"reasoning_tokens"`
		AcceptedPredictionTokens *core.Int `json:"accepted_prediction_tokens"`
		RejectedPredictionTokens *core.Int `json:"rejected_prediction_tokens"`
	} `json:"completion_tokens_details"`
}

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
	toolCalls       map[core.Int]*chatToolCall
	order           []core.Int // tool call indices in order of appearance
	finishReason    model.FinishReason
	rawFinish       string
	usage           model.Usage
	meta            map[string]any
}

func newState(metaKey string) *state {
	return &state{
		metaKey: metaKey, first: true, toolCalls: map[core.Int]*chatToolCall{},
		finishReason: model.FinishUnknown, meta: map[string]any{},
	}
}

// chunk handles one chunk; false means stop (the consumer stopped or an
// error part ended the stream).
func (s *state) chunk(c *chunk, yield core.Yield) bool {
	if s.first {
		s.first = false
		md := &model.ResponseMetadata{ID: c.ID, ModelID: c.Model}
		if c.Created != 0 {
			md.Timestamp = time.Unix(int64(c.Created), 0).UTC()
		}
		if !yield(model.StreamPart{Type: model.PartResponseMetadata, Response: md}, nil) {
			return false
		}
	}
	if u := c.Usage; u != nil {
		s.usage = model.Usage{
			InputTokens:       int(u.PromptTokens),
			OutputTokens:      int(u.CompletionTokens),
			TotalTokens:       int(u.TotalTokens),
			ReasoningTokens:   int(u.CompletionTokensDetails.ReasoningTokens),
			CachedInputTokens: int(u.PromptTokensDetails.CachedTokens),
		}
		if n := u.CompletionTokensDetails.AcceptedPredictionTokens; n != nil {
			s.meta["acceptedPredictionTokens"] = int(*n)
		}
		if n := u.CompletionTokensDetails.RejectedPredictionTokens; n != nil {
			s.meta["rejectedPredictionTokens"] = int(*n)
		}
	}
	if len(c.Choices) == 0 {
		return true
	}
	ch := &c.Choices[0]
	if ch.FinishReason.Valid {
		s.rawFinish = ch.FinishReason.Value
		s.finishReason = mapFinishReason(ch.FinishReason.Value)
	}
	d := &ch.Delta

	// reasoning_content first, then reasoning; null or empty is none.
	if r := cmp.Or(d.ReasoningContent, d.Reasoning); r != "" {
		if !s.reasoningActive {
			s.reasoningActive = true
			if !yield(model.StreamPart{Type: model.PartReasoningStart, ID: reasoningID}, nil) {
				return false
			}
		}
		if !yield(model.StreamPart{Type: model.PartReasoningDelta, ID: reasoningID, Delta: r}, nil) {
			return false
		}
	}

	if d.Content.Valid {
		if !s.textActive {
			s.textActive = true
			if !yield(model.StreamPart{Type: model.PartTextStart, ID: textID}, nil) {
				return false
			}
		}
		if !yield(model.StreamPart{Type: model.PartTextDelta, ID: textID, Delta: d.Content.Value}, nil) {
			return false
		}
	}

	for i := range d.ToolCalls {
		tc := &d.ToolCalls[i]
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
		if mayBeComplete(call.args) && json.Valid(call.args) {
			if !s.finishCall(call, yield) {
				return false
			}
		}
	}
	return true
}

// mayBeComplete is false for arguments json.Valid would refuse at a
// glance: an object or array not closed yet. It spares re-validating
// the whole of a long argument text after each of its deltas.
func mayBeComplete(args []byte) bool {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case '{':
		return args[len(args)-1] == '}'
	case '[':
		return args[len(args)-1] == ']'
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
