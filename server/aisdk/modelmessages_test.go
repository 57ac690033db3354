package aisdk

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
)

// withoutCreatedAt drops Mastra's bookkeeping providerOptions.mastra.createdAt
// (and the options it leaves empty) from decoded prompt messages.
func withoutCreatedAt(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[k] = withoutCreatedAt(e)
		}
		if po, ok := out["providerOptions"].(map[string]any); ok {
			if ms, ok := po["mastra"].(map[string]any); ok {
				delete(ms, "createdAt")
				if len(ms) == 0 {
					delete(po, "mastra")
				}
			}
			if len(po) == 0 {
				delete(out, "providerOptions")
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withoutCreatedAt(e)
		}
		return out
	}
	return v
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestToModelMessagesMatchesMastra converts the recorded multi-turn chat
// (text, files, reasoning, tool parts of earlier turns with a result, an
// error and a dynamic tool, data parts) and compares the messages with
// the prompt Mastra gave its model for the same request.
func TestToModelMessagesMatchesMastra(t *testing.T) {
	f := loadHTTPFixture(t, "multi-turn")
	var body struct {
		Messages []UIMessage `json:"messages"`
	}
	if err := json.Unmarshal(f.Request.Body, &body); err != nil {
		t.Fatal(err)
	}
	got, err := ToModelMessages(body.Messages)
	if err != nil {
		t.Fatal(err)
	}
	prompts := f.Prompts["text-model"]
	if len(prompts) != 1 {
		t.Fatalf("%d recorded prompts, want 1", len(prompts))
	}
	want := prompts[0][1:] // the system message is the agent's instructions
	gotJSON, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(withoutCreatedAt(decodeAny(t, wantJSON)), decodeAny(t, gotJSON)); diff != "" {
		t.Errorf("model messages differ from Mastra's prompt (-mastra +ours):\n%s", diff)
	}
}

func TestToModelMessages(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name string
		in   []UIMessage
		want []model.Message
	}{
		{
			name: "system texts are joined",
			in:   []UIMessage{{Role: "system", Parts: []UIPart{{Type: "text", Text: "Be "}, {Type: "text", Text: "brief."}}}},
			want: []model.Message{model.System("Be brief.")},
		},
		{
			name: "content strings",
			in:   []UIMessage{{Role: "user", Content: json.RawMessage(`"Hi"`)}, {Role: "assistant", Content: json.RawMessage(`"Hello"`)}},
			want: []model.Message{model.UserText("Hi"), model.Assistant(model.Text("Hello"))},
		},
		{
			name: "a plain data URL is base64-encoded",
			in:   []UIMessage{{Role: "user", Parts: []UIPart{{Type: "file", MediaType: "text/plain", URL: "data:text/plain,a%20b"}}}},
			want: []model.Message{model.User(model.File("YSBi", "text/plain", ""))},
		},
		{
			name: "a remote file URL is kept",
			in:   []UIMessage{{Role: "user", Parts: []UIPart{{Type: "file", MediaType: "image/png", URL: "https://example.com/a.png"}}}},
			want: []model.Message{model.User(model.File("https://example.com/a.png", "image/png", ""))},
		},
		{
			name: "streaming inputs are not sent, a waiting call has no result",
			in: []UIMessage{{Role: "assistant", Parts: []UIPart{
				{Type: "tool-a", ToolCallID: "c1", State: StateInputStreaming, Input: json.RawMessage(`{"x":`)},
				{Type: "tool-b", ToolCallID: "c2", State: StateInputAvailable, Input: json.RawMessage(`{"y":1}`)},
			}}},
			want: []model.Message{model.Assistant(model.ToolCall("c2", "b", json.RawMessage(`{"y":1}`)))},
		},
		{
			name: "a denied call and a provider-executed one",
			in: []UIMessage{{Role: "assistant", Parts: []UIPart{
				{Type: "tool-del", ToolCallID: "c1", State: StateOutputDenied, Input: json.RawMessage(`{}`), Approval: &UIApproval{ID: "r::c1", Approved: &no, Reason: "no"}},
				{Type: "tool-search", ToolCallID: "c2", State: StateOutputAvailable, Input: json.RawMessage(`{"q":"x"}`), Output: json.RawMessage(`[1]`), ProviderExecuted: &yes},
			}}},
			want: func() []model.Message {
				call2 := model.ToolCall("c2", "search", json.RawMessage(`{"q":"x"}`))
				call2.ToolCall.ProviderExecuted = true
				res2 := model.ToolResult("c2", "search", model.JSONOutput(json.RawMessage(`[1]`)))
				res2.ToolResult.Input = json.RawMessage(`{"q":"x"}`)
				res1 := model.ToolResult("c1", "del", model.ExecutionDeniedOutput("no"))
				res1.ToolResult.Input = json.RawMessage(`{}`)
				return []model.Message{
					model.Assistant(model.ToolCall("c1", "del", json.RawMessage(`{}`)), call2, res2),
					{Role: model.RoleTool, Content: []model.Part{res1}},
				}
			}(),
		},
		{
			name: "Mastra's modelOutput replaces the raw output",
			in: []UIMessage{{Role: "assistant", Parts: []UIPart{
				{Type: "tool-agent-writer", ToolCallID: "c1", State: StateOutputAvailable, Input: json.RawMessage(`{"prompt":"p"}`),
					Output:                 json.RawMessage(`{"text":"t","subAgentThreadId":"x"}`),
					ResultProviderMetadata: map[string]any{"mastra": map[string]any{"modelOutput": map[string]any{"type": "text", "value": "t"}}}},
			}}},
			want: func() []model.Message {
				res := model.ToolResult("c1", "agent-writer", model.TextOutput("t"))
				res.ToolResult.Input = json.RawMessage(`{"prompt":"p"}`)
				return []model.Message{
					model.Assistant(model.ToolCall("c1", "agent-writer", json.RawMessage(`{"prompt":"p"}`))),
					{Role: model.RoleTool, Content: []model.Part{res}},
				}
			}(),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToModelMessages(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tc.want)
			if diff := cmp.Diff(decodeAny(t, w), decodeAny(t, g)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestToModelMessagesErrors(t *testing.T) {
	cases := []struct {
		name  string
		in    []UIMessage
		field string
	}{
		{"unknown role", []UIMessage{{Role: "user", Parts: []UIPart{{Type: "text"}}}, {Role: "robot", Parts: []UIPart{{Type: "text"}}}}, "messages.1.role"},
		{"file without url", []UIMessage{{Role: "user", Parts: []UIPart{{Type: "text"}, {Type: "file"}}}}, "messages.0.parts.1"},
		{"malformed data URL", []UIMessage{{Role: "user", Parts: []UIPart{{Type: "file", URL: "data:text/plain"}}}}, "messages.0.parts.0"},
		{"tool part without call id", []UIMessage{{Role: "assistant", Parts: []UIPart{{Type: "tool-x", State: StateInputAvailable}}}}, "messages.0.parts.0"},
		{"content of the wrong shape", []UIMessage{{Role: "user", Content: json.RawMessage(`[{"type":"nope"}]`)}}, "messages.0.content"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ToModelMessages(tc.in)
			var me *MessageError
			if !errors.As(err, &me) || !errors.Is(err, ErrInvalidMessage) {
				t.Fatalf("error %v, want a *MessageError", err)
			}
			if me.Field != tc.field {
				t.Errorf("field %q, want %q (%s)", me.Field, tc.field, me.Message)
			}
		})
	}
}
