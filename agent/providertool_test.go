package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// searchTool resolves to each provider's own search, as webSearchTool does.
func searchTool() *tools.Tool {
	return tools.NewProviderTool("web-search", "Searches the web", func(provider, _ string) (tools.ProviderTool, error) {
		if strings.HasPrefix(provider, "mock") {
			return tools.ProviderTool{ID: "mock.web_search", Name: "web_search"}, nil
		}
		return tools.ProviderTool{}, errors.New("no search for " + provider)
	})
}

// A provider tool is offered by its resolved id and name, never executed
// here; the provider's call and result are streamed as providerExecuted.
func TestProviderToolIsOfferedAndItsResultsStreamed(t *testing.T) {
	m := mock.New(mock.Step{Parts: []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartToolInputStart, ID: "ws_1", ToolName: "web_search", ProviderExecuted: true},
		{Type: model.PartToolInputEnd, ID: "ws_1"},
		{Type: model.PartToolCall, ToolCallID: "ws_1", ToolName: "web_search", Input: `{"query":"Lisbon"}`, ProviderExecuted: true},
		{Type: model.PartToolResult, ToolCallID: "ws_1", ToolName: "web_search", Result: map[string]any{"action": map[string]any{"type": "search"}}, ProviderExecuted: true},
		{Type: model.PartSource, Source: &model.Source{SourceType: "url", ID: "s1", URL: "https://weather.example"}},
		{Type: model.PartTextStart, ID: "t"}, {Type: model.PartTextDelta, ID: "t", Delta: "Sunny."}, {Type: model.PartTextEnd, ID: "t"},
		{Type: model.PartFinish, FinishReason: model.FinishStop},
	}})
	a := newAgent(t, m, tools.Set{"webSearch": searchTool()})
	chunks, types := chunkTypes(t, a.Stream(context.Background(), "Weather in Lisbon?"))
	defs := m.Calls()[0].Tools
	if len(defs) != 1 || defs[0].Type != model.ToolTypeProviderDefined || defs[0].ID != "mock.web_search" || defs[0].Name != "web_search" {
		t.Fatalf("tool definitions %+v", defs)
	}
	if len(m.Calls()) != 1 {
		t.Errorf("%d model calls: a provider-executed call must not start another step", len(m.Calls()))
	}
	for _, want := range []string{stream.TypeToolCallInputStreamingStart, stream.TypeToolCall, stream.TypeToolResult, stream.TypeSource, stream.TypeTextDelta, stream.TypeFinish} {
		if !slices.Contains(types, want) {
			t.Errorf("no %s chunk in %v", want, types)
		}
	}
	for _, c := range chunks {
		switch c.Type {
		case stream.TypeToolCall, stream.TypeToolResult:
			b, _ := json.Marshal(c.Payload)
			if !strings.Contains(string(b), `"providerExecuted":true`) || !strings.Contains(string(b), `"toolName":"web_search"`) {
				t.Errorf("%s payload %s", c.Type, b)
			}
		}
	}
	out, err := newAgent(t, mock.New(mock.Step{Parts: []model.StreamPart{{Type: model.PartStreamStart},
		{Type: model.PartToolCall, ToolCallID: "ws_2", ToolName: "web_search", Input: `{}`, ProviderExecuted: true},
		{Type: model.PartFinish, FinishReason: model.FinishStop}}}), tools.Set{"webSearch": searchTool()}).Generate(context.Background(), "go")
	if err != nil || out.FinishReason != model.FinishStop {
		t.Fatalf("generate: %v %+v", err, out)
	}
	if b, _ := json.Marshal(out.Response); !strings.Contains(string(b), `"providerExecuted":true`) {
		t.Errorf("the assistant message lost the provider's call: %s", b)
	}
}

// A provider tool the model's provider does not have fails the run with
// the resolver's error.
func TestProviderToolUnsupportedByTheModelFailsTheRun(t *testing.T) {
	m := mock.New(mock.Step{Text: "never"}).WithID("other-provider", "x")
	_, err := newAgent(t, m, tools.Set{"webSearch": searchTool()}).Generate(context.Background(), "go")
	if err == nil || !strings.Contains(err.Error(), "no search for other-provider") {
		t.Fatalf("err = %v", err)
	}
	if len(m.Calls()) != 0 {
		t.Errorf("the model was called")
	}
}
