// Package openai is a [model.LanguageModel] for OpenAI's Responses API
// (POST /responses, streamed), built on the official SDK's responses
// package. It ports the AI SDK's OpenAIResponsesLanguageModel
// (@ai-sdk/openai): the same request mapping and the same stream part
// order. [New] always speaks the Responses API, to OpenAI or to any server
// that serves it (BaseURL).
//
// The SDK makes the HTTP exchange (authentication, retries, error
// responses) and splits the server-sent events; the package encodes the
// request body and decodes each event's JSON itself, with encoding/json,
// into the few members it reads. The SDK's typed parameters and events,
// encoded and decoded through reflection over the whole API, were most of
// a step's time (BenchmarkStepResponses against BenchmarkBareLoopResponses
// measures what remains).
//
// Chat Completions, for OpenAI and OpenAI-compatible servers (xAI,
// OpenRouter, Groq, DeepSeek, Ollama, vLLM, …), is package
// github.com/gomastra/mastra/model/openai/chat; embedding models
// (the embeddings API, OpenAI's and compatible servers') are package
// github.com/gomastra/mastra/model/openai/embedding.
//
// This package never imports the SDK's root package
// (github.com/openai/openai-go/v3), directly or through another package:
// that package's initialisation registers every type of every OpenAI API,
// which roughly doubles the size of a program using only the Responses
// API. It uses the SDK's responses, option, shared and packages/*
// packages only. Packages chat and embedding, which need the root package
// for Chat Completions and the Embeddings API, are the ones that link it.
//
// [Providers] returns this package's entry for a [model.Router]:
//
//	r := model.NewRouter(os.Getenv, openai.Providers()...)
//	m, err := r.ResolveID("openai/gpt-5.6-sol") // OPENAI_API_KEY, OPENAI_BASE_URL
package openai

import (
	"context"
	"iter"
	"net/http"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// DefaultBaseURL is OpenAI's API, "https://api.openai.com/v1": a Config's
// BaseURL when empty.
const DefaultBaseURL = core.DefaultBaseURL

// ProviderID is the default provider id of a Model.
const ProviderID = "openai.responses"

// Config configures a model of this package or of package chat.
type Config struct {
	// APIKey is sent as a bearer token. Empty sends none (local servers
	// such as Ollama need none); the OPENAI_API_KEY environment variable
	// is never read.
	APIKey string
	// BaseURL is the API's base URL, e.g. "https://api.x.ai/v1" or
	// "http://127.0.0.1:11434/v1"; empty is OpenAI's (DefaultBaseURL).
	// Requests to api.openai.com carry the OPENAI_ORG_ID and
	// OPENAI_PROJECT_ID environment variables as the OpenAI-Organization
	// and OpenAI-Project headers; requests to any other host never do.
	BaseURL string
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string
	// HTTPClient replaces the default HTTP client (http.DefaultTransport
	// with a 10-minute timeout for a response's headers, not its body).
	HTTPClient *http.Client
	// MaxRetries is how often a failed request (connection error, 408,
	// 409, 429, 5xx) is retried, honouring Retry-After; nil is the SDK's
	// default (2).
	MaxRetries *int
	// Provider is the reported provider id; empty is the package's default
	// ("openai.responses" here, "openai.chat" in package chat). Its part
	// before the first "." is also read as a providerOptions key (e.g.
	// "xai.responses" reads providerOptions["xai"] as well as ["openai"])
	// and is the key of the ProviderMetadata the model reports.
	Provider string
}

// Error is an HTTP error response of the API, after the SDK's retries, as
// the models of this package and of package chat return it. Its fields:
// StatusCode (the HTTP status); Message, Type, Code and Param (the API's
// error object's fields); API (the SDK's *responses.Error, with the
// request and the response, which Error unwraps to).
type Error = core.Error

// Model is a model spoken to with the Responses API. It is safe for
// concurrent use.
type Model struct {
	base   core.Base
	client responses.ResponseService
}

var _ model.LanguageModel = (*Model)(nil)

// New returns the Responses API model modelID configured by cfg. It makes
// no request.
func New(modelID string, cfg Config) (*Model, error) {
	base, opts, err := core.Setup(modelID, core.Config(cfg), ProviderID)
	if err != nil {
		return nil, err
	}
	return &Model{base: base, client: responses.NewResponseService(opts...)}, nil
}

// Providers returns this package's entry for a [model.Router]: "openai",
// keyed by OPENAI_API_KEY, its base URL overridden by OPENAI_BASE_URL,
// spoken to with the Responses API.
func Providers() []model.Provider {
	return []model.Provider{{
		Name: "openai", APIKeyEnv: "OPENAI_API_KEY", BaseURLEnv: "OPENAI_BASE_URL",
		New: func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
			m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers})
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}}
}

// Provider returns the provider id, e.g. "openai.responses".
func (m *Model) Provider() string { return m.base.Provider() }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.base.ModelID() }

// Stream runs one streaming Responses API call and yields the AI SDK's
// stream parts.
//
// An HTTP error (after the SDK's retries) is yielded as an *Error; an
// error event inside the stream as an error part.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[model.StreamPart, error] {
	return func(yield func(model.StreamPart, error) bool) {
		if req == nil {
			req = &model.Request{}
		}
		body, warnings, err := m.params(req)
		if err != nil {
			yield(model.StreamPart{}, err)
			return
		}
		// The SDK sends the body (already JSON, with "stream": true: its
		// own params stay empty), makes the HTTP exchange (authentication,
		// retries, errors) and hands over the response; core.Run reads its
		// events.
		var res *http.Response
		_, err = m.client.New(ctx, responses.ResponseNewParams{}, core.RequestOptions(req, option.WithRequestBody("application/json", body), option.WithResponseBodyInto(&res))...)
		st := newState(m.base.MetadataKey(), webSearchToolName(req.Tools))
		if !core.Run(ctx, res, err, warnings, yield, func(e *event) bool { return st.event(e, yield) }) {
			return
		}
		st.finish(yield)
	}
}
