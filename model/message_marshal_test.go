package model

import (
	"encoding/json"
	"testing"
)

// referenceMessageJSON is Message.MarshalJSON as encoding/json writes
// the wire shape, which the hand-written encoder must equal.
func referenceMessageJSON(t *testing.T, m Message) []byte {
	t.Helper()
	var content []byte
	var err error
	if m.Role == RoleSystem {
		content, err = json.Marshal(m.TextContent())
	} else {
		parts := make([]json.RawMessage, 0, len(m.Content))
		for _, p := range m.Content {
			w := wirePart{Type: p.Type, ProviderOptions: p.ProviderOptions}
			var pb []byte
			if p.Type == MessageText || p.Type == MessageReasoning {
				text := p.Text
				w.Text = &text
				pb, err = json.Marshal(w)
			} else {
				pb, err = p.MarshalJSON()
			}
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, pb)
		}
		content, err = json.Marshal(parts)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(wireMessage{Role: m.Role, Content: content, ProviderOptions: m.ProviderOptions})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMessageMarshalJSONEqualsTheWireShape(t *testing.T) {
	odd := "<b>&amp;</b> \u2028 \"quoted\" \\ \x01 é 😀 " + string([]byte{0xff, 'x'})
	po := ProviderOptions{"anthropic": {"cacheControl": map[string]any{"type": "ephemeral"}}}
	msgs := []Message{
		System("Be brief. " + odd),
		UserText(odd),
		{Role: RoleUser},
		{Role: RoleUser, Content: []Part{}},
		User(Text("a"), Image("aGVsbG8=", "image/png"), File("ZGF0YQ==", "text/plain", "a.txt")),
		Assistant(Reasoning("thinking "+odd), Text("answer"), ToolCall("c1", "add", json.RawMessage(`{"a":1}`))),
		{Role: RoleAssistant, Content: []Part{{Type: MessageText, Text: "cached", ProviderOptions: po}}, ProviderOptions: po},
		ToolMessage(ToolResultPart{ToolCallID: "c1", ToolName: "add", Output: JSONOutput(map[string]any{"sum": 3, "html": "<x>"}), Input: json.RawMessage(`{"a":1}`)}),
	}
	for i, m := range msgs {
		got, err := m.MarshalJSON()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if want := referenceMessageJSON(t, m); string(got) != string(want) {
			t.Errorf("message %d:\n got  %s\n want %s", i, got, want)
		}
	}
}
