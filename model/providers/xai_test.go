package providers

import (
	"os"
	"testing"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
)

// "xai/…" asks xAI's Responses API when the request has a provider tool
// (web search works there only), and Chat Completions otherwise.
func TestXAIWebSearchGoesThroughTheResponsesAPI(t *testing.T) {
	sse, err := os.ReadFile("../openai/testdata/responses_web_search.sse")
	if err != nil {
		t.Fatal(err)
	}
	fs := providertest.New(t, providertest.Reply{Body: string(sse), Headers: map[string]string{"Content-Type": "text/event-stream"}})
	env := map[string]string{"XAI_API_KEY": "xai-test", "XAI_BASE_URL": fs.URL + "/v1"}
	m, err := Default(func(k string) string { return env[k] }).ResolveID("xai/grok-4")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := model.Collect(t.Context(), m, &model.Request{
		Messages: []model.Message{model.UserText("Weather in Lisbon?")},
		Tools:    []model.ToolDefinition{{Type: model.ToolTypeProviderDefined, Name: "web_search", ID: "xai.web_search"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := fs.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/responses" {
		t.Fatalf("requests %+v", reqs)
	}
	tools, _ := fs.JSONBody(t, 0)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["type"] != "web_search" || fs.JSONBody(t, 0)["model"] != "grok-4" {
		t.Errorf("request body %v", fs.JSONBody(t, 0))
	}
	if len(resp.ToolCalls) != 1 || !resp.ToolCalls[0].ProviderExecuted || resp.ToolCalls[0].ToolName != "web_search" || resp.Text != "Sunny, 21°C." {
		t.Errorf("response %+v", resp)
	}
	if len(resp.Warnings) != 0 {
		t.Errorf("warnings %+v", resp.Warnings)
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer xai-test" {
		t.Errorf("authorization %q", got)
	}
}
