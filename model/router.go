package model

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"path"
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
// does not know. When the provider is one gomastra ships, the message
// names the package to import and the entries to register.
type UnknownProviderError struct {
	ID        string
	Providers []string
}

func (e *UnknownProviderError) Error() string {
	known := "none"
	if len(e.Providers) > 0 {
		known = strings.Join(e.Providers, ", ")
	}
	msg := fmt.Sprintf("model %q: unknown provider (known: %s)", e.ID, known)
	name, _, _ := strings.Cut(e.ID, "/")
	if i := slices.IndexFunc(shippedProviders, func(s ShippedProvider) bool { return s.Name == name }); i >= 0 {
		s := shippedProviders[i]
		msg += fmt.Sprintf("; import %s and register %s.Providers()", s.Package, path.Base(s.Package))
	}
	return msg
}

// ShippedProvider is a provider gomastra ships: its name in model ids,
// the package whose Providers function returns its router entry, and the
// variable holding its API key ("" when it needs none).
type ShippedProvider struct {
	Name, Package, KeyEnv string
}

// shippedProviders are the providers gomastra ships, by name.
var shippedProviders = []ShippedProvider{
	{"anthropic", "github.com/gomastra/mastra/model/anthropic", "ANTHROPIC_API_KEY"},
	{"deepseek", "github.com/gomastra/mastra/model/openai/chat", "DEEPSEEK_API_KEY"},
	{"google", "github.com/gomastra/mastra/model/google", "GOOGLE_GENERATIVE_AI_API_KEY"},
	{"groq", "github.com/gomastra/mastra/model/openai/chat", "GROQ_API_KEY"},
	{"ollama", "github.com/gomastra/mastra/model/openai/chat", ""},
	{"openai", "github.com/gomastra/mastra/model/openai", "OPENAI_API_KEY"},
	{"openrouter", "github.com/gomastra/mastra/model/openai/chat", "OPENROUTER_API_KEY"},
	{"xai", "github.com/gomastra/mastra/model/openai/chat", "XAI_API_KEY"},
}

// ShippedProviders lists the providers gomastra ships, by name. A router
// knows only those registered with it.
func ShippedProviders() []ShippedProvider { return slices.Clone(shippedProviders) }

// Router resolves "provider/model" ids to models: Mastra's model router.
// It knows the providers registered with it, and only those, so that a
// program links only the provider packages it imports: each provider
// package has a Providers function returning its entries, e.g.
//
//	r := model.NewRouter(os.Getenv, openai.Providers()...)
//	r.Register(anthropic.Providers()...)
//
// (packages github.com/gomastra/mastra/model/openai and
// github.com/gomastra/mastra/model/anthropic);
// github.com/gomastra/mastra/model/providers.Default registers every
// provider gomastra ships. It is safe for concurrent use.
type Router struct {
	getenv    func(string) string
	mu        sync.RWMutex
	providers map[string]Provider
}

// NewRouter returns a router reading the environment through getenv
// (os.Getenv in programs, a map in tests) with providers registered in
// order (a later one replaces an earlier one of the same name).
func NewRouter(getenv func(string) string, providers ...Provider) *Router {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	r := &Router{getenv: getenv, providers: map[string]Provider{}}
	r.Register(providers...)
	return r
}

// Register adds providers in order, each replacing any registered
// provider of the same name.
func (r *Router) Register(providers ...Provider) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range providers {
		r.providers[p.Name] = p
	}
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
