package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type fakeEmbedder struct{ provider, id, key, url string }

func (f *fakeEmbedder) Provider() string      { return f.provider }
func (f *fakeEmbedder) ModelID() string       { return f.id }
func (f *fakeEmbedder) MaxValuesPerCall() int { return 1 }
func (f *fakeEmbedder) Embed(context.Context, []string, *EmbedOptions) (Embeddings, error) {
	return Embeddings{}, nil
}

// fakeEmbeddingProvider is an entry offering only embedding models.
func fakeEmbeddingProvider(name, keyEnv, urlEnv, defURL string, optional bool) Provider {
	return Provider{Name: name, APIKeyEnv: keyEnv, BaseURLEnv: urlEnv, DefaultBaseURL: defURL, KeyOptional: optional,
		NewEmbedding: func(id, key, url string, _ map[string]string) (EmbeddingModel, error) {
			return &fakeEmbedder{provider: name + ".embedding", id: id, key: key, url: url}, nil
		}}
}

func TestRouterResolvesEmbeddingModels(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-env", "OLLAMA_BASE_URL": "http://127.0.0.1:11434/v1"}
	both := fakeProvider("google", "GOOGLE_GENERATIVE_AI_API_KEY", "", "", true)
	both.NewEmbedding = fakeEmbeddingProvider("google", "", "", "", true).NewEmbedding
	r := NewRouter(func(k string) string { return env[k] },
		fakeProvider("openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "", false),
		fakeEmbeddingProvider("openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "", false),
		fakeEmbeddingProvider("ollama", "", "OLLAMA_BASE_URL", "http://localhost:11434/v1", true),
		fakeProvider("anthropic", "", "", "", true),
		both,
	)
	e, err := r.ResolveEmbeddingID("openai/text-embedding-3-small")
	if err != nil {
		t.Fatal(err)
	}
	if f := e.(*fakeEmbedder); f.id != "text-embedding-3-small" || f.key != "sk-env" || f.provider != "openai.embedding" {
		t.Errorf("openai: %+v", f)
	}
	// The embedding-only entry left the language models of its name.
	if m, err := r.ResolveID("openai/gpt-5.6-sol"); err != nil || m.(*fakeModel).key != "sk-env" {
		t.Errorf("openai language model: %v", err)
	}
	e, err = r.ResolveEmbedding(ModelConfig{ID: "ollama/nomic-embed-text", URL: "http://127.0.0.1:1/v1", Headers: map[string]string{"X": "y"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := e.(*fakeEmbedder); f.url != "http://127.0.0.1:1/v1" || f.key != "" {
		t.Errorf("ollama: %+v", f)
	}
	if e, err := r.ResolveEmbeddingID("ollama/nomic-embed-text"); err != nil || e.(*fakeEmbedder).url != "http://127.0.0.1:11434/v1" {
		t.Errorf("ollama env URL: %v", err)
	}
	if e, err := r.ResolveEmbeddingID("google/gemini-embedding-001"); err != nil || e.Provider() != "google.embedding" {
		t.Errorf("google: %v", err)
	}
	// Ollama's entry offers no language model here, Anthropic's no
	// embedding model.
	var unknown *UnknownProviderError
	if _, err := r.ResolveID("ollama/llama3.2"); !errors.As(err, &unknown) || unknown.Embedding {
		t.Errorf("ollama language model: %v", err)
	}
	_, err = r.ResolveEmbeddingID("anthropic/x")
	if !errors.As(err, &unknown) || !unknown.Embedding {
		t.Fatalf("anthropic embedding model: %v", err)
	}
	if want := `embedding model "anthropic/x": unknown provider (known: google, ollama, openai)`; err.Error() != want {
		t.Errorf("message:\n got %v\nwant %s", err, want)
	}
	if got, want := r.Providers(), []string{"anthropic", "google", "ollama", "openai"}; !slices.Equal(got, want) {
		t.Errorf("providers %v", got)
	}
	if got, want := r.EmbeddingProviders(), []string{"google", "ollama", "openai"}; !slices.Equal(got, want) {
		t.Errorf("embedding providers %v", got)
	}

	empty := NewRouter(func(string) string { return "" }, fakeEmbeddingProvider("openai", "OPENAI_API_KEY", "", "", false))
	var missing *MissingKeyError
	if _, err := empty.ResolveEmbeddingID("openai/text-embedding-3-small"); !errors.As(err, &missing) || missing.EnvVar != "OPENAI_API_KEY" {
		t.Errorf("missing key: %v", err)
	}
	for _, bad := range []string{"text-embedding-3-small", "/x", "openai/"} {
		if _, err := r.ResolveEmbeddingID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A later entry replaces an earlier one only for what it offers, in
// either order.
func TestRegisterKeepsWhatALaterEntryDoesNotOffer(t *testing.T) {
	lm := fakeProvider("openai", "", "", "https://lm.invalid", true)
	em := fakeEmbeddingProvider("openai", "", "", "https://em.invalid", true)
	for _, order := range [][]Provider{{lm, em}, {em, lm}} {
		r := NewRouter(nil, order...)
		m, err := r.ResolveID("openai/x")
		if err != nil || m.(*fakeModel).url != "https://lm.invalid" {
			t.Errorf("language model: %v", err)
		}
		e, err := r.ResolveEmbeddingID("openai/y")
		if err != nil || e.(*fakeEmbedder).url != "https://em.invalid" {
			t.Errorf("embedding model: %v", err)
		}
	}
	r := NewRouter(nil, em, fakeEmbeddingProvider("openai", "", "", "https://em2.invalid", true))
	if e, err := r.ResolveEmbeddingID("openai/y"); err != nil || e.(*fakeEmbedder).url != "https://em2.invalid" {
		t.Errorf("the later embedding entry must win: %v", err)
	}
}

// The error for a provider whose embedding models gomastra ships says
// which package to import.
func TestUnknownEmbeddingProviderMessage(t *testing.T) {
	r := NewRouter(nil, fakeProvider("openai", "", "", "", true))
	for id, want := range map[string]string{
		"openai/text-embedding-3-small": `embedding model "openai/text-embedding-3-small": unknown provider (known: none); import github.com/gomastra/mastra/model/openai/embedding and register embedding.Providers()`,
		"ollama/nomic-embed-text":       `embedding model "ollama/nomic-embed-text": unknown provider (known: none); import github.com/gomastra/mastra/model/openai/embedding and register embedding.Providers()`,
		"google/gemini-embedding-001":   `embedding model "google/gemini-embedding-001": unknown provider (known: none); import github.com/gomastra/mastra/model/google and register google.Providers()`,
		"anthropic/x":                   `embedding model "anthropic/x": unknown provider (known: none)`,
	} {
		_, err := r.ResolveEmbeddingID(id)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", id, err, want)
		}
	}
}

func TestEmbedderFailsOnItsCallsWhenItCannotBeResolved(t *testing.T) {
	r := NewRouter(func(string) string { return "" }, fakeEmbeddingProvider("openai", "OPENAI_API_KEY", "", "", false))
	e := r.Embedder("openai/text-embedding-3-small")
	if e.Provider() != "openai" || e.ModelID() != "text-embedding-3-small" {
		t.Errorf("names: %s %s", e.Provider(), e.ModelID())
	}
	_, err := EmbedMany(context.Background(), e, []string{"a"}, nil)
	var missing *MissingKeyError
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("err %v", err)
	}
	if _, err := r.Embedder("nonsense").Embed(context.Background(), []string{"a"}, nil); err == nil {
		t.Error("bad id: no error")
	}
	ok := NewRouter(nil, fakeEmbeddingProvider("ollama", "", "", "", true)).Embedder("ollama/nomic-embed-text")
	if ok.Provider() != "ollama.embedding" {
		t.Errorf("resolved: %s", ok.Provider())
	}
}

// Every shipped embedding package is a package of gomastra's model tree
// with a Providers function.
func TestShippedEmbeddingPackagesExist(t *testing.T) {
	for _, s := range ShippedProviders() {
		if s.EmbeddingPackage == "" {
			continue
		}
		rel, ok := strings.CutPrefix(s.EmbeddingPackage, "github.com/gomastra/mastra/model/")
		if !ok {
			t.Errorf("%s: package %s", s.Name, s.EmbeddingPackage)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(filepath.FromSlash(rel), "*.go"))
		found := false
		for _, f := range files {
			b, _ := os.ReadFile(f)
			found = found || !strings.HasSuffix(f, "_test.go") && strings.Contains(string(b), "\nfunc Providers() []model.Provider {")
		}
		if !found {
			t.Errorf("%s: no func Providers in %s", s.Name, rel)
		}
	}
}
