package model

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMessagesMarshalAsTheAISDK(t *testing.T) {
	msgs := []Message{
		System("You are a helpful weather assistant."),
		UserText("Weather in Paris?"),
		User(Text("and this"), Image("https://example.invalid/a.png", "image/png"), File("aGk=", "text/plain", "hi.txt")),
		Assistant(Reasoning("look it up"), Text("Checking."), ToolCall("call-1", "weatherTool", json.RawMessage(`{"location":"Paris"}`))),
		ToolMessage(ToolResultPart{ToolCallID: "call-1", ToolName: "weatherTool", Output: JSONOutput(map[string]any{"temperatureCelsius": 21.0})}),
	}
	got, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"system","content":"You are a helpful weather assistant."},` +
		`{"role":"user","content":[{"type":"text","text":"Weather in Paris?"}]},` +
		`{"role":"user","content":[{"type":"text","text":"and this"},{"type":"image","image":"https://example.invalid/a.png","mediaType":"image/png"},{"type":"file","data":"aGk=","mediaType":"text/plain","filename":"hi.txt"}]},` +
		`{"role":"assistant","content":[{"type":"reasoning","text":"look it up"},{"type":"text","text":"Checking."},{"type":"tool-call","toolCallId":"call-1","toolName":"weatherTool","input":{"location":"Paris"}}]},` +
		`{"role":"tool","content":[{"type":"tool-result","toolCallId":"call-1","toolName":"weatherTool","output":{"type":"json","value":{"temperatureCelsius":21}}}]}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back []Message
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if d := cmp.Diff(string(got), string(again)); d != "" {
		t.Errorf("round trip (-first +second):\n%s", d)
	}
	var userString Message
	if err := json.Unmarshal([]byte(`{"role":"user","content":"hi"}`), &userString); err != nil || userString.TextContent() != "hi" {
		t.Errorf("string content: %v %+v", err, userString)
	}
	for _, bad := range []string{`{"role":"robot","content":"x"}`, `{"role":"user","content":[{"type":"video"}]}`} {
		var m Message
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestUsageAdd(t *testing.T) {
	u := Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3}.Add(Usage{InputTokens: 4, OutputTokens: 5, TotalTokens: 9, ReasoningTokens: 1})
	if u != (Usage{InputTokens: 5, OutputTokens: 7, TotalTokens: 12, ReasoningTokens: 1}) {
		t.Errorf("%+v", u)
	}
}

func TestKeepParts(t *testing.T) {
	m := Assistant(Text("a"), ToolCall("c1", "add", json.RawMessage(`{}`)), Text("b"))
	kept, dropped := m.KeepParts(func(p Part) bool { return p.Type == MessageText })
	if !dropped || len(kept.Content) != 2 || kept.Content[1].Text != "b" || len(m.Content) != 3 {
		t.Errorf("kept %+v (dropped %v), original %d parts", kept.Content, dropped, len(m.Content))
	}
	same, dropped := m.KeepParts(func(Part) bool { return true })
	if dropped || &same.Content[0] != &m.Content[0] {
		t.Errorf("keeping every part copied the message (dropped %v)", dropped)
	}
}
