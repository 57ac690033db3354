package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/internal/providertest"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/openai/internal/oaitest"
)

// Chunks are decoded as leniently as the SDK decoded them: numbers sent
// as floats or strings (as some OpenAI-compatible servers do) still count.
func TestStreamLenientNumbers(t *testing.T) {
	fs := providertest.New(t, providertest.Reply{Fixture: "lenient.sse"})
	m := newModel(t, fs, Config{})
	parts, err := oaitest.Parts(t, m, &model.Request{Messages: []model.Message{model.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.StreamPart{
		{Type: model.PartStreamStart},
		{Type: model.PartResponseMetadata, Response: &model.ResponseMetadata{ID: "chatcmpl-Len06", ModelID: "local-model", Timestamp: oaitest.Time(1735690200)}},
		{Type: model.PartTextStart, ID: "0"},
		{Type: model.PartTextDelta, ID: "0", Delta: ""},
		{Type: model.PartTextDelta, ID: "0", Delta: "Hi"},
		{Type: model.PartToolInputStart, ID: "call_len", ToolName: "f"},
		{Type: model.PartToolInputDelta, ID: "call_len", Delta: "{}"},
		{Type: model.PartToolInputEnd, ID: "call_len"},
		{Type: model.PartToolCall, ToolCallID: "call_len", ToolName: "f", Input: "{}"},
		{Type: model.PartTextEnd, ID: "0"},
		{Type: model.PartFinish, FinishReason: model.FinishToolCalls, RawFinishReason: "tool_calls",
			Usage: model.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}, ProviderMetadata: meta()},
	}
	if d := cmp.Diff(want, parts); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
}

// An event with an "error" member is the stream's error, even the first
// one; an unreadable first event is the call's error.
func TestStreamErrorEvents(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		parts   int
		err     string
	}{
		{"error_first.sse", 2, `openai: received error while streaming: {"message":"boom","type":"server_error"}`},
		{"error_string.sse", 5, "openai: received error while streaming: overloaded"},
	} {
		fs := providertest.New(t, providertest.Reply{Fixture: tc.fixture})
		parts, err := oaitest.Parts(t, newModel(t, fs, Config{}), &model.Request{Messages: []model.Message{model.UserText("x")}})
		if err != nil {
			t.Fatalf("%s: %v", tc.fixture, err)
		}
		if len(parts) != tc.parts || parts[0].Type != model.PartStreamStart {
			t.Fatalf("%s: parts %+v", tc.fixture, parts)
		}
		if last := parts[len(parts)-1]; last.Type != model.PartError || last.Err == nil || last.Err.Error() != tc.err {
			t.Errorf("%s: last part %+v, want the error %q", tc.fixture, last, tc.err)
		}
	}
	fs := providertest.New(t, providertest.Reply{Fixture: "invalid_first.sse"})
	parts, err := oaitest.Parts(t, newModel(t, fs, Config{}), &model.Request{Messages: []model.Message{model.UserText("x")}})
	if len(parts) != 0 || err == nil || !strings.HasPrefix(err.Error(), "openai: ") {
		t.Errorf("invalid first event: parts %+v, err %v", parts, err)
	}
}

// mayBeComplete only ever spares a json.Valid that would be false.
func TestMayBeComplete(t *testing.T) {
	for _, text := range []string{
		`{"city":"Paris","nested":{"a":[1,2,{"b":"}"}]},"s":"x]"}`,
		` [ {"a":1}, [], "]" ] `, `"just a string"`, `42`, `true`, `null`, `{}`,
	} {
		for i := range len(text) + 1 {
			p := []byte(text[:i])
			if json.Valid(p) && !mayBeComplete(p) {
				t.Errorf("mayBeComplete(%q) = false for valid JSON", p)
			}
		}
	}
}
