// Package google is a [model.LanguageModel] for Google's Gemini API (the
// AI SDK's "google.generative-ai" provider), built on the official SDK,
// google.golang.org/genai.
//
// Requests are mapped as the AI SDK's Google provider maps them: system
// messages become the system instruction, tool calls and results become
// functionCall and functionResponse parts, function tools become function
// declarations (their draft-07 schema passed as parametersJsonSchema), and
// the call settings become the generation config. The streamed response is
// mapped to [model.StreamPart]s; Gemini sends whole function calls, so each
// one becomes a tool-input-start, a single tool-input-delta holding the
// arguments' JSON, a tool-input-end and a tool-call.
//
// [EmbeddingModel] is a [model.EmbeddingModel] for Gemini's embedding
// models ("gemini-embedding-001"), the AI SDK's Google embedding model on
// the SDK's embed content call.
package google

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"

	"google.golang.org/genai"

	"github.com/gomastra/mastra/model"
)

// ProviderID is the AI SDK provider id of the models of this package.
const ProviderID = "google.generative-ai"

// ProviderName is the key of this provider's entries in
// [model.ProviderOptions] and [model.ProviderMetadata].
const ProviderName = "google"

// Config configures a [Model].
type Config struct {
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
}

// Model is a Gemini model. It is safe for concurrent use.
type Model struct {
	modelID string
	client  *genai.Client
}

var _ model.LanguageModel = (*Model)(nil)

// New returns the Gemini model modelID (e.g. "gemini-2.5-flash").
func New(modelID string, cfg Config) (*Model, error) {
	if modelID == "" {
		return nil, errors.New("google: empty model id")
	}
	client, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Model{modelID: modelID, client: client}, nil
}

// newClient is the SDK's client for the Gemini API configured by cfg.
func newClient(cfg Config) (*genai.Client, error) {
	key := cfg.APIKey
	if key == "" {
		key = os.Getenv("GOOGLE_GENERATIVE_AI_API_KEY")
	}
	cc := &genai.ClientConfig{
		APIKey:     key,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: cfg.HTTPClient,
		HTTPOptions: genai.HTTPOptions{
			BaseURL: cfg.BaseURL,
			Headers: toHeader(cfg.Headers),
		},
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, fmt.Errorf("google: %w", err)
	}
	return client, nil
}

// Providers returns this package's entry for a [model.Router]: "google",
// keyed by GOOGLE_GENERATIVE_AI_API_KEY, its base URL overridden by
// GOOGLE_GENERATIVE_AI_BASE_URL, offering language models and embedding
// models ([NewEmbedding]).
//
//	r := model.NewRouter(os.Getenv, google.Providers()...)
//	m, err := r.ResolveID("google/gemini-2.5-flash")
//	e, err := r.ResolveEmbeddingID("google/gemini-embedding-001")
func Providers() []model.Provider {
	return []model.Provider{{
		Name: ProviderName, APIKeyEnv: "GOOGLE_GENERATIVE_AI_API_KEY", BaseURLEnv: "GOOGLE_GENERATIVE_AI_BASE_URL",
		New: func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
			m, err := New(modelID, Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers})
			if err != nil {
				return nil, err
			}
			return m, nil
		},
		NewEmbedding: func(modelID, apiKey, baseURL string, headers map[string]string) (model.EmbeddingModel, error) {
			m, err := NewEmbedding(modelID, EmbeddingConfig{APIKey: apiKey, BaseURL: baseURL, Headers: headers})
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}}
}

// Provider returns "google.generative-ai".
func (m *Model) Provider() string { return ProviderID }

// ModelID returns the model id.
func (m *Model) ModelID() string { return m.modelID }

func toHeader(h map[string]string) http.Header {
	if len(h) == 0 {
		return nil
	}
	out := make(http.Header, len(h))
	for k, v := range h {
		out.Set(k, v)
	}
	return out
}

// APIError is an error response of the Gemini API.
type APIError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Status is the API's status (e.g. "INVALID_ARGUMENT"), or the HTTP
	// status text.
	Status string
	// Message is the server's message.
	Message string
	// Err is the SDK's error.
	Err error
}

func (e *APIError) Error() string {
	return fmt.Sprintf("google: HTTP %d %s: %s", e.StatusCode, e.Status, e.Message)
}

func (e *APIError) Unwrap() error { return e.Err }

// Transient reports whether the same call may succeed later
// (model.TransientError): a rate limit, timeout or server error status.
func (e *APIError) Transient() bool { return model.TransientStatus(e.StatusCode) }

// apiError turns the SDK's API errors into *APIError.
func apiError(err error) error {
	var ae genai.APIError
	if errors.As(err, &ae) {
		status := ae.Status
		if status == "" {
			status = http.StatusText(ae.Code)
		}
		return &APIError{StatusCode: ae.Code, Status: status, Message: ae.Message, Err: err}
	}
	return fmt.Errorf("google: %w", err)
}
