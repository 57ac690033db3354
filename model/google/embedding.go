package google

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"google.golang.org/genai"

	"github.com/gomastra/mastra/model"
)

// EmbeddingMaxValuesPerCall is an EmbeddingModel's MaxValuesPerCall: the
// Gemini API's limit of requests in one batchEmbedContents call (the AI
// SDK's maxEmbeddingsPerCall for Google since it was found; the API
// refuses more with "at most 100 requests can be in one batch").
const EmbeddingMaxValuesPerCall = 100

// EmbeddingConfig configures an [EmbeddingModel]. The fields up to
// HTTPClient are Config's.
type EmbeddingConfig struct {
	// APIKey is the Gemini API key. Empty: the GOOGLE_GENERATIVE_AI_API_KEY
	// environment variable (the AI SDK's), then the SDK's own
	// GOOGLE_API_KEY / GEMINI_API_KEY.
	APIKey string
	// BaseURL overrides the API's base URL
	// (https://generativelanguage.googleapis.com/); the API version
	// ("v1beta") is appended by the SDK.
	BaseURL string
	// Headers are extra HTTP headers sent with every request.
	Headers map[string]string
	// HTTPClient is the HTTP client to use; nil: the SDK's default.
	HTTPClient *http.Client

	// MaxRetries is how often a failed request (connection error, 408,
	// 429, 5xx) is retried, with exponential backoff from one second; nil
	// is the SDK's default, no retry (as the language models of this
	// package).
	MaxRetries *int
	// OutputDimensionality asks for vectors of that many components (the
	// model's are truncated); 0 sends none, the model's default (3072 for
	// gemini-embedding-001). A call's providerOptions overrides it.
	OutputDimensionality int
	// TaskType tells the model what the vectors are for, e.g.
	// "RETRIEVAL_DOCUMENT", "RETRIEVAL_QUERY", "SEMANTIC_SIMILARITY"; empty
	// sends none. A call's providerOptions overrides it.
	TaskType string
}

// EmbeddingModel is a Gemini embedding model, e.g.
// "gemini-embedding-001". It is safe for concurrent use.
type EmbeddingModel struct {
	modelID    string
	client     *genai.Client
	maxRetries *int
	dimensions int
	taskType   string
}

var _ model.EmbeddingModel = (*EmbeddingModel)(nil)

// NewEmbedding returns the Gemini embedding model modelID configured by
// cfg. It makes no request.
func NewEmbedding(modelID string, cfg EmbeddingConfig) (*EmbeddingModel, error) {
	if modelID == "" {
		return nil, errors.New("google: empty model id")
	}
	if cfg.OutputDimensionality < 0 {
		return nil, fmt.Errorf("google: output dimensionality %d: want a positive integer", cfg.OutputDimensionality)
	}
	client, err := newClient(Config{APIKey: cfg.APIKey, BaseURL: cfg.BaseURL, Headers: cfg.Headers, HTTPClient: cfg.HTTPClient})
	if err != nil {
		return nil, err
	}
	return &EmbeddingModel{modelID: modelID, client: client, maxRetries: cfg.MaxRetries,
		dimensions: cfg.OutputDimensionality, taskType: cfg.TaskType}, nil
}

// Provider returns "google.generative-ai".
func (m *EmbeddingModel) Provider() string { return ProviderID }

// ModelID returns the model id.
func (m *EmbeddingModel) ModelID() string { return m.modelID }

// MaxValuesPerCall returns EmbeddingMaxValuesPerCall (100).
func (m *EmbeddingModel) MaxValuesPerCall() int { return EmbeddingMaxValuesPerCall }

// Embed embeds values in one call (see [model.EmbeddingModel] for the
// contract): the SDK's embed content call, which sends the Gemini API's
// batchEmbedContents request, one request per value, each {"model":
// "models/<id>", "content": {"parts": [{"text": value}], "role": "user"}}
// with "taskType" and "outputDimensionality" when set, as the AI SDK's
// batch does. (The AI SDK sends a single value to embedContent instead;
// the answer is the same.) Gemini reports no usage: Usage.Tokens is 0.
//
// The call's providerOptions["google"] "outputDimensionality" (a
// positive integer) and "taskType" (a string) override the configured
// ones.
func (m *EmbeddingModel) Embed(ctx context.Context, values []string, opts *model.EmbedOptions) (model.Embeddings, error) {
	if err := model.CheckValuesPerCall(m, values); err != nil {
		return model.Embeddings{}, err
	}
	if len(values) == 0 {
		return model.Embeddings{Vectors: [][]float32{}}, nil
	}
	if opts == nil {
		opts = &model.EmbedOptions{}
	}
	cfg, err := m.config(opts)
	if err != nil {
		return model.Embeddings{}, err
	}
	contents := make([]*genai.Content, len(values))
	for i, v := range values {
		contents[i] = genai.NewContentFromText(v, genai.RoleUser)
	}
	res, err := m.client.Models.EmbedContent(ctx, m.modelID, contents, cfg)
	if err != nil {
		var ae genai.APIError
		switch {
		case ctx.Err() != nil:
			return model.Embeddings{}, ctx.Err()
		case errors.As(err, &ae):
			return model.Embeddings{}, apiError(err)
		}
		// No answer, or one the SDK could not read (malformed JSON).
		return model.Embeddings{}, fmt.Errorf("google: embeddings: %w", err)
	}
	if len(res.Embeddings) != len(values) {
		return model.Embeddings{}, &model.EmbeddingCountError{Provider: m.Provider(), ModelID: m.modelID, Values: len(values), Vectors: len(res.Embeddings)}
	}
	out := model.Embeddings{Vectors: make([][]float32, len(values))}
	for i, e := range res.Embeddings {
		if e == nil || e.Values == nil {
			return model.Embeddings{}, fmt.Errorf("google: embeddings: invalid response: embedding %d has no values", i)
		}
		out.Vectors[i] = e.Values
	}
	return out, nil
}

// config is the SDK's configuration of one call.
func (m *EmbeddingModel) config(opts *model.EmbedOptions) (*genai.EmbedContentConfig, error) {
	dims, taskType := m.dimensions, m.taskType
	po := opts.ProviderOptions[ProviderName]
	if v, ok := po["outputDimensionality"]; ok && v != nil {
		n, ok := model.PositiveInt(v)
		if !ok {
			return nil, fmt.Errorf("google: providerOptions outputDimensionality %v: want a positive integer", v)
		}
		dims = n
	}
	if v, ok := po["taskType"]; ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("google: providerOptions taskType %v: want a string", v)
		}
		taskType = s
	}
	cfg := &genai.EmbedContentConfig{TaskType: taskType}
	if dims > 0 {
		d := int32(dims)
		cfg.OutputDimensionality = &d
	}
	retries := m.maxRetries
	if opts.MaxRetries != nil {
		retries = opts.MaxRetries
	}
	if len(opts.Headers) > 0 || retries != nil {
		cfg.HTTPOptions = &genai.HTTPOptions{Headers: toHeader(opts.Headers)}
		if retries != nil {
			attempts := int32(max(*retries, 0) + 1)
			cfg.HTTPOptions.RetryOptions = &genai.HTTPRetryOptions{Attempts: &attempts}
		}
	}
	return cfg, nil
}
