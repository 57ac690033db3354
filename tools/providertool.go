package tools

import "fmt"

// ProviderTool is a tool the model's provider runs itself (the AI SDK's
// provider-defined tools: OpenAI's web_search, Anthropic's
// web_search_20250305, Google's google_search, ...): the agent offers it
// to the model by ID, Name and Args, never executes it, and streams the
// provider's own call and result (providerExecuted).
type ProviderTool struct {
	// ID names the provider tool, "<provider>.<tool>" ("openai.web_search").
	ID string
	// Name is the model-facing name ("web_search"): the toolName of its
	// calls and results.
	Name string
	// Args are the provider tool's settings (none for a default search).
	Args map[string]any
}

// ProviderToolResolver picks the provider tool for the model a run uses,
// given the model's provider ("openai.responses", "anthropic.messages")
// and model ids, or says why there is none. A resolver is how one tool
// value (Mastra's webSearchTool) becomes each provider's own tool.
type ProviderToolResolver func(provider, modelID string) (ProviderTool, error)

// NewProviderTool returns a tool whose calls the model's provider runs:
// it has no Execute, and an agent resolves it for each model call with
// resolve (an error fails the run). id names it in the registry and the
// HTTP API; description is shown there (providers describe their own
// tools to the model).
func NewProviderTool(id, description string, resolve ProviderToolResolver) *Tool {
	if id == "" || resolve == nil {
		panic(fmt.Sprintf("tools: NewProviderTool(%q): an id and a resolver are required", id))
	}
	t := New(DynamicConfig{ID: id, Description: description})
	t.providerTool, t.toolType = resolve, "provider"
	return t
}

// ResolveProviderTool resolves a provider tool for a model: ok is false
// for every other tool.
func (t *Tool) ResolveProviderTool(provider, modelID string) (pt ProviderTool, ok bool, err error) {
	if t.providerTool == nil {
		return ProviderTool{}, false, nil
	}
	pt, err = t.providerTool(provider, modelID)
	return pt, true, err
}

// IsProviderTool reports whether the model's provider runs the tool.
func (t *Tool) IsProviderTool() bool { return t.providerTool != nil }
