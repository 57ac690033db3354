// Package openai is a [model.LanguageModel] for OpenAI's Chat Completions
// and Responses APIs and any OpenAI-compatible endpoint (xAI, OpenRouter,
// Groq, DeepSeek, Ollama, vLLM, …), built on the official SDK
// (github.com/openai/openai-go/v3).
//
// It ports the AI SDK's OpenAI provider (@ai-sdk/openai,
// OpenAIChatLanguageModel and, in part, OpenAIResponsesLanguageModel): the
// same request mapping and the same stream part order.
package openai

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/gomastra/mastra/model"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// APIs a Model can speak.
const (
	APIChat      = "chat"
	APIResponses = "responses"
)

// Config configures a Model.
type Config struct {
	// APIKey is sent as a bearer token. Empty sends none (local servers
	// such as Ollama need none).
	APIKey string
	// BaseURL is the API's base URL, e.g. "https://api.x.ai/v1" or
	// "http://127.0.0.1:11434/v1"; empty is OpenAI's.
	BaseURL string
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string
	// HTTPClient replaces the SDK's HTTP client.
	HTTPClient *http.Client
	// MaxRetries is how often a failed request (connection error, 408,
	// 409, 429, 5xx) is retried by the SDK, honouring Retry-After; nil is
	// the SDK's default (2).
	MaxRetries *int
	// API is "chat" or "responses". Empty picks "responses" for
	// api.openai.com (as the AI SDK does) and "chat" for any other base URL.
	API string
	// Provider is the reported provider id; default "openai.chat" or
	// "openai.responses". Its part
	// before the first "." is also read as a providerOptions key (e.g.
	// "xai.chat" reads providerOptions["xai"] as well as ["openai"]).
	Provider string
}

// Model is an OpenAI (or OpenAI-compatible) chat model. It is safe for
// concurrent use.
type Model struct {
	modelID  string
	provider string
	api      string
	client   openai.Client
}

var _ model.LanguageModel = (*Model)(nil)

// New returns a model for modelID configured by cfg. It makes no request.
func New(modelID string, cfg Config) (*Model, error) {
	if modelID == "" {
		return nil, errors.New("openai: empty model id")
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("openai: invalid base URL %q", base)
	}
	isOpenAI := u.Hostname() == "api.openai.com"
	api := cfg.API
	switch api {
	case "":
		api = APIChat
		if isOpenAI {
			api = APIResponses
		}
	case APIChat, APIResponses:
	default:
		return nil, fmt.Errorf("openai: unknown API %q (want %q or %q)", cfg.API, APIChat, APIResponses)
	}
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(base, "/") + "/"),
		// Always set (even empty), so the SDK's OPENAI_API_KEY default
		// never reaches another provider's endpoint.
		option.WithAPIKey(cfg.APIKey),
	}
	if !isOpenAI {
		// Nor the organization and project the SDK reads from
		// OPENAI_ORG_ID / OPENAI_PROJECT_ID.
		opts = append(opts, option.WithHeaderDel("OpenAI-Organization"), option.WithHeaderDel("OpenAI-Project"))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	if cfg.MaxRetries != nil {
		opts = append(opts, option.WithMaxRetries(max(*cfg.MaxRetries, 0)))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	provider := cfg.Provider
	if provider == "" {
		provider = "openai." + api
	}
	return &Model{modelID: modelID, provider: provider, api: api, client: openai.NewClient(opts...)}, nil
}

// Constructor makes a model for the model router: modelID at baseURL
// (empty: OpenAI's, spoken to with the Responses API; any other base URL
// with Chat Completions) with apiKey and extra headers.
func Constructor(modelID string, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
	m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Provider returns the provider id, e.g. "openai.chat".
func (m *Model) Provider() string { return m.provider }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.modelID }

// optionKeys are the providerOptions keys the model reads, in increasing
// precedence.
func (m *Model) optionKeys() []string {
	keys := []string{"openai"}
	if name, _, _ := strings.Cut(m.provider, "."); name != "" && name != "openai" {
		keys = append(keys, name)
	}
	return keys
}

// metadataKey is the ProviderMetadata key of the parts the model reports.
func (m *Model) metadataKey() string {
	name, _, _ := strings.Cut(m.provider, ".")
	if name == "" {
		return "openai"
	}
	return name
}

// Stream runs one streaming call (Chat Completions with
// stream_options.include_usage, or Responses) and yields the AI SDK's
// stream parts.
//
// An HTTP error (after the SDK's retries) is yielded as an *Error; an
// error event inside the stream as an error part.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		if req == nil {
			req = &model.Request{}
		}
		if m.api == APIResponses {
			for p, err := range m.streamResponses(ctx, req) {
				if !yield(p, err) {
					return
				}
			}
			return
		}
		params, warnings, err := m.chatParams(req)
		if err != nil {
			yield(model.StreamPart{}, err)
			return
		}
		stream := m.client.Chat.Completions.NewStreaming(ctx, params, m.requestOptions(req)...)
		defer stream.Close()

		more := stream.Next()
		if !more {
			if err := stream.Err(); err != nil && !isStreamError(err) {
				yield(model.StreamPart{}, wrapError(ctx, err))
				return
			}
		}
		if !yield(model.StreamPart{Type: model.PartStreamStart, Warnings: warnings}, nil) {
			return
		}
		st := newChatState(m.metadataKey())
		for ; more; more = stream.Next() {
			if !st.chunk(stream.Current(), yield) {
				return
			}
		}
		if streamFailed(ctx, stream.Err(), yield) {
			return
		}
		st.flush(yield)
	}
}

// Error is an HTTP error response of the API. It unwraps to the SDK's
// *openai.Error.
type Error struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Message, Type, Code and Param are the API's error object's fields.
	Message, Type, Code, Param string
	// API is the SDK's error (with the request and response).
	API *openai.Error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("openai: HTTP %d", e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *Error) Unwrap() error { return e.API }

func wrapError(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return &Error{
			StatusCode: apiErr.StatusCode, Message: apiErr.Message, Type: apiErr.Type,
			Code: apiErr.Code, Param: apiErr.Param, API: apiErr,
		}
	}
	return fmt.Errorf("openai: %w", err)
}

func isStreamError(err error) bool {
	var se *ssestream.StreamError
	return errors.As(err, &se)
}

// streamFailed ends a stream that broke or was cancelled: a cancelled
// context is returned as the error, a broken stream becomes an error part.
// It reports whether the stream ended that way.
func streamFailed(ctx context.Context, err error, yield func(model.StreamPart, error) bool) bool {
	switch {
	case err != nil && ctx.Err() == nil:
		yield(model.StreamPart{Type: model.PartError, Err: wrapError(ctx, err)}, nil)
		return true
	case ctx.Err() != nil:
		yield(model.StreamPart{}, ctx.Err())
		return true
	}
	return false
}
