// Package anthropic is a [model.LanguageModel] for Anthropic's Messages API,
// built on the official SDK (github.com/anthropics/anthropic-sdk-go/v2). It
// maps requests and the streamed response the way the AI SDK's Anthropic
// provider (@ai-sdk/anthropic, provider id "anthropic.messages") does.
package anthropic

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/gomastra/mastra/model"
)

// ProviderID is the AI SDK provider id of this model.
const ProviderID = "anthropic.messages"

// DefaultMaxTokens is sent as max_tokens (which the API requires) when the
// request does not set MaxOutputTokens.
const DefaultMaxTokens = 4096

// Config configures a Model.
type Config struct {
	// APIKey is the credential (the SDK sends it as "Authorization: Bearer"). Empty: the SDK's default
	// (the ANTHROPIC_API_KEY environment variable).
	APIKey string
	// BaseURL replaces https://api.anthropic.com/ (the SDK appends
	// "v1/messages").
	BaseURL string
	// Headers are sent with every request.
	Headers map[string]string
	// HTTPClient replaces the SDK's default client.
	HTTPClient *http.Client
	// MaxRetries overrides the SDK's retry count (2): retries of
	// connection errors, 408, 409, 429 and 5xx, honouring Retry-After.
	MaxRetries *int
}

// Model is an Anthropic Messages API model. It is safe for concurrent use.
type Model struct {
	modelID string
	client  sdk.Client
}

var _ model.LanguageModel = (*Model)(nil)

// New returns a model for modelID (e.g. "claude-sonnet-4-5").
func New(modelID string, cfg Config) (*Model, error) {
	if modelID == "" {
		return nil, errors.New("anthropic: empty model id")
	}
	var opts []option.RequestOption
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	if cfg.MaxRetries != nil {
		if *cfg.MaxRetries < 0 {
			return nil, fmt.Errorf("anthropic: negative MaxRetries %d", *cfg.MaxRetries)
		}
		opts = append(opts, option.WithMaxRetries(*cfg.MaxRetries))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	return &Model{modelID: modelID, client: sdk.NewClient(opts...)}, nil
}

// Providers returns this package's entry for a [model.Router]:
// "anthropic", keyed by ANTHROPIC_API_KEY, its base URL overridden by
// ANTHROPIC_BASE_URL.
//
//	r := model.NewRouter(os.Getenv, anthropic.Providers()...)
//	m, err := r.ResolveID("anthropic/claude-sonnet-4-5")
func Providers() []model.Provider {
	return []model.Provider{{
		Name: "anthropic", APIKeyEnv: "ANTHROPIC_API_KEY", BaseURLEnv: "ANTHROPIC_BASE_URL",
		New: func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
			m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers})
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}}
}

// Provider returns "anthropic.messages".
func (m *Model) Provider() string { return ProviderID }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.modelID }

// APIError is an error response of the API: an HTTP error status, or an
// "error" event in the middle of a stream (StatusCode is then the stream's
// own status, 200).
type APIError struct {
	StatusCode int
	// Type is Anthropic's error type, e.g. "invalid_request_error",
	// "overloaded_error".
	Type string
	// Message is Anthropic's error message (or the raw body when it was not
	// JSON).
	Message   string
	RequestID string
	// Err is the SDK's error (*anthropic.Error).
	Err error
}

func (e *APIError) Error() string {
	typ := e.Type
	if typ == "" {
		typ = "error"
	}
	if e.StatusCode >= 400 {
		return fmt.Sprintf("anthropic: HTTP %d %s: %s", e.StatusCode, typ, e.Message)
	}
	return fmt.Sprintf("anthropic: stream error %s: %s", typ, e.Message)
}

func (e *APIError) Unwrap() error { return e.Err }

// Transient reports whether the same call may succeed later
// (model.TransientError): an HTTP status of a rate limit, timeout or
// server error, or an error event of a stream whose type is one of
// those (rate_limit_error, overloaded_error, api_error).
func (e *APIError) Transient() bool {
	if e.StatusCode >= 400 {
		return model.TransientStatus(e.StatusCode)
	}
	switch e.Type {
	case "rate_limit_error", "overloaded_error", "api_error":
		return true
	}
	return false
}

// wrapError turns the SDK's API errors into *APIError.
func wrapError(err error) error {
	var ae *sdk.Error
	if !errors.As(err, &ae) {
		return fmt.Errorf("anthropic: %w", err)
	}
	msg := ae.Message
	if msg == "" {
		msg = ae.RawJSON()
	}
	return &APIError{StatusCode: ae.StatusCode, Type: string(ae.Type()), Message: msg, RequestID: ae.RequestID, Err: err}
}

