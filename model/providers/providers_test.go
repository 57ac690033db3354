package providers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
)

func TestDefaultRouter(t *testing.T) {
	env := map[string]string{
		"OPENAI_API_KEY": "sk-o", "ANTHROPIC_API_KEY": "sk-a", "GOOGLE_GENERATIVE_AI_API_KEY": "g",
		"XAI_API_KEY": "x", "OPENROUTER_API_KEY": "or", "GROQ_API_KEY": "gq", "DEEPSEEK_API_KEY": "ds",
	}
	r := Default(func(k string) string { return env[k] })
	for id, provider := range map[string]string{
		"openai/gpt-5.6-sol":                     "openai.responses",
		"anthropic/claude-sonnet-4-5":            "anthropic.messages",
		"google/gemini-2.5-flash":                "google.generative-ai",
		"xai/grok-4":                             "xai.chat",
		"openrouter/anthropic/claude-sonnet-4.5": "openrouter.chat",
		"groq/llama-3.3-70b-versatile":           "groq.chat",
		"deepseek/deepseek-chat":                 "deepseek.chat",
		"ollama/llama3.2":                        "ollama.chat",
	} {
		m, err := r.ResolveID(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		_, modelID, _ := model.ParseID(id)
		if m.Provider() != provider || m.ModelID() != modelID {
			t.Errorf("%s: provider %q model %q", id, m.Provider(), m.ModelID())
		}
	}
	empty := Default(func(string) string { return "" })
	var missing *model.MissingKeyError
	if _, err := empty.ResolveID("anthropic/claude-sonnet-4-5"); !errors.As(err, &missing) || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("missing key: %v", err)
	}
	if _, err := empty.ResolveID("ollama/llama3.2"); err != nil {
		t.Errorf("ollama needs no key: %v", err)
	}
	want := []string{"anthropic", "deepseek", "google", "groq", "ollama", "openai", "openrouter", "xai"}
	if got := r.Providers(); !slices.Equal(got, want) {
		t.Errorf("providers %v", got)
	}
}

// "openai/…" speaks the Responses API to OpenAI and Chat Completions to
// any other base URL.
func TestOpenAIResponsesOrChat(t *testing.T) {
	for _, tc := range []struct{ url, provider string }{
		{"", "openai.responses"},
		{"https://api.openai.com/v1", "openai.responses"},
		{"http://127.0.0.1:11434/v1", "openai.chat"},
		{"https://openai.example.com/v1", "openai.chat"},
	} {
		env := map[string]string{"OPENAI_API_KEY": "sk-o", "OPENAI_BASE_URL": tc.url}
		m, err := Default(func(k string) string { return env[k] }).ResolveID("openai/gpt-5.6-sol")
		if err != nil {
			t.Errorf("%q: %v", tc.url, err)
			continue
		}
		if m.Provider() != tc.provider || m.ModelID() != "gpt-5.6-sol" {
			t.Errorf("%q: provider %q model %q", tc.url, m.Provider(), m.ModelID())
		}
	}
	env := map[string]string{"OPENAI_API_KEY": "sk-o", "OPENAI_BASE_URL": "not a url"}
	if _, err := Default(func(k string) string { return env[k] }).ResolveID("openai/gpt-5.6-sol"); err == nil {
		t.Error("bad base URL accepted")
	}
}

func TestModelFailsOnItsCallsWhenAKeyIsMissing(t *testing.T) {
	m := Default(func(string) string { return "" }).Model("anthropic/claude-sonnet-4-5")
	if m.Provider() != "anthropic" || m.ModelID() != "claude-sonnet-4-5" {
		t.Errorf("names: %s %s", m.Provider(), m.ModelID())
	}
	_, err := model.Collect(context.Background(), m, &model.Request{})
	var missing *model.MissingKeyError
	if !errors.As(err, &missing) || missing.EnvVar != "ANTHROPIC_API_KEY" {
		t.Errorf("err %v", err)
	}
	ok := Default(func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test"}[k] }).Model("openai/gpt-5.6-sol")
	if ok.ModelID() != "gpt-5.6-sol" || !strings.HasPrefix(ok.Provider(), "openai") {
		t.Errorf("resolved: %s %s", ok.Provider(), ok.ModelID())
	}
}

// Mastra's embedder ids resolve beside the language models of the same
// providers.
func TestDefaultRouterEmbeddings(t *testing.T) {
	env := map[string]string{"OPENAI_API_KEY": "sk-o", "GOOGLE_GENERATIVE_AI_API_KEY": "g"}
	r := Default(func(k string) string { return env[k] })
	for id, want := range map[string]struct {
		provider string
		max      int
	}{
		"openai/text-embedding-3-small": {"openai.embedding", 2048},
		"google/gemini-embedding-001":   {"google.generative-ai", 100},
		"ollama/nomic-embed-text":       {"ollama.embedding", 2048},
	} {
		e, err := r.ResolveEmbeddingID(id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		_, modelID, _ := model.ParseID(id)
		if e.Provider() != want.provider || e.ModelID() != modelID || e.MaxValuesPerCall() != want.max {
			t.Errorf("%s: %s %s %d", id, e.Provider(), e.ModelID(), e.MaxValuesPerCall())
		}
	}
	if got, want := r.EmbeddingProviders(), []string{"google", "ollama", "openai"}; !slices.Equal(got, want) {
		t.Errorf("embedding providers %v", got)
	}
	// The language models of the same names are still there.
	for _, id := range []string{"openai/gpt-5.6-sol", "ollama/llama3.2", "google/gemini-2.5-flash"} {
		if _, err := r.ResolveID(id); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	var unknown *model.UnknownProviderError
	if _, err := r.ResolveEmbeddingID("anthropic/x"); !errors.As(err, &unknown) || !unknown.Embedding {
		t.Errorf("anthropic: %v", err)
	}
	e := Default(func(string) string { return "" }).Embedder("openai/text-embedding-3-small")
	_, err := model.EmbedMany(context.Background(), e, []string{"x"}, nil)
	var missing *model.MissingKeyError
	if !errors.As(err, &missing) || missing.EnvVar != "OPENAI_API_KEY" {
		t.Errorf("missing key: %v", err)
	}
}

// Ollama's embeddings through the default router, against a local
// stand-in for its /v1/embeddings.
func TestDefaultRouterOllamaEmbeddings(t *testing.T) {
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"object":"embedding","embedding":[0.5,0.5],"index":0}],"model":"nomic-embed-text","usage":{"prompt_tokens":2,"total_tokens":2}}`)
	}))
	defer srv.Close()
	env := map[string]string{"OLLAMA_BASE_URL": srv.URL + "/v1"}
	e, err := Default(func(k string) string { return env[k] }).ResolveEmbeddingID("ollama/nomic-embed-text")
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.EmbedMany(context.Background(), e, []string{"hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Vectors) != 1 || len(res.Vectors[0]) != 2 || res.Usage.Tokens != 2 {
		t.Errorf("result %+v", res)
	}
	if body["model"] != "nomic-embed-text" || body["encoding_format"] != "float" {
		t.Errorf("body %v", body)
	}
}
