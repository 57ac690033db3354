package builtin

import (
	"errors"
	"testing"

	"github.com/gomastra/mastra/agent"
)

// Mastra 1.71's normalizeWebSearchProvider on provider strings (results
// checked against @mastra/core's own function): supported names pass, a
// model-router id passes by its part before the first "/", nothing else
// does, and "." is never a separator.
func TestNormalizeWebSearchProviderMatchesMastra(t *testing.T) {
	for in, want := range map[string]string{
		"openai": "openai", "anthropic": "anthropic", "google": "google", "xai": "xai",
		"openai/gpt-4o": "openai", "xai/grok-4": "xai", "google/": "google", "anthropic/claude/x": "anthropic",
		"openai.responses": "", "openrouter": "", "openrouter/openai/gpt-4o": "", "/openai": "", "OpenAI": "", "": "",
	} {
		got, err := normalizeWebSearchProvider(in)
		if want != "" {
			if err != nil || got != want {
				t.Errorf("%q: %q, %v; want %q", in, got, err, want)
			}
			continue
		}
		var re *agent.RunError
		if !errors.As(err, &re) {
			t.Fatalf("%q: err %v, want a RunError", in, err)
		}
		wantText := `The built-in webSearchTool supports OpenAI, Anthropic, Google, and xAI models. Could not infer a supported provider from "` + in + `".`
		if re.Message != wantText || re.ID != "WEB_SEARCH_UNSUPPORTED_PROVIDER" || re.Domain != "AGENT" || re.Category != "USER" ||
			len(re.Details) != 1 || re.Details["provider"] != in {
			t.Errorf("%q: %+v", in, re)
		}
	}
}
