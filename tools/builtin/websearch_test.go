package builtin_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// Each supported model resolves to its provider's search, with Mastra's
// ids, names and empty args; gomastra's models are recognised by their
// AI SDK provider ids.
func TestWebSearchProviderTool(t *testing.T) {
	openai := tools.ProviderTool{ID: "openai.web_search", Name: "web_search", Args: map[string]any{}}
	anthropic := tools.ProviderTool{ID: "anthropic.web_search_20250305", Name: "web_search", Args: map[string]any{}}
	google := tools.ProviderTool{ID: "google.google_search", Name: "google_search", Args: map[string]any{}}
	xai := tools.ProviderTool{ID: "xai.web_search", Name: "web_search", Args: map[string]any{}}
	for _, c := range []struct {
		provider, modelID string
		want              tools.ProviderTool
		// fails: the run error's provider detail is unsupported.
		fails       bool
		unsupported string
	}{
		{provider: "openai.responses", modelID: "gpt-5", want: openai},
		{provider: "openai.chat", modelID: "gpt-4o", want: openai},
		{provider: "anthropic.messages", modelID: "claude-sonnet-4-5", want: anthropic},
		{provider: "google.generative-ai", modelID: "gemini-2.5-flash", want: google},
		{provider: "xai.chat", modelID: "grok-4", want: xai},
		// A router model that could not be built reports the bare name.
		{provider: "anthropic", modelID: "claude-sonnet-4-5", want: anthropic},
		// OpenAI-compatible endpoints are read by model id, as in Mastra.
		{provider: "openai-compatible", modelID: "openai/gpt-4o", want: openai},
		{provider: "openai-compatible.chat", modelID: "xai/grok-4", want: xai},
		{provider: "openai-compatible", modelID: "llama-3", unsupported: "llama-3", fails: true},
		{provider: "groq.chat", modelID: "llama-3", unsupported: "groq", fails: true},
		{provider: "openrouter.chat", modelID: "openai/gpt-4o", unsupported: "openrouter", fails: true},
		{provider: "mock-provider", modelID: "mock-model-id", unsupported: "mock-provider", fails: true},
		{provider: "", modelID: "gpt-5", unsupported: "", fails: true},
	} {
		got, err := builtin.WebSearchProviderTool(c.provider, c.modelID)
		if c.fails {
			var re *agent.RunError
			if !errors.As(err, &re) || re.ID != builtin.WebSearchUnsupportedProviderID || re.Details["provider"] != c.unsupported {
				t.Errorf("%s %s: err %v, want unsupported %q", c.provider, c.modelID, err, c.unsupported)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.provider, c.modelID, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", c.provider, c.modelID, diff)
		}
	}
}

func TestWebSearchToolValue(t *testing.T) {
	wt := builtin.WebSearchTool
	if wt.ID() != builtin.WebSearchToolID || !wt.IsProviderTool() || wt.RequireApproval() {
		t.Errorf("tool %s provider=%v approval=%v", wt.ID(), wt.IsProviderTool(), wt.RequireApproval())
	}
	if _, ok, err := wt.ResolveProviderTool("google.generative-ai", "gemini-2.5-pro"); !ok || err != nil {
		t.Errorf("resolve: %v %v", ok, err)
	}
}

func searchAgent(t *testing.T, m *mock.Model) *agent.Agent {
	t.Helper()
	a, err := agent.New(agent.Config{
		ID: "searcher", Instructions: "Search when asked.", Model: m,
		Tools:  tools.Set{"webSearch": builtin.WebSearchTool},
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Through an agent: the model is offered its provider's search as a
// provider-defined tool; a model without one fails the run with Mastra's
// error before it is called.
func TestWebSearchToolInAnAgent(t *testing.T) {
	for provider, want := range map[string]model.ToolDefinition{
		"openai.responses":     {Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "openai.web_search"},
		"anthropic.messages":   {Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "anthropic.web_search_20250305"},
		"google.generative-ai": {Type: model.ToolTypeProviderDefined, Name: "google_search", ID: "google.google_search"},
	} {
		m := mock.New(mock.Step{Text: "Sunny."}).WithID(provider, "m")
		if _, err := searchAgent(t, m).Generate(context.Background(), "Weather in Lisbon?"); err != nil {
			t.Fatalf("%s: %v", provider, err)
		}
		defs := m.Calls()[0].Tools
		if len(defs) != 1 {
			t.Fatalf("%s: %d tools", provider, len(defs))
		}
		got := defs[0]
		got.Args = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", provider, diff)
		}
	}
	m := mock.New(mock.Step{Text: "never"}).WithID("groq.chat", "llama-3")
	out, err := searchAgent(t, m).Generate(context.Background(), "go")
	var re *agent.RunError
	if !errors.As(err, &re) || re.ID != builtin.WebSearchUnsupportedProviderID || re.Domain != "AGENT" || re.Category != "USER" {
		t.Fatalf("err = %#v", err)
	}
	if want := `The built-in webSearchTool supports OpenAI, Anthropic, Google, and xAI models. Could not infer a supported provider from "groq".`; re.Message != want {
		t.Errorf("message %q", re.Message)
	}
	if len(m.Calls()) != 0 || out == nil || out.FinishReason != model.FinishError {
		t.Errorf("the model was called, or the run did not fail: %d calls", len(m.Calls()))
	}
}
