package providers

import (
	"context"
	"errors"
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
