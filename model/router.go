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

// EmbeddingConstructor builds a provider's embedding model once the router
// has resolved the key and base URL.
type EmbeddingConstructor func(modelID, apiKey, baseURL string, headers map[string]string) (EmbeddingModel, error)

// Provider describes one provider of the router: its language models
// (New), its embedding models (NewEmbedding), or both.
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
	// New builds the provider's language models; nil when the entry
	// offers only embedding models.
	New Constructor
	// NewEmbedding builds the provider's embedding models; nil when the
	// entry offers none.
	NewEmbedding EmbeddingConstructor
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
// does not know (for embedding models: knows no embedding models of).
// When the provider is one gomastra ships, the message names the package
// to import and the entries to register.
type UnknownProviderError struct {
	ID string
	// Providers are the providers the router knows: of language models,
	// or of embedding models when Embedding is set.
	Providers []string
	// Embedding is set when ID names an embedding model.
	Embedding bool
}

func (e *UnknownProviderError) Error() string {
	known := "none"
	if len(e.Providers) > 0 {
		known = strings.Join(e.Providers, ", ")
	}
	kind := "model"
	if e.Embedding {
		kind = "embedding model"
	}
	msg := fmt.Sprintf("%s %q: unknown provider (known: %s)", kind, e.ID, known)
	name, _, _ := strings.Cut(e.ID, "/")
	if i := slices.IndexFunc(shippedProviders, func(s ShippedProvider) bool { return s.Name == name }); i >= 0 {
		pkg := shippedProviders[i].Package
		if e.Embedding {
			pkg = shippedProviders[i].EmbeddingPackage
		}
		if pkg != "" {
			msg += fmt.Sprintf("; import %s and register %s.Providers()", pkg, path.Base(pkg))
		}
	}
	return msg
}

// ShippedProvider is a provider gomastra ships: its name in model ids,
// the package whose Providers function returns its router entry, the
// variable holding its API key ("" when it needs none), and the package
// whose Providers function returns the entry of its embedding models (""
// when gomastra ships none of them).
type ShippedProvider struct {
	Name, Package, KeyEnv string
	EmbeddingPackage      string
}

// shippedProviders are the providers gomastra ships, by name.
var shippedProviders = []ShippedProvider{
	{Name: "anthropic", Package: "github.com/gomastra/mastra/model/anthropic", KeyEnv: "ANTHROPIC_API_KEY"},
	{Name: "deepseek", Package: "github.com/gomastra/mastra/model/openai/chat", KeyEnv: "DEEPSEEK_API_KEY"},
	{Name: "google", Package: "github.com/gomastra/mastra/model/google", KeyEnv: "GOOGLE_GENERATIVE_AI_API_KEY",
		EmbeddingPackage: "github.com/gomastra/mastra/model/google"},
	{Name: "groq", Package: "github.com/gomastra/mastra/model/openai/chat", KeyEnv: "GROQ_API_KEY"},
	{Name: "ollama", Package: "github.com/gomastra/mastra/model/openai/chat",
		EmbeddingPackage: "github.com/gomastra/mastra/model/openai/embedding"},
	{Name: "openai", Package: "github.com/gomastra/mastra/model/openai", KeyEnv: "OPENAI_API_KEY",
		EmbeddingPackage: "github.com/gomastra/mastra/model/openai/embedding"},
	{Name: "openrouter", Package: "github.com/gomastra/mastra/model/openai/chat", KeyEnv: "OPENROUTER_API_KEY"},
	{Name: "xai", Package: "github.com/gomastra/mastra/model/openai/chat", KeyEnv: "XAI_API_KEY"},
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
// provider gomastra ships.
//
// Embedding models resolve the same way ([Router.ResolveEmbedding],
// [Router.Embedder]), from the entries that offer them (NewEmbedding):
// Mastra's embedder ids, "openai/text-embedding-3-small" (package
// github.com/gomastra/mastra/model/openai/embedding, whose entries offer
// only embedding models), "google/gemini-embedding-001" (the entry of
// package model/google offers both), "ollama/nomic-embed-text" (package
// model/openai/embedding).
//
// A router keeps no global state and is safe for concurrent use.
type Router struct {
	getenv    func(string) string
	mu        sync.RWMutex
	providers map[string]Provider // by name, the entries with language models
	embedders map[string]Provider // by name, the entries with embedding models
}

// NewRouter returns a router reading the environment through getenv
// (os.Getenv in programs, a map in tests) with providers registered in
// order (a later one replaces an earlier one of the same name).
func NewRouter(getenv func(string) string, providers ...Provider) *Router {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	r := &Router{getenv: getenv, providers: map[string]Provider{}, embedders: map[string]Provider{}}
	r.Register(providers...)
	return r
}

// Register adds providers in order, each replacing any registered
// provider of the same name for what it offers: an entry with New
// replaces the language models of that name, one with NewEmbedding the
// embedding models, one with both replaces both. So an entry offering
// only embedding models (such as model/openai/embedding's "openai") adds
// them to the language models of the same name, in either order.
func (r *Router) Register(providers ...Provider) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range providers {
		if p.New != nil || p.NewEmbedding == nil {
			r.providers[p.Name] = p
		}
		if p.NewEmbedding != nil {
			r.embedders[p.Name] = p
		}
	}
}

