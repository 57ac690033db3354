package builtin

import (
	"strings"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/tools"
)

const (
	// WebSearchToolID is WebSearchTool's id in registries and the HTTP
	// API. (Mastra's webSearchTool has none; the model never sees it.)
	WebSearchToolID = "web_search"
	// WebSearchUnsupportedProviderID is the ID of the run error when the
	// model's provider has no web search (Mastra's error id).
	WebSearchUnsupportedProviderID = mastraerror.IDWebSearchUnsupportedProvider
)

// WebSearchTool is Mastra's webSearchTool: one tool value that becomes,
// for each model call, the model provider's own web search, run by the
// provider (its calls and results stream back as providerExecuted):
//
//	provider   tool id                          model-facing name
//	openai     openai.web_search                web_search
//	anthropic  anthropic.web_search_20250305    web_search
//	google     google.google_search             google_search
//	xai        xai.web_search                   web_search
//
// The provider is read from the model as [WebSearchProviderTool] says. A
// model of any other provider fails the run with a *agent.RunError whose
// ID is WEB_SEARCH_UNSUPPORTED_PROVIDER.
//
//	agent.Config{Model: m, Tools: tools.Set{"webSearch": builtin.WebSearchTool}}
var WebSearchTool = tools.NewProviderTool(WebSearchToolID,
	"Searches the web with the model provider's own search tool (OpenAI, Anthropic, Google or xAI).",
	WebSearchProviderTool)

// webSearchTools are the provider tools of the four supported providers.
var webSearchTools = map[string]tools.ProviderTool{
	"openai":    {ID: "openai.web_search", Name: "web_search"},
	"anthropic": {ID: "anthropic.web_search_20250305", Name: "web_search"},
	"google":    {ID: "google.google_search", Name: "google_search"},
	"xai":       {ID: "xai.web_search", Name: "web_search"},
}

// WebSearchProviderTool is WebSearchTool's resolver: the web search tool
// of the model whose provider and model ids are given (a model's
// Provider() and ModelID()), with no arguments.
//
// The provider is inferred as Mastra infers it from its model-router
// models. gomastra's models report the AI SDK's provider ids
// ("openai.responses", "anthropic.messages", "google.generative-ai",
// "xai.chat", "groq.chat"): the name before the first "." is the provider
// Mastra's router reports for the same "provider/model" id ("openai").
// For "openai-compatible" the model id is read instead. The name is
// accepted if it is one of openai, anthropic, google and xai, or if its
// part before the first "/" is ("openai/gpt-5" through an
// OpenAI-compatible gateway); anything else is a *agent.RunError with
// ID WEB_SEARCH_UNSUPPORTED_PROVIDER, Domain AGENT, Category USER,
// Details {"provider": name} and Mastra's message.
func WebSearchProviderTool(provider, modelID string) (tools.ProviderTool, error) {
	name, _, _ := strings.Cut(provider, ".")
	if name == "openai-compatible" {
		name = modelID
	}
	supported, err := normalizeWebSearchProvider(name)
	if err != nil {
		return tools.ProviderTool{}, err
	}
	pt := webSearchTools[supported]
	pt.Args = map[string]any{}
	return pt, nil
}

// normalizeWebSearchProvider is Mastra's normalizeWebSearchProvider for a
// provider string: the string itself when supported, else its part before
// the first "/" (not at index 0) when that is; "openai.responses" is not
// split.
func normalizeWebSearchProvider(provider string) (string, error) {
	if _, ok := webSearchTools[provider]; ok {
		return provider, nil
	}
	if i := strings.Index(provider, "/"); i > 0 {
		if _, ok := webSearchTools[provider[:i]]; ok {
			return provider[:i], nil
		}
	}
	return "", &agent.RunError{
		Message: `The built-in webSearchTool supports OpenAI, Anthropic, Google, and xAI models. Could not infer a supported provider from "` +
			provider + `".`,
		Domain: mastraerror.DomainAgent, Category: mastraerror.CategoryUser, ID: WebSearchUnsupportedProviderID,
		Details: map[string]any{"provider": provider},
	}
}
