package stream

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChunksRoundTripMastraTraffic decodes the chunks Mastra 1.71 streamed
// (testdata/mastra/smoke-fullstream.json of package agent) into this
// package's types and encodes them again: the JSON must be the same.
func TestChunksRoundTripMastraTraffic(t *testing.T) {
	data, err := os.ReadFile("../agent/testdata/mastra/smoke-fullstream.json")
	if err != nil {
		t.Fatal(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, raw := range raws {
		var c Chunk
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		seen[c.Type] = true
		again, err := Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		_ = json.Unmarshal(raw, &want)
		_ = json.Unmarshal(again, &got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-mastra +go):\n%s", c.Type, d)
		}
	}
	for _, typ := range []string{TypeToolCallInputStreamingStart, TypeToolCallDelta, TypeToolCall, TypeToolResult, TypeTextEnd} {
		if !seen[typ] {
			t.Errorf("the recording has no %s chunk", typ)
		}
	}
}

func TestToolChunkShapes(t *testing.T) {
	tests := []struct {
		c    Chunk
		want string
	}{
		{Chunk{Type: TypeToolCall, RunID: "r", From: FromAgent, Payload: ToolCallPayload{ToolCallID: "c1", ToolName: "weatherTool", Args: json.RawMessage(`{"location":"<Paris>"}`)}},
			`{"type":"tool-call","runId":"r","from":"AGENT","payload":{"toolCallId":"c1","toolName":"weatherTool","args":{"location":"<Paris>"}}}`},
		{Chunk{Type: TypeToolOutput, RunID: "r", From: FromUser, Payload: ToolOutputPayload{Output: map[string]int{"step": 1}, ToolCallID: "c1", ToolName: "t"}},
			`{"type":"tool-output","runId":"r","from":"USER","payload":{"output":{"step":1},"toolCallId":"c1","toolName":"t"}}`},
		{Chunk{Type: TypeToolCallApproval, RunID: "r", From: FromAgent, Payload: ToolCallApprovalPayload{ToolCallID: "c1", ToolName: "t", Args: json.RawMessage(`{}`), ResumeSchema: ApprovalResumeSchema}},
			`{"type":"tool-call-approval","runId":"r","from":"AGENT","payload":{"toolCallId":"c1","toolName":"t","args":{},"resumeSchema":"{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{\"approved\":{\"type\":\"boolean\",\"description\":\"Controls if the tool call is approved or not, should be true when approved and false when declined\"},\"reason\":{\"description\":\"Optional explanation for the decision, surfaced to the model when the tool call is declined\",\"type\":\"string\"}},\"required\":[\"approved\"],\"additionalProperties\":false}"}}`},
		{Chunk{Type: "data-progress", Data: map[string]int{"pct": 50}, Transient: true, RunID: "ignored"},
			`{"type":"data-progress","data":{"pct":50},"transient":true}`},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.c)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestSSERoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewSSEWriter(&buf)
	chunks := []Chunk{
		{Type: TypeTextDelta, RunID: "r", From: FromAgent, Payload: TextPayload{ID: "t1", Text: "a & b"}},
		{Type: TypeToolResult, RunID: "r", From: FromAgent, Payload: ToolResultPayload{ToolCallID: "c1", ToolName: "add", Result: map[string]any{"sum": 5}}},
	}
	_ = w.Comment("connected")
	for _, c := range chunks {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.Done()
	if !strings.HasPrefix(buf.String(), ": connected\n\ndata: {\"type\":\"text-delta\"") || !strings.HasSuffix(buf.String(), "data: [DONE]\n\n") {
		t.Fatalf("frames:\n%s", buf.String())
	}
	buf.WriteString("data: {\"type\":\"after-done\"}\n\n")
	var got []string
	for c, err := range ReadSSE(strings.NewReader("data: not json\n\n" + buf.String())) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c.Type)
	}
	if d := cmp.Diff([]string{TypeTextDelta, TypeToolResult}, got); d != "" {
		t.Errorf("read (-want +got):\n%s", d)
	}
}

func TestRedactHidesRequestsWithoutTouchingTheChunk(t *testing.T) {
	p := FinishPayload{Metadata: StepMetadata{Request: map[string]any{"body": "secret"}}, Output: FinishOutput{Steps: []StepRecord{{Request: map[string]any{"body": "secret"}}}}}
	c := Chunk{Type: TypeFinish, Payload: p}
	b, err := Marshal(Redact(c))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "secret") || strings.Contains(string(b), `"request"`) {
		t.Errorf("redacted finish still shows the request: %s", b)
	}
	if c.Payload.(FinishPayload).Output.Steps[0].Request == nil {
		t.Error("Redact modified the chunk it was given")
	}
	s, _ := Marshal(Redact(Chunk{Type: TypeStepStart, Payload: StepStartPayload{Request: map[string]any{"body": "secret"}}}))
	if strings.Contains(string(s), "secret") {
		t.Errorf("redacted step-start: %s", s)
	}
}