// Providers lists the registered provider names, sorted: those offering
// language models, embedding models or both.
func (r *Router) Providers() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(mergeKeys(r.providers, r.embedders)))
}

// EmbeddingProviders lists the names of the registered providers
// offering embedding models, sorted.
func (r *Router) EmbeddingProviders() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.embedders))
}

// languageProviders lists the names of the registered providers offering
// language models, sorted.
func (r *Router) languageProviders() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.providers))
}

func mergeKeys(a, b map[string]Provider) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
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
	if !ok || p.New == nil {
		return nil, &UnknownProviderError{ID: cfg.ID, Providers: r.languageProviders()}
	}
	key, url, err := r.settings(p, cfg)
	if err != nil {
		return nil, err
	}
	m, err := p.New(modelID, key, url, cfg.Headers)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", cfg.ID, err)
	}
	return m, nil
}

// settings resolves the key and base URL of cfg's model from provider p.
func (r *Router) settings(p Provider, cfg ModelConfig) (key, url string, err error) {
	key = cfg.APIKey
	if key == "" && p.APIKeyEnv != "" {
		key = r.getenv(p.APIKeyEnv)
	}
	if key == "" && !p.KeyOptional {
		return "", "", &MissingKeyError{ModelID: cfg.ID, EnvVar: p.APIKeyEnv}
	}
	url = cfg.URL
	if url == "" && p.BaseURLEnv != "" {
		url = r.getenv(p.BaseURLEnv)
	}
	if url == "" {
		url = p.DefaultBaseURL
	}
	return key, url, nil
}

// ResolveEmbedding builds the embedding model cfg names (Mastra's
// embedder id, e.g. "openai/text-embedding-3-small"), from the entry of
// its provider that offers embedding models, as Resolve builds a language
// model: the key from cfg.APIKey, else the entry's environment variable;
// the base URL from cfg.URL, else the environment, else the entry's
// default. Nothing is dialled.
func (r *Router) ResolveEmbedding(cfg ModelConfig) (EmbeddingModel, error) {
	name, modelID, err := ParseID(cfg.ID)
	if err != nil {
		return nil, err
	}
	r.mu.RLock()
	p, ok := r.embedders[name]
	r.mu.RUnlock()
	if !ok {
		return nil, &UnknownProviderError{ID: cfg.ID, Providers: r.EmbeddingProviders(), Embedding: true}
	}
	key, url, err := r.settings(p, cfg)
	if err != nil {
		return nil, err
	}
	m, err := p.NewEmbedding(modelID, key, url, cfg.Headers)
	if err != nil {
		return nil, fmt.Errorf("embedding model %s: %w", cfg.ID, err)
	}
	return m, nil
}

// ResolveEmbeddingID is ResolveEmbedding for a bare id.
func (r *Router) ResolveEmbeddingID(id string) (EmbeddingModel, error) {
	return r.ResolveEmbedding(ModelConfig{ID: id})
}

// Embedder is ResolveEmbeddingID for places that want a model value and
// no error, as Mastra's embedder strings are (Router.Model's counterpart):
// the embedding model named id, or, when it cannot be resolved, one whose
// every Embed call fails with that error, naming the missing variable.
func (r *Router) Embedder(id string) EmbeddingModel {
	m, err := r.ResolveEmbeddingID(id)
	if err == nil {
		return m
	}
	provider, modelID, perr := ParseID(id)
	if perr != nil {
		provider, modelID = "", id
	}
	return &unresolvedEmbedder{provider: provider, modelID: modelID, err: err}
}

// unresolvedEmbedder is an embedding model that could not be resolved.
type unresolvedEmbedder struct {
	provider, modelID string
	err               error
}

func (u *unresolvedEmbedder) Provider() string      { return u.provider }
func (u *unresolvedEmbedder) ModelID() string       { return u.modelID }
func (u *unresolvedEmbedder) MaxValuesPerCall() int { return 0 }

func (u *unresolvedEmbedder) Embed(context.Context, []string, *EmbedOptions) (Embeddings, error) {
	return Embeddings{}, u.err
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
