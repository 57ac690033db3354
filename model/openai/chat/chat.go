// Package chat is a [model.LanguageModel] for Chat Completions (POST
// /chat/completions, streamed with stream_options.include_usage), OpenAI's
// and any OpenAI-compatible server's: xAI, OpenRouter, Groq, DeepSeek,
// Ollama, vLLM, …. It is built on the official SDK
// (github.com/openai/openai-go/v3) and ports the AI SDK's
// OpenAIChatLanguageModel (@ai-sdk/openai): the same request mapping and
// the same stream part order, with reasoning streamed as
// reasoning_content or reasoning (what compatible servers send) as
// reasoning parts.
//
// The SDK makes the HTTP exchange (authentication, retries, error
// responses) and splits the server-sent events; the package encodes the
// request body and decodes each chunk's JSON itself, with encoding/json,
// into the few members it reads. The SDK's typed parameters and chunks,
// encoded and decoded through reflection over the whole API, were most of
// a step's time (BenchmarkStepChat against BenchmarkBareLoopChat measures
// what remains).
//
// A model is configured by a [Config], the same type as package openai's
// (whose model speaks the Responses API instead), and behaves as that
// package's model does towards the environment: the API key is the
// configured one only (OPENAI_API_KEY is never read), and OPENAI_ORG_ID and
// OPENAI_PROJECT_ID are sent to api.openai.com only. An HTTP error is an
// *[openai.Error].
//
// [Providers] returns the router entries of the OpenAI-compatible
// providers gomastra knows:
//
//	r := model.NewRouter(os.Getenv, chat.Providers()...)
//	m, err := r.ResolveID("xai/grok-4") // XAI_API_KEY, XAI_BASE_URL
package chat

import (
	"context"
	"iter"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// ProviderID is the default provider id of a Model.
const ProviderID = "openai.chat"

// Config configures a Model; see [openai.Config]. An empty Provider is
// "openai.chat".
type Config = openai.Config

// Model is a model spoken to with Chat Completions. It is safe for
// concurrent use.
type Model struct {
	base   core.Base
	client sdk.ChatCompletionService
}

var _ model.LanguageModel = (*Model)(nil)

// New returns the Chat Completions model modelID configured by cfg. It
// makes no request.
func New(modelID string, cfg Config) (*Model, error) {
	base, opts, err := core.Setup(modelID, core.Config(cfg), ProviderID)
	if err != nil {
		return nil, err
	}
	return &Model{base: base, client: sdk.NewChatCompletionService(opts...)}, nil
}

// provider is an OpenAI-compatible provider of the router.
type provider struct {
	name, keyEnv, urlEnv, baseURL string
}

// compatible are the OpenAI-compatible providers [Providers] returns.
var compatible = []provider{
	{"xai", "XAI_API_KEY", "XAI_BASE_URL", "https://api.x.ai/v1"},
	{"openrouter", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1"},
	{"groq", "GROQ_API_KEY", "GROQ_BASE_URL", "https://api.groq.com/openai/v1"},
	{"deepseek", "DEEPSEEK_API_KEY", "DEEPSEEK_BASE_URL", "https://api.deepseek.com/v1"},
	{"ollama", "", "OLLAMA_BASE_URL", "http://localhost:11434/v1"},
}

// Providers returns the router entries of the OpenAI-compatible providers,
// each spoken to with Chat Completions and reporting "<name>.chat" as its
// provider id:
//
//	xai/…         XAI_API_KEY, XAI_BASE_URL (default https://api.x.ai/v1)
//	openrouter/…  OPENROUTER_API_KEY, OPENROUTER_BASE_URL (default https://openrouter.ai/api/v1)
//	groq/…        GROQ_API_KEY, GROQ_BASE_URL (default https://api.groq.com/openai/v1)
//	deepseek/…    DEEPSEEK_API_KEY, DEEPSEEK_BASE_URL (default https://api.deepseek.com/v1)
//	ollama/…      no key, OLLAMA_BASE_URL (default http://localhost:11434/v1)
func Providers() []model.Provider {
	out := make([]model.Provider, 0, len(compatible))
	for _, p := range compatible {
		id := p.name + ".chat"
		out = append(out, model.Provider{
			Name: p.name, APIKeyEnv: p.keyEnv, BaseURLEnv: p.urlEnv, DefaultBaseURL: p.baseURL, KeyOptional: p.keyEnv == "",
			New: func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
				m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers, Provider: id})
				if err != nil {
					return nil, err
				}
				return m, nil
			},
		})
	}
	return out
}

// Provider returns the provider id, e.g. "openai.chat" or "xai.chat".
func (m *Model) Provider() string { return m.base.Provider() }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.base.ModelID() }

// Stream runs one streaming Chat Completions call and yields the AI SDK's
// stream parts.
//
// An HTTP error (after the SDK's retries) is yielded as an
// *[openai.Error]; an error inside the stream as an error part.
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
		_, err = m.client.New(ctx, sdk.ChatCompletionNewParams{}, core.RequestOptions(req, option.WithRequestBody("application/json", body), option.WithResponseBodyInto(&res))...)
		st := newState(m.base.MetadataKey())
		if !core.Run(ctx, res, err, warnings, yield, func(c *chunk) bool { return st.chunk(c, yield) }) {
			return
		}
		st.flush(yield)
	}
}
