package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

type secretIn struct {
	User     string `json:"user"`
	Password string `json:"password"`
}

// TestTransformMetadataOnToolChunks checks tool payload transforms on the
// stream: each tool chunk carries metadata.mastra.toolPayloadTransform for
// its phase (and input-available alongside the later ones), payloads stay
// raw.
func TestTransformMetadataOnToolChunks(t *testing.T) {
	login := tools.New(tools.Config[secretIn, addOut]{
		ID:      "login",
		Execute: func(_ tools.Context, in secretIn) (addOut, error) { return addOut{Sum: len(in.Password)}, nil },
		Transform: &transform.Config{Display: &transform.Phases{
			Input: func(_ context.Context, tc transform.Context) (any, bool, error) {
				return map[string]any{"user": tc.Input.(map[string]any)["user"], "password": "***"}, true, nil
			},
		}},
	})
	policy := &transform.Policy{Targets: []transform.Target{transform.TargetTranscript}, TransformToolPayload: func(_ context.Context, tc transform.Context) (any, bool, error) {
		if tc.Phase == transform.PhaseOutputAvailable {
			return "logged in", true, nil
		}
		return nil, false, nil
	}}
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "login", Args: `{"user":"ann","password":"hunter2"}`}}}, mock.Step{Text: "ok"})
	out, err := newAgent(t, m, tools.Set{"login": login}).Generate(context.Background(), "log in", WithTransform(policy))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, c := range out.Chunks {
		switch c.Type {
		case stream.TypeToolCallDelta, stream.TypeToolCall, stream.TypeToolResult:
			b, _ := json.Marshal(c.Metadata)
			var v any
			_ = json.Unmarshal(b, &v)
			got[c.Type] = v
		}
	}
	masked := map[string]any{"transformed": map[string]any{"user": "ann", "password": "***"}}
	unavailable := map[string]any{"transformed": map[string]any{"message": "Tool input-available payload unavailable"}}
	wrap := func(md map[string]any) map[string]any {
		return map[string]any{"mastra": map[string]any{"toolPayloadTransform": md}}
	}
	want := map[string]any{
		"tool-call-delta": wrap(map[string]any{"display": map[string]any{"input-delta": map[string]any{"suppress": true}}, "transcript": map[string]any{"input-delta": map[string]any{"suppress": true}}}),
		"tool-call":       wrap(map[string]any{"display": map[string]any{"input-available": masked}, "transcript": map[string]any{"input-available": unavailable}}),
		"tool-result": wrap(map[string]any{
			"display":    map[string]any{"input-available": masked, "output-available": map[string]any{"transformed": map[string]any{"message": "Tool output-available payload unavailable"}}},
			"transcript": map[string]any{"input-available": unavailable, "output-available": map[string]any{"transformed": "logged in"}},
		}),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("transform metadata (-want +got):\n%s", d)
	}
	// The payloads, the tool and the model see raw values.
	args := out.ToolCalls[0].Payload.(stream.ToolCallPayload).Args
	seen, _ := json.Marshal(out.Steps[1].Response.Messages[1].Content[0].ToolResult.Output)
	if string(args) != `{"user":"ann","password":"hunter2"}` || string(seen) != `{"type":"json","value":{"sum":7}}` {
		t.Errorf("raw values changed: args %s", args)
	}
}
