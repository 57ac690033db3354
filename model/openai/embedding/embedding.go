// Package embedding is a [model.EmbeddingModel] for OpenAI's embeddings
// API (POST /embeddings) and any OpenAI-compatible server's (Ollama's
// /v1/embeddings, vLLM, LM Studio, …), built on the official SDK's
// Embeddings API. It ports the AI SDK's OpenAIEmbeddingModel
// (@ai-sdk/openai) and OpenAICompatibleEmbeddingModel
// (@ai-sdk/openai-compatible): the same request, {"model", "input": the
// values, "encoding_format": "float"}, with "dimensions" and "user" only
// when set, at most 2048 values a call.
//
// The SDK encodes the request and makes the HTTP exchange
// (authentication, retries honouring Retry-After, error responses); the
// package decodes the answer's JSON itself, with encoding/json, into the
// members it reads (each item's embedding and index, usage.prompt_tokens),
// as the AI SDK's minimal response schema does, straight into float32.
//
// A model is configured as package openai's models are towards the
// environment: the API key is the configured one only (OPENAI_API_KEY is
// never read), and OPENAI_ORG_ID and OPENAI_PROJECT_ID are sent to
// api.openai.com only. An HTTP error is an *[openai.Error].
//
// The SDK's Embeddings API lives in its root package, whose
// initialisation registers every type of every OpenAI API (some 20 MB of
// program), which is why this is a package of its own: a program using
// only package openai's Responses API does not link it.
//
// [Providers] returns the router entries of the embedding models:
//
//	r := model.NewRouter(os.Getenv, openai.Providers()...)
//	r.Register(embedding.Providers()...)
//	e, err := r.ResolveEmbeddingID("openai/text-embedding-3-small") // OPENAI_API_KEY, OPENAI_BASE_URL
//	e, err = r.ResolveEmbeddingID("ollama/nomic-embed-text")        // OLLAMA_BASE_URL, no key
package embedding

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/core"
)

// ProviderID is the default provider id of a Model (the AI SDK's).
const ProviderID = "openai.embedding"

// DefaultMaxValuesPerCall is a Model's MaxValuesPerCall unless configured
// otherwise: the AI SDK's maxEmbeddingsPerCall for OpenAI and
// OpenAI-compatible servers.
const DefaultMaxValuesPerCall = 2048

// OllamaBaseURL is the "ollama" router entry's default base URL.
const OllamaBaseURL = "http://localhost:11434/v1"

// Config configures a Model. The fields up to Provider are package
// openai's Config's.
type Config struct {
	// APIKey is sent as a bearer token. Empty sends none (local servers
	// such as Ollama need none); OPENAI_API_KEY is never read.
	APIKey string
	// BaseURL is the API's base URL, e.g. "http://127.0.0.1:11434/v1";
	// empty is OpenAI's ("https://api.openai.com/v1"). Requests to
	// api.openai.com carry the OPENAI_ORG_ID and OPENAI_PROJECT_ID
	// environment variables as headers; requests to any other host never
	// do.
	BaseURL string
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string
	// HTTPClient replaces the default HTTP client (http.DefaultTransport
	// with a 10-minute timeout for a response's headers).
	HTTPClient *http.Client
	// MaxRetries is how often a failed request (connection error, 408,
	// 409, 429, 5xx) is retried, honouring Retry-After; nil is the SDK's
	// default (2).
	MaxRetries *int
	// Provider is the reported provider id; empty is "openai.embedding".
	// Its part before the first "." names the providerOptions read (see
	// Model.Embed).
	Provider string

	// MaxValuesPerCall is the most values one call takes; 0 is
	// DefaultMaxValuesPerCall.
	MaxValuesPerCall int
	// Dimensions asks for vectors of that many components (models from
	// text-embedding-3 on); 0 sends none, the model's default. A call's
	// providerOptions "dimensions" overrides it.
	Dimensions int
	// User is sent as "user" (an end-user id for abuse monitoring); empty
	// sends none. A call's providerOptions "user" overrides it.
	User string
}

