package model

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
)

// ModelConfig selects a model by Mastra's "provider/model" id, with
// optional overrides of what the environment gives (Mastra's
// OpenAICompatibleConfig: {id, url, apiKey, headers}).
type ModelConfig struct {
	// ID is "provider/model", e.g. "openai/gpt-5.6-sol" or
	// "openrouter/anthropic/claude-sonnet-4.5" (the model part may hold
	// slashes).
	ID string
	// URL overrides the provider's base URL.
	URL string
	// APIKey overrides the key from the environment.
	APIKey string
	// Headers are sent with every request.
	Headers map[string]string
}

// Constructor builds a provider's model once the router has resolved the
// key and base URL.
type Constructor func(modelID, apiKey, baseURL string, headers map[string]string) (LanguageModel, error)

// Provider describes one provider of the router.
type Provider struct {
	// Name is the id prefix ("openai").
	Name string
	// APIKeyEnv names the variable holding the key ("OPENAI_API_KEY");
	// BaseURLEnv the one overriding the base URL.
	APIKeyEnv, BaseURLEnv string
	// DefaultBaseURL is used when neither the config nor the environment
	// gives one ("" lets the SDK use its own default).
	DefaultBaseURL string
	// KeyOptional providers (local servers such as Ollama) work without a
	// key.
	KeyOptional bool
	New         Constructor
}

// MissingKeyError is returned when a provider's key is neither configured
// nor in the environment; its message names the variable to set.
type MissingKeyError struct {
	ModelID string
	EnvVar  string
}

func (e *MissingKeyError) Error() string {
	return fmt.Sprintf("model %s: no API key: set %s (or pass APIKey)", e.ModelID, e.EnvVar)
}

// UnknownProviderError is returned for an id whose provider the router
// does not know.
type UnknownProviderError struct {
	ID        string
	Providers []string
}

func (e *UnknownProviderError) Error() string {
	return fmt.Sprintf("model %q: unknown provider (known: %s)", e.ID, strings.Join(e.Providers, ", "))
}

// Router resolves "provider/model" ids to models: Mastra's model router.
// It is safe for concurrent use.
type Router struct {
	getenv    func(string) string
	mu        sync.RWMutex
	providers map[string]Provider
}

// NewRouter returns an empty router reading the environment through getenv
// (os.Getenv in programs, a map in tests).
func NewRouter(getenv func(string) string) *Router {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &Router{getenv: getenv, providers: map[string]Provider{}}
}

// Register adds or replaces a provider.
func (r *Router) Register(p Provider) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.providers[p.Name] = p
}

// Providers lists the registered provider names, sorted.
func (r *Router) Providers() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.providers))
}

// ParseID splits "provider/model" at the first slash.
func ParseID(id string) (provider, modelID string, err error) {
	provider, modelID, ok := strings.Cut(id, "/")
	if !ok || provider == "" || modelID == "" {
		return "", "", fmt.Errorf("model %q: want \"provider/model\", e.g. \"openai/gpt-5.6-sol\"", id)
	}
	return provider, modelID, nil
}

// Resolve builds the model cfg names. The key comes from cfg.APIKey, else
// the provider's environment variable; the base URL from cfg.URL, else the
// environment, else the provider's default.
func (r *Router) Resolve(cfg ModelConfig) (LanguageModel, error) {
	name, modelID, err := ParseID(cfg.ID)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	p, ok := r.providers[name]
	r.mu.RUnlock()
	if !ok {
		return nil, &UnknownProviderError{ID: cfg.ID, Providers: r.Providers()}
	}
	key := cfg.APIKey
	if key == "" && p.APIKeyEnv != "" {
		key = r.getenv(p.APIKeyEnv)
	}
	if key == "" && !p.KeyOptional {
		return nil, &MissingKeyError{ModelID: cfg.ID, EnvVar: p.APIKeyEnv}
	}
	url := cfg.URL
	if url == "" && p.BaseURLEnv != "" {
		url = r.getenv(p.BaseURLEnv)
	}
	if url == "" {
		url = p.DefaultBaseURL
	}
	m, err := p.New(modelID, key, url, cfg.Headers)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.ID, err)
	}
	return m, nil
}

// ResolveID is Resolve for a bare id.
func (r *Router) ResolveID(id string) (LanguageModel, error) { return r.Resolve(ModelConfig{ID: id}) }

// Model is ResolveID for places that want a model value and no error, as
// Mastra's model strings are: the model named id, or, when it cannot be
// resolved (an unknown provider, a missing key), a model whose every call
// fails with that error, so the error surfaces on the run, naming the
// missing variable.
func (r *Router) Model(id string) LanguageModel {
	m, err := r.ResolveID(id)
	if err == nil {
		return m
	}
	provider, modelID, perr := ParseID(id)
	if perr != nil {
		provider, modelID = "", id
	}
	return &unresolved{provider: provider, modelID: modelID, err: err}
}

// unresolved is a model that could not be resolved.
type unresolved struct {
	provider, modelID string
	err               error
}

func (u *unresolved) Provider() string { return u.provider }
func (u *unresolved) ModelID() string  { return u.modelID }

func (u *unresolved) Stream(context.Context, *Request) iter.Seq2[StreamPart, error] {
	return func(yield func(StreamPart, error) bool) { yield(StreamPart{}, u.err) }
}
