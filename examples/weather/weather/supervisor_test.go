package weather_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/examples/weather/weather"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
)

const haiku = "Fog on the Golden Gate, / foghorns answer one another, / the city exhales."

// TestSupervisorDelegatesToWriter: the supervisor's model calls
// agent-writer with a prompt, the writer (its own model) answers, and the
// supervisor's stream carries the writer's run as tool-output chunks, then
// the call's result, then the supervisor's answer.
func TestSupervisorDelegatesToWriter(t *testing.T) {
	writerModel := mock.New(mock.Step{Text: haiku})
	supervisorModel := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-writer", Name: "agent-writer", Args: `{"prompt":"Write a haiku about fog in San Francisco."}`, ChunkSize: 8}}},
		mock.Step{Text: "Here is your haiku: " + haiku},
	)
	writer, err := weather.NewWriter(writerModel)
	if err != nil {
		t.Fatal(err)
	}
	supervisor, err := weather.NewSupervisor(supervisorModel, writer)
	if err != nil {
		t.Fatal(err)
	}

	var chunks []stream.Chunk
	for c, err := range supervisor.Stream(context.Background(), "I need a haiku about San Francisco fog.") {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}

	// The writer's chunks, inside tool-output chunks of the agent-writer
	// call, in the order it streamed them.
	var inner []stream.Chunk
	var innerText strings.Builder
	var result any
	var final strings.Builder
	afterResult := false
	for _, c := range chunks {
		switch p := c.Payload.(type) {
		case stream.ToolOutputPayload:
			if p.ToolName != "agent-writer" || p.ToolCallID != "call-writer" {
				t.Errorf("tool-output of %s %s", p.ToolName, p.ToolCallID)
			}
			ic, ok := p.Output.(stream.Chunk)
			if !ok {
				t.Fatalf("tool-output carries %T, want the writer's stream.Chunk", p.Output)
			}
			if afterResult {
				t.Error("a tool-output chunk after the tool result")
			}
			inner = append(inner, ic)
			if tp, ok := ic.Payload.(stream.TextPayload); ok && ic.Type == stream.TypeTextDelta {
				innerText.WriteString(tp.Text)
			}
		case stream.ToolResultPayload:
			if p.ToolName != "agent-writer" || p.ToolCallID != "call-writer" {
				t.Errorf("tool-result of %s %s", p.ToolName, p.ToolCallID)
			}
			result, afterResult = p.Result, true
		case stream.TextPayload:
			if c.Type == stream.TypeTextDelta {
				final.WriteString(p.Text)
			}
		}
	}
	wantInner := []string{
		stream.TypeStart, stream.TypeStepStart, stream.TypeTextStart, stream.TypeTextDelta,
		stream.TypeTextEnd, stream.TypeStepFinish, stream.TypeFinish,
	}
	if diff := cmp.Diff(wantInner, chunkTypes(inner)); diff != "" {
		t.Errorf("writer chunks (-want +got):\n%s", diff)
	}
	if len(inner) > 0 {
		if sp, ok := inner[0].Payload.(stream.StartPayload); !ok || sp.ID != "writer" {
			t.Errorf("the first inner chunk is not the writer's start: %+v", inner[0])
		}
	}
	if innerText.String() != haiku {
		t.Errorf("writer text %q", innerText.String())
	}

	// The result is {text: <the writer's answer>, ...}.
	b, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Text         string `json:"text"`
		FinishReason string `json:"finishReason"`
	}
	if err := json.Unmarshal(b, &res); err != nil || res.Text != haiku {
		t.Errorf("agent-writer result %s (%v)", b, err)
	}

	if got := final.String(); got != "Here is your haiku: "+haiku {
		t.Errorf("supervisor answer %q", got)
	}
	if last := chunks[len(chunks)-1]; last.Type != stream.TypeFinish {
		t.Errorf("last chunk %s", last.Type)
	}

	// The supervisor's model was offered the writer under its description
	// and, on its second call, saw the writer's text.
	calls := supervisorModel.Calls()
	if len(calls) != 2 {
		t.Fatalf("supervisor model calls: %d", len(calls))
	}
	if sys := calls[0].Messages[0]; sys.Role != model.RoleSystem || sys.TextContent() != "Coordinate the writer to produce content." {
		t.Errorf("supervisor system message %+v", sys)
	}
	if len(calls[0].Tools) != 1 || calls[0].Tools[0].Name != "agent-writer" || calls[0].Tools[0].Description != "Drafts and edits written content" {
		t.Errorf("supervisor tools %+v", calls[0].Tools)
	}
	lastMsg := calls[1].Messages[len(calls[1].Messages)-1]
	if lastMsg.Role != model.RoleTool || len(lastMsg.Content) != 1 || lastMsg.Content[0].ToolResult == nil {
		t.Fatalf("second supervisor call ends with %+v", lastMsg)
	}
	if out := lastMsg.Content[0].ToolResult.Output; out.Type != model.OutputText || out.Value != haiku {
		t.Errorf("the supervisor's model saw %+v, want the writer's text", out)
	}

	// The writer ran once, with its instructions, and the supervisor's
	// prompt as the last message (the loop may forward the supervisor's
	// conversation as context before it).
	wcalls := writerModel.Calls()
	if len(wcalls) != 1 {
		t.Fatalf("writer model calls: %d", len(wcalls))
	}
	msgs := wcalls[0].Messages
	if sys := msgs[0]; sys.Role != model.RoleSystem || sys.TextContent() != "You are a skilled writer." {
		t.Errorf("writer system message %+v", sys)
	}
	if last := msgs[len(msgs)-1]; last.Role != model.RoleUser || last.TextContent() != "Write a haiku about fog in San Francisco." {
		t.Errorf("writer prompt %+v", last)
	}
	if len(wcalls[0].Tools) != 0 {
		t.Errorf("the writer has no tools, was offered %+v", wcalls[0].Tools)
	}
}

func TestNewSupervisorNeedsAWriter(t *testing.T) {
	if _, err := weather.NewSupervisor(mock.New(), nil); err == nil {
		t.Error("NewSupervisor(m, nil) succeeded")
	}
}