// Model is an embedding model spoken to with the embeddings API. It is
// safe for concurrent use.
type Model struct {
	base       core.Base
	client     sdk.EmbeddingService
	max        int
	dimensions int
	user       string
}

var _ model.EmbeddingModel = (*Model)(nil)

// New returns the embedding model modelID (e.g. "text-embedding-3-small",
// or "nomic-embed-text" on Ollama) configured by cfg. It makes no
// request.
func New(modelID string, cfg Config) (*Model, error) {
	if cfg.Dimensions < 0 {
		return nil, fmt.Errorf("openai: embedding dimensions %d: want a positive integer", cfg.Dimensions)
	}
	base, opts, err := core.Setup(modelID, core.Config{
		APIKey: cfg.APIKey, BaseURL: cfg.BaseURL, Headers: cfg.Headers, HTTPClient: cfg.HTTPClient,
		MaxRetries: cfg.MaxRetries, Provider: cfg.Provider,
	}, ProviderID)
	if err != nil {
		return nil, err
	}
	limit := cfg.MaxValuesPerCall
	if limit <= 0 {
		limit = DefaultMaxValuesPerCall
	}
	return &Model{base: base, client: sdk.NewEmbeddingService(opts...), max: limit, dimensions: cfg.Dimensions, user: cfg.User}, nil
}

// Providers returns the router entries of this package's embedding
// models, each offering only embedding models (the language models of the
// same names come from package openai and package chat):
//
//	openai/…  OPENAI_API_KEY, OPENAI_BASE_URL (provider id "openai.embedding")
//	ollama/…  no key, OLLAMA_BASE_URL (default http://localhost:11434/v1; "ollama.embedding")
func Providers() []model.Provider {
	return []model.Provider{
		{Name: "openai", APIKeyEnv: "OPENAI_API_KEY", BaseURLEnv: "OPENAI_BASE_URL", NewEmbedding: constructor(ProviderID)},
		{Name: "ollama", BaseURLEnv: "OLLAMA_BASE_URL", DefaultBaseURL: OllamaBaseURL, KeyOptional: true, NewEmbedding: constructor("ollama.embedding")},
	}
}

func constructor(provider string) model.EmbeddingConstructor {
	return func(modelID, apiKey, baseURL string, headers map[string]string) (model.EmbeddingModel, error) {
		m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers, Provider: provider})
		if err != nil {
			return nil, err
		}
		return m, nil
	}
}

// Provider returns the provider id, e.g. "openai.embedding".
func (m *Model) Provider() string { return m.base.Provider() }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.base.ModelID() }

// MaxValuesPerCall returns the most values one call takes (2048 unless
// configured otherwise).
func (m *Model) MaxValuesPerCall() int { return m.max }

// Embed embeds values in one call (see [model.EmbeddingModel] for the
// contract).
//
// The call's providerOptions "dimensions" (a positive integer) and "user"
// (a string) override the configured ones. They are read, in increasing
// precedence, under "openai" and, for another provider id, under
// "openai-compatible" and the id's part before the first "." (e.g.
// "ollama" for "ollama.embedding"), as the AI SDK's OpenAI and
// OpenAI-compatible providers read them.
func (m *Model) Embed(ctx context.Context, values []string, opts *model.EmbedOptions) (model.Embeddings, error) {
	if err := model.CheckValuesPerCall(m, values); err != nil {
		return model.Embeddings{}, err
	}
	if len(values) == 0 {
		return model.Embeddings{Vectors: [][]float32{}}, nil
	}
	if opts == nil {
		opts = &model.EmbedOptions{}
	}
	params, err := m.params(values, opts.ProviderOptions)
	if err != nil {
		return model.Embeddings{}, err
	}
	var body []byte
	reqOpts := make([]option.RequestOption, 0, len(opts.Headers)+2)
	for k, v := range opts.Headers {
		reqOpts = append(reqOpts, option.WithHeader(k, v))
	}
	if opts.MaxRetries != nil {
		reqOpts = append(reqOpts, option.WithMaxRetries(max(*opts.MaxRetries, 0)))
	}
	// The SDK sends params and makes the exchange; the answer's body
	// comes back as it is, decoded below.
	reqOpts = append(reqOpts, option.WithResponseBodyInto(&body))
	if _, err := m.client.New(ctx, params, reqOpts...); err != nil {
		return model.Embeddings{}, core.WrapError(ctx, err)
	}
	return m.decode(body, len(values))
}

