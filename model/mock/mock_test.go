package mock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/model"
)

func partTypes(t *testing.T, m *Model) ([]model.PartType, error) {
	t.Helper()
	var types []model.PartType
	for p, err := range m.Stream(context.Background(), &model.Request{}) {
		if err != nil {
			return types, err
		}
		types = append(types, p.Type)
	}
	return types, nil
}

func TestToolCallThenText(t *testing.T) {
	m := New(
		Step{ToolCalls: []ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`, ChunkSize: 4}}, Usage: model.Usage{InputTokens: 3, OutputTokens: 2, TotalTokens: 5}},
		Step{Text: "The sum is 5."},
	)
	first, err := model.Collect(context.Background(), m, &model.Request{Messages: []model.Message{model.UserText("2+3?")}})
	if err != nil {
		t.Fatal(err)
	}
	if first.FinishReason != model.FinishToolCalls || len(first.ToolCalls) != 1 || string(first.ToolCalls[0].Input) != `{"a":2,"b":3}` || first.Usage.TotalTokens != 5 {
		t.Errorf("first step: %+v", first)
	}
	types, err := partTypes(t, New(Step{ToolCalls: []ToolCall{{Name: "add", Args: `{"a":2,"b":3}`, ChunkSize: 4}}}))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(func() []string {
		var s []string
		for _, x := range types {
			s = append(s, string(x))
		}
		return s
	}(), ",")
	want := "stream-start,response-metadata,tool-input-start,tool-input-delta,tool-input-delta,tool-input-delta,tool-input-delta,tool-input-end,tool-call,finish"
	if got != want {
		t.Errorf("parts\n got %s\nwant %s", got, want)
	}
	second, err := model.Collect(context.Background(), m, &model.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Text != "The sum is 5." || second.FinishReason != model.FinishStop {
		t.Errorf("second step: %+v", second)
	}
	if len(m.Calls()) != 2 || m.Calls()[0].Messages[0].TextContent() != "2+3?" {
		t.Errorf("requests not recorded: %+v", m.Calls())
	}
	if _, err := model.Collect(context.Background(), m, &model.Request{}); !errors.Is(err, ErrNoMoreSteps) {
		t.Errorf("a call past the script: %v", err)
	}
}

func TestErrorsAndDelays(t *testing.T) {
	refused := errors.New("429")
	if _, err := model.Collect(context.Background(), New(Step{Err: refused}), &model.Request{}); !errors.Is(err, refused) {
		t.Errorf("Err: %v", err)
	}
	broken := errors.New("stream broke")
	if _, err := model.Collect(context.Background(), New(Step{Text: "half", ErrorPart: broken}), &model.Request{}); !errors.Is(err, broken) {
		t.Errorf("ErrorPart: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := model.Collect(ctx, New(Step{Text: "slow", Delay: time.Hour}), &model.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Delay must honour ctx: %v", err)
	}
	m := New(Step{Text: "again"}).RepeatLast()
	for i := 0; i < 3; i++ {
		if r, err := model.Collect(context.Background(), m, &model.Request{}); err != nil || r.Text != "again" {
			t.Fatalf("RepeatLast call %d: %v %v", i, r, err)
		}
	}
}

func TestEarlyStopDoesNotLeak(t *testing.T) {
	m := New(Step{Text: "a b c d e f"})
	n := 0
	for range m.Stream(context.Background(), &model.Request{}) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("stopped after %d parts", n)
	}
}

func TestNewFuncAnswersFromThePrompt(t *testing.T) {
	m := NewFunc(func(req *model.Request) Step {
		for _, msg := range req.Messages {
			if msg.Role == model.RoleTool {
				return Step{Text: "done"}
			}
		}
		return Step{ToolCalls: []ToolCall{{ID: "c1", Name: "add", Args: `{"a":1}`}}}
	})
	first, err := model.Collect(context.Background(), m, &model.Request{})
	if err != nil || len(first.ToolCalls) != 1 || first.ToolCalls[0].ToolName != "add" {
		t.Fatalf("first call: %+v %v", first, err)
	}
	second, err := model.Collect(context.Background(), m, &model.Request{Messages: []model.Message{{Role: model.RoleTool}}})
	if err != nil || second.Text != "done" || second.Metadata.ID != "mock-response-2" {
		t.Fatalf("second call: %+v %v", second, err)
	}
	if len(m.Calls()) != 0 {
		t.Fatalf("calls recorded: %d", len(m.Calls()))
	}
}

// TestToolStepsCallsKTimesThenAnswers: the call's ID counts the tool
// messages of the prompt; at k of them the final step comes.
func TestToolStepsCallsKTimesThenAnswers(t *testing.T) {
	answer := ToolSteps(2, ToolCall{Name: "add", Args: `{}`}, Step{Text: "done"})
	req := &model.Request{}
	for _, want := range []string{"call-0", "call-1"} {
		s := answer(req)
		if len(s.ToolCalls) != 1 || s.ToolCalls[0].ID != want || s.ToolCalls[0].Name != "add" {
			t.Fatalf("step %d: %+v", len(req.Messages), s)
		}
		req.Messages = append(req.Messages, model.Message{Role: model.RoleTool})
	}
	if s := answer(req); s.Text != "done" || len(s.ToolCalls) != 0 {
		t.Fatalf("after 2 tool messages: %+v", s)
	}
}
