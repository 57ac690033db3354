package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/transform"
)

// The assembler alone, on a scripted model: the chunks one model call
// streams and the step it makes.
func TestAssembler(t *testing.T) {
	for _, tc := range []struct {
		name   string
		step   mock.Step
		chunks string
		check  func(t *testing.T, a assembled)
	}{
		{"text", mock.Step{Text: "Hello there."}, "text-start text-delta text-delta text-end", func(t *testing.T, a assembled) {
			if a.step.Text != "Hello there." || a.step.Reason != "stop" || len(a.step.Calls) != 0 || a.step.Assistant.TextContent() != "Hello there." {
				t.Errorf("%+v", a.step)
			}
		}},
		{"a streamed call is synthesised at its input's end", mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":1}`, ChunkSize: 3}}},
			"tool-call-input-streaming-start tool-call-delta tool-call-delta tool-call-delta tool-call-input-streaming-end tool-call", func(t *testing.T, a assembled) {
				if len(a.step.Calls) != 1 || string(a.step.Calls[0].Args) != `{"a":1}` || a.step.Calls[0].Status != callRunning || len(a.toolCalls) != 1 {
					t.Errorf("%+v %+v", a.step.Calls, a.toolCalls)
				}
			}},
		{"a whole call, arguments repaired", mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{a: 1,}`, NoInputStreaming: true}}}, "tool-call", func(t *testing.T, a assembled) {
			if c := a.step.Calls[0]; string(c.Args) != `{"a": 1}` || c.Raw != `{a: 1,}` {
				t.Errorf("%+v", c)
			}
		}},
		{"unparseable arguments are kept as text", mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "add", Args: `{"a":`, NoInputStreaming: true}}}, "tool-call", func(t *testing.T, a assembled) {
			if c := a.step.Calls[0]; c.Args != nil || c.Raw != `{"a":` {
				t.Errorf("%+v", c)
			}
		}},
		{"reasoning before the answer", mock.Step{Reasoning: "hmm", Text: "ok"}, "reasoning-start reasoning-delta reasoning-end text-start text-delta text-end", func(t *testing.T, a assembled) {
			if a.step.Reasoning != "hmm" || a.step.Assistant.Content[0].Type != model.MessageReasoning {
				t.Errorf("%+v", a.step)
			}
		}},
		{"an error part ends the call", mock.Step{Text: "half", ErrorPart: errors.New("overloaded")}, "text-start text-delta text-end", func(t *testing.T, a assembled) {
			if a.err == nil || a.err.Error() != "overloaded" {
				t.Errorf("err %v", a.err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := &assembler{runID: "run-1", tool: func(string) *tools.Tool { return nil },
				meta: func(*tools.Tool, transform.Context) map[string]any { return nil },
				call: LocalEngine{}.CallModel}
			var a assembled
			var got []string
			for c := range as.run(context.Background(), mock.New(tc.step), &model.Request{}, &a) {
				if c.RunID != "run-1" {
					t.Errorf("chunk of run %q", c.RunID)
				}
				got = append(got, c.Type)
			}
			if strings.Join(got, " ") != tc.chunks {
				t.Errorf("chunks %q, want %q", strings.Join(got, " "), tc.chunks)
			}
			tc.check(t, a)
		})
	}
}

// Outcomes are released in the model's call order, whatever order they
// end in; from the first waiting call on, chunks are held.
func TestCallOrder(t *testing.T) {
	chunk := func(typ string) stream.Chunk { return stream.Chunk{Type: typ} }
	o := newCallOrder(4, []int{0, 1, 2, 3})
	var released []string
	collect := func(oc *callOutcome) {
		for c := range o.release(oc) {
			released = append(released, c.Type+held(o.holding))
		}
	}
	collect(&callOutcome{index: 1, call: callState{Status: callDone}, chunk: chunk("result1")})
	if len(released) != 0 {
		t.Fatalf("released %v before call 0 ended", released)
	}
	collect(&callOutcome{index: 0, call: callState{Status: callClient}})
	collect(&callOutcome{index: 3, call: callState{Status: callDone}, chunk: chunk("result3")})
	collect(&callOutcome{index: 2, call: callState{Status: callSuspended}, chunk: chunk(stream.TypeToolCallSuspended)})
	if want := "result1 tool-call-suspended(held) result3(held)"; strings.Join(released, " ") != want {
		t.Errorf("released %q, want %q", strings.Join(released, " "), want)
	}
}

func held(h bool) string {
	if h {
		return "(held)"
	}
	return ""
}
