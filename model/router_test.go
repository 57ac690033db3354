package model

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"
)

type fakeModel struct{ provider, id, key, url string }

func (f *fakeModel) Provider() string { return f.provider }
func (f *fakeModel) ModelID() string  { return f.id }
func (f *fakeModel) Stream(context.Context, *Request) iter.Seq2[StreamPart, error] {
	return func(func(StreamPart, error) bool) {}
}

func fakeProvider(name, keyEnv, urlEnv, defURL string, optional bool) Provider {
	return Provider{Name: name, APIKeyEnv: keyEnv, BaseURLEnv: urlEnv, DefaultBaseURL: defURL, KeyOptional: optional,
		New: func(id, key, url string, _ map[string]string) (LanguageModel, error) {
			return &fakeModel{provider: name, id: id, key: key, url: url}, nil
		}}
}

func TestRouterResolve(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-env", "OLLAMA_BASE_URL": "http://127.0.0.1:11434/v1"}
	r := NewRouter(func(k string) string { return env[k] })
	r.Register(fakeProvider("openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "", false))
	r.Register(fakeProvider("openrouter", "OPENROUTER_API_KEY", "", "https://openrouter.invalid/api/v1", false))
	r.Register(fakeProvider("ollama", "", "OLLAMA_BASE_URL", "http://localhost:11434/v1", true))

	m, err := r.ResolveID("openai/gpt-5.6-sol")
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(*fakeModel); f.id != "gpt-5.6-sol" || f.key != "sk-env" {
		t.Errorf("env key: %+v", f)
	}
	m, err = r.Resolve(ModelConfig{ID: "openrouter/anthropic/claude-sonnet-4.5", APIKey: "sk-cfg"})
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(*fakeModel); f.id != "anthropic/claude-sonnet-4.5" || f.key != "sk-cfg" || f.url != "https://openrouter.invalid/api/v1" {
		t.Errorf("config key and default URL: %+v", f)
	}
	m, err = r.ResolveID("ollama/llama3.2")
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(*fakeModel); f.url != "http://127.0.0.1:11434/v1" {
		t.Errorf("env URL: %+v", f)
	}

	_, err = r.ResolveID("openrouter/x")
	var missing *MissingKeyError
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "OPENROUTER_API_KEY") {
		t.Errorf("missing key must name the variable: %v", err)
	}
	var unknown *UnknownProviderError
	if _, err := r.ResolveID("acme/x"); !errors.As(err, &unknown) {
		t.Errorf("unknown provider: %v", err)
	}
	for _, bad := range []string{"gpt-4o", "/x", "openai/"} {
		if _, err := r.ResolveID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNewRouterRegistersInOrder(t *testing.T) {
	first := fakeProvider("openai", "", "", "https://first.invalid", true)
	second := fakeProvider("openai", "", "", "https://second.invalid", true)
	r := NewRouter(nil, first, fakeProvider("ollama", "", "", "", true), second)
	if got := r.Providers(); len(got) != 2 || got[0] != "ollama" || got[1] != "openai" {
		t.Errorf("providers %v", got)
	}
	m, err := r.ResolveID("openai/x")
	if err != nil {
		t.Fatal(err)
	}
	if f := m.(*fakeModel); f.url != "https://second.invalid" {
		t.Errorf("the later entry must win: %+v", f)
	}
	r.Register(fakeProvider("a", "", "", "", true), fakeProvider("b", "", "", "", true))
	if got := r.Providers(); len(got) != 4 {
		t.Errorf("providers %v", got)
	}
}

// The error for a provider gomastra ships but the router lacks says which
// package to import and what to register.
func TestUnknownProviderMessage(t *testing.T) {
	r := NewRouter(nil, fakeProvider("openai", "", "", "", true))
	for id, want := range map[string]string{
		"anthropic/claude-sonnet-4-5": `model "anthropic/claude-sonnet-4-5": unknown provider (known: openai); import github.com/gomastra/mastra/model/anthropic and register anthropic.Providers()`,
		"google/gemini-2.5-flash":     `model "google/gemini-2.5-flash": unknown provider (known: openai); import github.com/gomastra/mastra/model/google and register google.Providers()`,
		"xai/grok-4":                  `model "xai/grok-4": unknown provider (known: openai); import github.com/gomastra/mastra/model/openai/chat and register chat.Providers()`,
		"ollama/llama3.2":             `model "ollama/llama3.2": unknown provider (known: openai); import github.com/gomastra/mastra/model/openai/chat and register chat.Providers()`,
		"acme/x":                      `model "acme/x": unknown provider (known: openai)`,
	} {
		_, err := r.ResolveID(id)
		var unknown *UnknownProviderError
		if !errors.As(err, &unknown) || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", id, err, want)
		}
	}
	_, err := NewRouter(nil).ResolveID("openai/gpt-5.6-sol")
	if want := `model "openai/gpt-5.6-sol": unknown provider (known: none); import github.com/gomastra/mastra/model/openai and register openai.Providers()`; err == nil || err.Error() != want {
		t.Errorf("empty router:\n got %v\nwant %s", err, want)
	}
	// The list is sorted by name, with packages of gomastra's model tree.
	shipped := ShippedProviders()
	for i, s := range shipped {
		if !strings.HasPrefix(s.Package, "github.com/gomastra/mastra/model/") || i > 0 && shipped[i-1].Name >= s.Name {
			t.Errorf("%d: %+v", i, s)
		}
	}
}
