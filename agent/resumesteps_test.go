package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// threeSteps is a run of three model calls: add (step 0), pay, which
// suspends (step 1), and, after the resume, the answer (step 2).
func threeSteps() *mock.Model {
	return mock.New(
		mock.Step{Text: "Adding.", ToolCalls: []mock.ToolCall{{ID: "a1", Name: "add", Args: `{"a":1,"b":2}`}}, Usage: model.Usage{InputTokens: 10, OutputTokens: 1, TotalTokens: 11}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "p1", Name: "pay", Args: `{"amount":3}`}}, Usage: model.Usage{InputTokens: 20, OutputTokens: 2, TotalTokens: 22}},
		mock.Step{Text: "Paid 3.", Usage: model.Usage{InputTokens: 30, OutputTokens: 3, TotalTokens: 33}},
	)
}

// finishOf is the payload of a stream's finish chunk and the JSON of
// each step its output lists.
func finishOf(t *testing.T, chunks []stream.Chunk) (stream.FinishPayload, []string) {
	t.Helper()
	for _, c := range chunks {
		if c.Type == stream.TypeFinish {
			p := c.Payload.(stream.FinishPayload)
			var steps []string
			for _, s := range p.Output.Steps {
				b, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				steps = append(steps, string(b))
			}
			return p, steps
		}
	}
	t.Fatal("no finish chunk")
	return stream.FinishPayload{}, nil
}

// stepFinishSteps is the JSON of the steps the last step-finish of a
// stream lists.
func stepFinishSteps(t *testing.T, chunks []stream.Chunk) []string {
	t.Helper()
	var steps []string
	for _, c := range chunks {
		if c.Type == stream.TypeStepFinish {
			steps = steps[:0]
			for _, s := range c.Payload.(stream.FinishPayload).Output.Steps {
				b, _ := json.Marshal(s)
				steps = append(steps, string(b))
			}
		}
	}
	return steps
}

// checkWholeRun checks a resumed run's output and finish against the
// stream that suspended (first): every step of the run is listed, the
// ones before the suspension as that stream listed them, and the usage
// adds up all three model calls.
func checkWholeRun(t *testing.T, first *Output, resumed *Output) {
	t.Helper()
	want := model.Usage{InputTokens: 60, OutputTokens: 6, TotalTokens: 66}
	p, steps := finishOf(t, resumed.Chunks)
	if len(steps) != 3 {
		t.Fatalf("the finish lists %d steps, want 3", len(steps))
	}
	if d := cmp.Diff(stepFinishSteps(t, first.Chunks), steps[:1]); d != "" {
		t.Errorf("the step before the suspension is not listed as it was (-then +now):\n%s", d)
	}
	if p.Output.Usage != want || resumed.TotalUsage != want || resumed.Usage != want {
		t.Errorf("usage: finish %+v, output %+v / %+v, want %+v", p.Output.Usage, resumed.TotalUsage, resumed.Usage, want)
	}
	var got []string
	for _, s := range resumed.Steps {
		got = append(got, s.StepType+":"+s.Text+":"+string(s.FinishReason))
	}
	if d := cmp.Diff([]string{"initial:Adding.:tool-calls", "tool-result::tool-calls", "tool-result:Paid 3.:stop"}, got); d != "" {
		t.Errorf("Output.Steps (-want +got):\n%s", d)
	}
	if resumed.Steps[0].Usage.TotalTokens != 11 || len(resumed.Steps[0].ToolResults) != 1 {
		t.Errorf("step 0: %+v", resumed.Steps[0])
	}
	if b, _ := json.Marshal(resumed.Steps[0].ToolResults[0]); string(b) != mustJSON(t, first.Steps[0].ToolResults[0]) {
		t.Errorf("step 0's tool result: %s, was %s", b, mustJSON(t, first.Steps[0].ToolResults[0]))
	}
	if resumed.Text != "Adding.Paid 3." {
		t.Errorf("text %q", resumed.Text)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResumedRunFinishListsEveryStep(t *testing.T) {
	var runs atomic.Int32
	a := newAgent(t, threeSteps(), tools.Set{"add": addTool(), "pay": payTool(&runs)})
	first, err := a.Generate(context.Background(), "add, then pay")
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, first.FinishReason)
	}
	resumed, err := a.ResumeGenerate(context.Background(), first.RunID, confirmResume{OK: true})
	if err != nil {
		t.Fatal(err)
	}
	checkWholeRun(t, first, resumed)
}

// The same after a restart: another agent, on the same SQLite store,
// resumes the run from what was saved.
func TestRecoveredRunFinishListsEveryStep(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var runs atomic.Int32
	agentOn := func(m *mock.Model) *Agent {
		a, err := New(Config{ID: "calc-agent", Name: "Calc", Model: m, Tools: tools.Set{"add": addTool(), "pay": payTool(&runs)},
			Storage: store, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	m := threeSteps()
	first, err := agentOn(m).Generate(ctx, "add, then pay")
	if err != nil || first.FinishReason != model.FinishSuspended {
		t.Fatalf("%v %s", err, first.FinishReason)
	}
	if saved, err := store.GetRun(ctx, first.RunID); err != nil || saved.Status != storage.RunSuspended {
		t.Fatalf("saved: %v", err)
	}
	// The restarted process's model answers the third call.
	restarted := mock.New(mock.Step{Text: "Paid 3.", Usage: model.Usage{InputTokens: 30, OutputTokens: 3, TotalTokens: 33}})
	resumed, err := agentOn(restarted).ResumeGenerate(ctx, first.RunID, confirmResume{OK: true})
	if err != nil {
		t.Fatal(err)
	}
	checkWholeRun(t, first, resumed)
}
