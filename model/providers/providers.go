// Package providers wires the providers of gomastra into a model router:
// Default(os.Getenv) resolves Mastra's "provider/model" ids.
//
//	openai/…      OPENAI_API_KEY, OPENAI_BASE_URL (Responses API on api.openai.com)
//	anthropic/…   ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
//	google/…      GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_GENERATIVE_AI_BASE_URL
//	xai/…         XAI_API_KEY (OpenAI-compatible, api.x.ai)
//	openrouter/…  OPENROUTER_API_KEY (OpenAI-compatible, openrouter.ai)
//	groq/…        GROQ_API_KEY (OpenAI-compatible, api.groq.com)
//	deepseek/…    DEEPSEEK_API_KEY (OpenAI-compatible, api.deepseek.com)
//	ollama/…      OLLAMA_BASE_URL (default http://localhost:11434/v1; no key)
//
// A model config's URL and APIKey override the environment. Nothing is
// dialled when a model is resolved.
package providers

import (
	"os"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/anthropic"
	"github.com/gomastra/mastra/model/google"
	"github.com/gomastra/mastra/model/openai"
)

// Default returns a router with every provider above, reading the
// environment through getenv.
func Default(getenv func(string) string) *model.Router {
	r := model.NewRouter(getenv)
	r.Register(model.Provider{Name: "openai", APIKeyEnv: "OPENAI_API_KEY", BaseURLEnv: "OPENAI_BASE_URL", New: openai.Constructor})
	r.Register(model.Provider{Name: "anthropic", APIKeyEnv: "ANTHROPIC_API_KEY", BaseURLEnv: "ANTHROPIC_BASE_URL", New: anthropic.Constructor})
	r.Register(model.Provider{Name: "google", APIKeyEnv: "GOOGLE_GENERATIVE_AI_API_KEY", BaseURLEnv: "GOOGLE_GENERATIVE_AI_BASE_URL", New: google.Constructor})
	for _, c := range []struct{ name, keyEnv, urlEnv, url string }{
		{"xai", "XAI_API_KEY", "XAI_BASE_URL", "https://api.x.ai/v1"},
		{"openrouter", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL", "https://openrouter.ai/api/v1"},
		{"groq", "GROQ_API_KEY", "GROQ_BASE_URL", "https://api.groq.com/openai/v1"},
		{"deepseek", "DEEPSEEK_API_KEY", "DEEPSEEK_BASE_URL", "https://api.deepseek.com/v1"},
		{"ollama", "", "OLLAMA_BASE_URL", "http://localhost:11434/v1"},
	} {
		r.Register(model.Provider{
			Name: c.name, APIKeyEnv: c.keyEnv, BaseURLEnv: c.urlEnv, DefaultBaseURL: c.url, KeyOptional: c.keyEnv == "",
			New: compatible(c.name),
		})
	}
	return r
}

// compatible builds an OpenAI-compatible provider's model on Chat
// Completions, reporting "<name>.chat" as its provider id.
func compatible(name string) model.Constructor {
	return func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
		return openai.New(modelID, openai.Config{
			APIKey: apiKey, BaseURL: baseURL, Headers: headers, API: openai.APIChat, Provider: name + ".chat",
		})
	}
}

// Model returns the model named id ("openai/gpt-5.6-sol"), resolved with
// Default(os.Getenv) (see model.Router.Model: a missing key becomes the
// error of the model's calls, naming the variable).
func Model(id string) model.LanguageModel { return Default(os.Getenv).Model(id) }