// isStreamErrorEvent reports whether err came from an "error" event of a
// stream whose response was successful.
func isStreamErrorEvent(err error) bool {
	var ae *sdk.Error
	return errors.As(err, &ae) && ae.StatusCode < 400
}

// Stream sends the request and streams the response's parts. HTTP errors
// (after the SDK's retries) are returned as *APIError errors; an error event
// in the middle of the stream becomes an error part.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		if req == nil {
			req = &model.Request{}
		}
		params, opts, warnings, err := m.buildRequest(req)
		if err != nil {
			yield(model.StreamPart{}, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stream := m.client.Messages.NewStreaming(ctx, params, opts...)
		defer stream.Close()

		st := newStreamState()
		started := false
		start := func() bool {
			if started {
				return true
			}
			started = true
			return yield(model.StreamPart{Type: model.PartStreamStart, Warnings: warnings}, nil)
		}
		for stream.Next() {
			if !start() {
				return
			}
			for _, p := range st.handle(stream.Current()) {
				if !yield(p, nil) {
					return
				}
			}
			if st.done {
				return
			}
		}
		err = stream.Err()
		switch {
		case err == nil:
			// The stream ended without message_stop: finish with what
			// we have, as the AI SDK's flush does.
			if !start() {
				return
			}
			yield(st.finish(), nil)
		case ctx.Err() != nil:
			yield(model.StreamPart{}, ctx.Err())
		case started || isStreamErrorEvent(err):
			if !start() {
				return
			}
			yield(model.StreamPart{Type: model.PartError, Err: wrapError(err)}, nil)
		default:
			yield(model.StreamPart{}, wrapError(err))
		}
	}
}

// block is an open content block of the stream.
type block struct {
	kind  string // "text", "reasoning", "tool"
	id    string // tool_use id
	name  string
	input []byte
}

type streamState struct {
	blocks       map[int64]*block
	usage        model.Usage
	cacheCreate  int64
	finishReason model.FinishReason
	rawReason    string
	stopSequence string
	done         bool
}

func newStreamState() *streamState {
	return &streamState{blocks: map[int64]*block{}, finishReason: model.FinishUnknown}
}

func (s *streamState) handle(ev sdk.MessageStreamEventUnion) []model.StreamPart {
	idx := strconv.FormatInt(ev.Index, 10)
	switch ev.Type {
	case "message_start":
		msg := ev.Message
		s.usage.InputTokens = int(msg.Usage.InputTokens)
		s.usage.CachedInputTokens = int(msg.Usage.CacheReadInputTokens)
		s.cacheCreate = msg.Usage.CacheCreationInputTokens
		return []model.StreamPart{{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: msg.ID, ModelID: string(msg.Model)}}}
	case "content_block_start":
		cb := ev.ContentBlock
		switch cb.Type {
		case "text":
			s.blocks[ev.Index] = &block{kind: "text"}
			return []model.StreamPart{{Type: model.PartTextStart, ID: idx}}
		case "thinking":
			s.blocks[ev.Index] = &block{kind: "reasoning"}
			return []model.StreamPart{{Type: model.PartReasoningStart, ID: idx}}
		case "redacted_thinking":
			s.blocks[ev.Index] = &block{kind: "reasoning"}
			return []model.StreamPart{{Type: model.PartReasoningStart, ID: idx,
				ProviderMetadata: model.ProviderMetadata{"anthropic": {"redactedData": cb.Data}}}}
		case "tool_use":
			s.blocks[ev.Index] = &block{kind: "tool", id: cb.ID, name: cb.Name}
			return []model.StreamPart{{Type: model.PartToolInputStart, ID: cb.ID, ToolName: cb.Name}}
		case "server_tool_use":
			// Anthropic's own tools (web search): run by Anthropic, so
			// provider-executed.
			s.blocks[ev.Index] = &block{kind: "server", id: cb.ID, name: cb.Name}
			return []model.StreamPart{{Type: model.PartToolInputStart, ID: cb.ID, ToolName: cb.Name, ProviderExecuted: true}}
		case "web_search_tool_result":
			return webSearchResultParts(cb.ToolUseID, cb.Content)
		}
	case "content_block_delta":
		b := s.blocks[ev.Index]
		if b == nil {
			return nil
		}
		d := ev.Delta
		switch d.Type {
		case "text_delta":
			if b.kind == "text" {
				return []model.StreamPart{{Type: model.PartTextDelta, ID: idx, Delta: d.Text}}
			}
		case "thinking_delta":
			if b.kind == "reasoning" {
				return []model.StreamPart{{Type: model.PartReasoningDelta, ID: idx, Delta: d.Thinking}}
			}
		case "signature_delta":
			if b.kind == "reasoning" {
				return []model.StreamPart{{Type: model.PartReasoningDelta, ID: idx,
					ProviderMetadata: model.ProviderMetadata{"anthropic": {"signature": d.Signature}}}}
			}
		case "input_json_delta":
			if (b.kind == "tool" || b.kind == "server") && d.PartialJSON != "" {
				b.input = append(b.input, d.PartialJSON...)
				return []model.StreamPart{{Type: model.PartToolInputDelta, ID: b.id, Delta: d.PartialJSON}}
			}
		}
	case "content_block_stop":
		b := s.blocks[ev.Index]
		if b == nil {
			return nil
		}
		delete(s.blocks, ev.Index)
		switch b.kind {
		case "text":
			return []model.StreamPart{{Type: model.PartTextEnd, ID: idx}}
		case "reasoning":
			return []model.StreamPart{{Type: model.PartReasoningEnd, ID: idx}}
		case "tool", "server":
			input := string(b.input)
			if input == "" {
				input = "{}"
			}
			return []model.StreamPart{
				{Type: model.PartToolInputEnd, ID: b.id},
				{Type: model.PartToolCall, ToolCallID: b.id, ToolName: b.name, Input: input, ProviderExecuted: b.kind == "server"},
			}
		}
	case "message_delta":
		s.rawReason = string(ev.Delta.StopReason)
		s.finishReason = mapStopReason(s.rawReason)
		s.stopSequence = ev.Delta.StopSequence
		s.usage.OutputTokens = int(ev.Usage.OutputTokens)
		if ev.Usage.InputTokens > 0 {
			s.usage.InputTokens = int(ev.Usage.InputTokens)
		}
		if ev.Usage.CacheReadInputTokens > 0 {
			s.usage.CachedInputTokens = int(ev.Usage.CacheReadInputTokens)
		}
		if ev.Usage.CacheCreationInputTokens > 0 {
			s.cacheCreate = ev.Usage.CacheCreationInputTokens
		}
	case "message_stop":
		s.done = true
		return []model.StreamPart{s.finish()}
	}
	return nil
}