// params is the request of one call.
func (m *Model) params(values []string, po model.ProviderOptions) (sdk.EmbeddingNewParams, error) {
	p := sdk.EmbeddingNewParams{
		Model:          m.base.ModelID(),
		Input:          sdk.EmbeddingNewParamsInputUnion{OfArrayOfStrings: values},
		EncodingFormat: sdk.EmbeddingNewParamsEncodingFormatFloat,
	}
	dims, user := m.dimensions, m.user
	opts := m.providerOptions(po)
	if v, ok := opts["dimensions"]; ok && v != nil {
		n, ok := model.PositiveInt(v)
		if !ok {
			return p, fmt.Errorf("openai: providerOptions dimensions %v: want a positive integer", v)
		}
		dims = n
	}
	if v, ok := opts["user"]; ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return p, fmt.Errorf("openai: providerOptions user %v: want a string", v)
		}
		user = s
	}
	if dims > 0 {
		p.Dimensions = param.NewOpt(int64(dims))
	}
	if user != "" {
		p.User = param.NewOpt(user)
	}
	return p, nil
}

// providerOptions merges the options under the keys the model reads (see
// Embed).
func (m *Model) providerOptions(po model.ProviderOptions) map[string]any {
	keys := []string{"openai"}
	if name, _, _ := strings.Cut(m.base.Provider(), "."); name != "" && name != "openai" {
		keys = append(keys, "openai-compatible", name)
	}
	out := map[string]any{}
	for _, k := range keys {
		maps.Copy(out, po[k])
	}
	return out
}

// response is the members of the answer the model reads.
type response struct {
	Data []struct {
		Embedding []float32 `json:"embedding"`
		Index     *int      `json:"index"`
	} `json:"data"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

// decode reads the answer to a call of n values: its vectors placed by
// their index when the indices are 0 to n-1 (as OpenAI sends them), else
// in the order they came.
func (m *Model) decode(body []byte, n int) (model.Embeddings, error) {
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return model.Embeddings{}, fmt.Errorf("openai: embeddings: invalid response body %s: %w", snippet(body), err)
	}
	if len(r.Data) != n {
		return model.Embeddings{}, &model.EmbeddingCountError{Provider: m.Provider(), ModelID: m.ModelID(), Values: n, Vectors: len(r.Data)}
	}
	out := model.Embeddings{Vectors: make([][]float32, n)}
	seen := make([]bool, n)
	byIndex := true
	for i, d := range r.Data {
		if d.Embedding == nil {
			return model.Embeddings{}, fmt.Errorf("openai: embeddings: invalid response body: item %d has no embedding", i)
		}
		if byIndex = byIndex && d.Index != nil && *d.Index >= 0 && *d.Index < n && !seen[*d.Index]; byIndex {
			seen[*d.Index] = true
		}
	}
	for i, d := range r.Data {
		if byIndex {
			i = *d.Index
		}
		out.Vectors[i] = d.Embedding
	}
	if r.Usage != nil {
		out.Usage.Tokens = r.Usage.PromptTokens
	}
	return out, nil
}

// snippet quotes the start of a body for an error message.
func snippet(body []byte) string {
	const limit = 120
	if len(body) > limit {
		return fmt.Sprintf("%q…", body[:limit])
	}
	return fmt.Sprintf("%q", body)
}
