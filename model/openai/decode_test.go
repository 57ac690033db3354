package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

// Events are decoded as leniently as the SDK decoded them: numbers sent
// as floats or strings still count.
func TestResponsesLenientNumbers(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "responses_lenient.sse"})
	parts, err := oaitest.Parts(t, newResponsesModel(t, fs), &model.Request{Messages: []model.Message{model.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "resp_len1", ModelID: "local-model", Timestamp: oaitest.Time(1741291200)}},
		{Type: model.PartToolInputStart, ID: "call_len", ToolName: "f"},
		{Type: model.PartToolInputDelta, ID: "call_len", Delta: "{}"},
		{Type: model.PartToolInputEnd, ID: "call_len"},
		{Type: model.PartToolCall, ToolCallID: "call_len", ToolName: "f", Input: "{}", ProviderMetadata: model.ProviderMetadata{"openai": {"itemId": "fc_len"}}},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls,
			Usage:            model.Usage{InputTokens: 12, OutputTokens: 3, TotalTokens: 15, CachedInputTokens: 2},
			ProviderMetadata: model.ProviderMetadata{"openai": {"responseId": "resp_len1"}}},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
}