func (s *streamState) finish() model.StreamPart {
	u := s.usage
	u.TotalTokens = u.InputTokens + u.OutputTokens
	var stopSeq any
	if s.stopSequence != "" {
		stopSeq = s.stopSequence
	}
	return model.StreamPart{
		Type: model.PartFinish, FinishReason: s.finishReason, RawFinishReason: s.rawReason, Usage: u,
		ProviderMetadata: model.ProviderMetadata{"anthropic": {
			"cacheCreationInputTokens": int(s.cacheCreate),
			"stopSequence":             stopSeq,
		}},
	}
}

// mapStopReason maps Anthropic's stop_reason as the AI SDK does (but with
// "other" for unknown reasons).
func mapStopReason(r string) model.FinishReason {
	switch r {
	case "end_turn", "stop_sequence", "pause_turn":
		return model.FinishStop
	case "max_tokens", "model_context_window_exceeded":
		return model.FinishLength
	case "tool_use":
		return model.FinishToolCalls
	case "refusal":
		return model.FinishContentFilter
	case "":
		return model.FinishUnknown
	}
	return model.FinishOther
}

// webSearchResultParts is a web_search_tool_result block as the AI SDK
// reports it: a provider-executed tool result listing the results ({url,
// title, pageAge, encryptedContent, type}) and a url source for each, or
// an error result {type: "web_search_tool_result_error", errorCode}.
func webSearchResultParts(toolUseID string, c sdk.ContentBlockStartEventContentBlockUnionContent) []model.StreamPart {
	if c.OfWebSearchResultBlockArray == nil && c.ErrorCode != "" {
		return []model.StreamPart{{Type: model.PartToolResult, ToolCallID: toolUseID, ToolName: "web_search", ProviderExecuted: true, IsError: true,
			Result: map[string]any{"type": "web_search_tool_result_error", "errorCode": c.ErrorCode}}}
	}
	results := make([]map[string]any, 0, len(c.OfWebSearchResultBlockArray))
	sources := make([]model.StreamPart, 0, len(c.OfWebSearchResultBlockArray))
	for i, r := range c.OfWebSearchResultBlockArray {
		var pageAge any
		if r.PageAge != "" {
			pageAge = r.PageAge
		}
		results = append(results, map[string]any{"url": r.URL, "title": r.Title, "pageAge": pageAge, "encryptedContent": r.EncryptedContent, "type": string(r.Type)})
		sources = append(sources, model.StreamPart{Type: model.PartSource, Source: &model.Source{SourceType: "url", ID: toolUseID + "-" + strconv.Itoa(i), URL: r.URL, Title: r.Title},
			ProviderMetadata: model.ProviderMetadata{"anthropic": {"pageAge": pageAge}}})
	}
	return append([]model.StreamPart{{Type: model.PartToolResult, ToolCallID: toolUseID, ToolName: "web_search", ProviderExecuted: true, Result: results}}, sources...)
}
