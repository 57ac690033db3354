// Package providers wires every provider gomastra ships into one model
// router: Default(os.Getenv) resolves Mastra's "provider/model" ids.
//
//	openai/…      OPENAI_API_KEY, OPENAI_BASE_URL (package model/openai: Responses API;
//	              Chat Completions when the base URL is not api.openai.com)
//	anthropic/…   ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (package model/anthropic)
//	google/…      GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_GENERATIVE_AI_BASE_URL (package model/google)
//	xai/…         XAI_API_KEY, XAI_BASE_URL (package model/openai/chat, api.x.ai; a request
//	              with a provider tool, e.g. web search, uses the Responses API, model/openai)
//	openrouter/…  OPENROUTER_API_KEY, OPENROUTER_BASE_URL (package model/openai/chat, openrouter.ai)
//	groq/…        GROQ_API_KEY, GROQ_BASE_URL (package model/openai/chat, api.groq.com)
//	deepseek/…    DEEPSEEK_API_KEY, DEEPSEEK_BASE_URL (package model/openai/chat, api.deepseek.com)
//	ollama/…      OLLAMA_BASE_URL (package model/openai/chat; default http://localhost:11434/v1; no key)
//
// and Mastra's embedder ids, with the same variables (model.Router's
// ResolveEmbedding and Embedder):
//
//	openai/…      e.g. openai/text-embedding-3-small (package model/openai/embedding)
//	google/…      e.g. google/gemini-embedding-001 (package model/google)
//	ollama/…      e.g. ollama/nomic-embed-text (package model/openai/embedding, Ollama's /v1/embeddings)
//
// A model config's URL and APIKey override the environment. Nothing is
// dialled when a model is resolved.
//
// Importing this package links every provider's SDK. A program that needs
// only some providers builds its router from theirs instead, e.g.
//
//	r := model.NewRouter(os.Getenv, openai.Providers()...)
//
// and links only the OpenAI Responses API.
package providers

import (
	"net/url"
	"os"
	"slices"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/anthropic"
	"github.com/gomastra/mastra/model/google"
	"github.com/gomastra/mastra/model/openai"
	"github.com/gomastra/mastra/model/openai/chat"
	"github.com/gomastra/mastra/model/openai/embedding"
)

// Default returns a router with every provider above, reading the
// environment through getenv.
func Default(getenv func(string) string) *model.Router {
	ps := slices.Concat(openai.Providers(), chat.Providers(), anthropic.Providers(), google.Providers())
	for i := range ps {
		switch ps[i].Name {
		case "openai":
			ps[i].New = responsesOrChat(ps[i].New)
		case "xai":
			ps[i].New = chatOrResponses(ps[i].New)
		}
	}
	// The entries of embedding models only, joining the language models
	// of the same names.
	return model.NewRouter(getenv, append(ps, embedding.Providers()...)...)
}

// Embedder returns the embedding model named id
// ("openai/text-embedding-3-small"), resolved with Default(os.Getenv)
// (see model.Router.Embedder: a missing key becomes the error of its
// calls, naming the variable).
func Embedder(id string) model.EmbeddingModel { return Default(os.Getenv).Embedder(id) }

// responsesOrChat is the "openai" entry's constructor: responses (the
// Responses API) for OpenAI's own API, Chat Completions (provider id
// "openai.chat") for any other base URL, which is most likely an
// OpenAI-compatible server set through OPENAI_BASE_URL.
func responsesOrChat(responses model.Constructor) model.Constructor {
	return func(modelID, apiKey, baseURL string, headers map[string]string) (model.LanguageModel, error) {
		if u, err := url.Parse(baseURL); baseURL == "" || err != nil || u.Hostname() == "api.openai.com" {
			return responses(modelID, apiKey, baseURL, headers)
		}
		m, err := chat.New(modelID, chat.Config{APIKey: apiKey, BaseURL: baseURL, Headers: headers, Provider: "openai.chat"})
		if err != nil {
			return nil, err
		}
		return m, nil
	}
}

// Model returns the model named id ("openai/gpt-5.6-sol"), resolved with
// Default(os.Getenv) (see model.Router.Model: a missing key becomes the
// error of the model's calls, naming the variable).
func Model(id string) model.LanguageModel { return Default(os.Getenv).Model(id) }
