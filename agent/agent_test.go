package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// TestMain checks that no goroutine outlived the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}
type addOut struct {
	Sum int `json:"sum"`
}

func addTool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
}

func newAgent(t *testing.T, m *mock.Model, set tools.Set, opts ...func(*Config)) *Agent {
	t.Helper()
	cfg := Config{ID: "calc-agent", Name: "Calc", Instructions: "You add numbers.", Model: m, Tools: set, Logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func collect(t *testing.T, a *Agent, input any, opts ...Option) []stream.Chunk {
	t.Helper()
	var out []stream.Chunk
	for c, err := range a.Stream(context.Background(), input, opts...) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func types(chunks []stream.Chunk) []string {
	var ts []string
	for _, c := range chunks {
		ts = append(ts, c.Type)
	}
	return ts
}

// TestChunkOrderMatchesMastra replays the scripted conversation Mastra's
// anchor recorded (spec/http/smoke-fullstream.json) and expects the same
// chunk sequence and the same tool chunk payloads.
func TestChunkOrderMatchesMastra(t *testing.T) {
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}},
		mock.Step{TextChunks: []string{"The ", "sum ", "is ", "5."}},
	)
	chunks := collect(t, newAgent(t, m, tools.Set{"add": addTool()}), "What is 2+3?")
	data, err := os.ReadFile("../../shared/spec/http/smoke-fullstream.json")
	if err != nil {
		t.Skipf("recorded traffic not available: %v", err)
	}
	var mastra []stream.Chunk
	if err := json.Unmarshal(data, &mastra); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(types(mastra), types(chunks)); d != "" {
		t.Fatalf("chunk types (-mastra +go):\n%s", d)
	}
	for i, c := range chunks {
		switch c.Type {
		case stream.TypeToolCallInputStreamingStart, stream.TypeToolCallDelta, stream.TypeToolCallInputStreamingEnd,
			stream.TypeToolCall, stream.TypeToolResult, stream.TypeTextDelta, stream.TypeTextEnd:
			want, _ := json.Marshal(mastra[i].Payload)
			got, _ := json.Marshal(c.Payload)
			var w, g any
			_ = json.Unmarshal(want, &w)
			_ = json.Unmarshal(got, &g)
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("%s payload (-mastra +go):\n%s", c.Type, d)
			}
		}
	}
	req := m.Calls()[1]
	if len(req.Messages) != 4 || req.Messages[0].TextContent() != "You add numbers." || len(req.Tools) != 1 || req.Tools[0].Name != "add" {
		t.Errorf("second model call: %+v", req)
	}
}

func toolErrors(chunks []stream.Chunk) []string {
	var msgs []string
	for _, c := range chunks {
		if c.Type == stream.TypeToolError {
			e := c.Payload.(stream.ToolErrorPayload).Error.(map[string]any)
			msgs = append(msgs, e["message"].(string))
		}
	}
	return msgs
}

func TestBadCallsGoBackToTheModel(t *testing.T) {
	panicky := tools.New(tools.Config[struct{}, addOut]{ID: "boom", Execute: func(tools.Context, struct{}) (addOut, error) { panic("kaboom") }})
	failing := tools.New(tools.Config[struct{}, addOut]{ID: "fail", Execute: func(tools.Context, struct{}) (addOut, error) { return addOut{}, errors.New("disk full") }})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{
			{ID: "c1", Name: "add", Args: `{"a":"x","b":1}`},
			{ID: "c2", Name: "nope", Args: `{}`},
			{ID: "c3", Name: "add", Args: `{"a":1,`},
			{ID: "c4", Name: "boom", Args: `{}`},
			{ID: "c5", Name: "fail", Args: `{}`},
		}},
		mock.Step{Text: "Sorry."},
	)
	a := newAgent(t, m, tools.Set{"add": addTool(), "boom": panicky, "fail": failing})
	out, err := a.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "stop" || out.Text != "Sorry." {
		t.Errorf("the run must go on to the model's answer: %+v", out)
	}
	errs := toolErrors(out.Chunks)
	want := []string{
		`Tool "nope" not found. Available tools: add, boom, fail. Call tools by their exact name only — never add prefixes, namespaces, or colons.`,
		`Tool "add" received invalid arguments — the provided JSON could not be parsed. Please provide valid JSON arguments.`,
		"tool boom panicked: kaboom",
		"disk full",
	}
	if d := cmp.Diff(want, errs); d != "" {
		t.Errorf("tool errors (-want +got):\n%s", d)
	}
	var validation bool
	for _, c := range out.Chunks {
		if c.Type == stream.TypeToolResult && c.Payload.(stream.ToolResultPayload).ToolCallID == "c1" {
			b, _ := json.Marshal(c.Payload.(stream.ToolResultPayload).Result)
			validation = strings.Contains(string(b), `"validationErrors"`) && strings.Contains(string(b), "Tool input validation failed for add.")
		}
	}
	if !validation {
		t.Error("a validation error must be a normal tool-result")
	}
	// The model sees all five outcomes in the next call.
	second := m.Calls()[1]
	if last := second.Messages[len(second.Messages)-1]; len(last.Content) != 5 {
		t.Errorf("tool message: %+v", last)
	}
}

func TestClientToolStopsTheRun(t *testing.T) {
	confirm := tools.New(tools.Config[struct {
		Question string `json:"question"`
	}, struct{}]{ID: "confirm", Description: "Ask the user"})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{
		{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`},
		{ID: "c2", Name: "confirm", Args: `{"question":"ok?"}`},
	}})
	out, err := newAgent(t, m, tools.Set{"add": addTool()}).Generate(context.Background(), "go", WithClientTools(tools.Set{"confirm": confirm}))
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "tool-calls" || len(out.ToolCalls) != 2 || len(out.ToolResults) != 1 {
		t.Errorf("client tool: reason %s, %d calls, %d results", out.FinishReason, len(out.ToolCalls), len(out.ToolResults))
	}
	if len(m.Calls()) != 1 {
		t.Errorf("the model must not be called again: %d calls", len(m.Calls()))
	}
}

func TestParallelCallsKeepCallOrderAndStreamOutput(t *testing.T) {
	slow := tools.New(tools.Config[struct {
		Ms int `json:"ms"`
	}, addOut]{ID: "sleep", Execute: func(ctx tools.Context, in struct {
		Ms int `json:"ms"`
	}) (addOut, error) {
		_ = ctx.Writer().Write(map[string]int{"sleeping": in.Ms})
		time.Sleep(time.Duration(in.Ms) * time.Millisecond)
		return addOut{Sum: in.Ms}, nil
	}})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "a", Name: "sleep", Args: `{"ms":30}`}, {ID: "b", Name: "sleep", Args: `{"ms":1}`}, {ID: "c", Name: "sleep", Args: `{"ms":10}`}}},
		mock.Step{Text: "done"},
	)
	chunks := collect(t, newAgent(t, m, tools.Set{"sleep": slow}), "go")
	var results []string
	outputs := 0
	for _, c := range chunks {
		switch c.Type {
		case stream.TypeToolResult:
			results = append(results, c.Payload.(stream.ToolResultPayload).ToolCallID)
		case stream.TypeToolOutput:
			outputs++
			if c.From != stream.FromUser {
				t.Errorf("tool-output comes from USER, got %s", c.From)
			}
		}
	}
	if d := cmp.Diff([]string{"a", "b", "c"}, results); d != "" {
		t.Errorf("results must follow the call order (-want +got):\n%s", d)
	}
	if outputs != 3 {
		t.Errorf("tool-output chunks: %d", outputs)
	}
}

func TestMaxStepsEndsAnEndlessLoop(t *testing.T) {
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "add", Args: `{"a":1,"b":1}`}}}).RepeatLast()
	out, err := newAgent(t, m, tools.Set{"add": addTool()}).Generate(context.Background(), "loop", WithMaxSteps(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Calls()) != 3 || out.FinishReason != "tool-calls" {
		t.Errorf("%d model calls, reason %s", len(m.Calls()), out.FinishReason)
	}
}

func TestStoppingEarlyLeavesNothingRunning(t *testing.T) {
	block := tools.New(tools.Config[struct{}, addOut]{ID: "block", Execute: func(ctx tools.Context, _ struct{}) (addOut, error) {
		<-ctx.Done()
		return addOut{}, ctx.Err()
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "block", Args: `{}`}}})
	a := newAgent(t, m, tools.Set{"block": block})
	for c, err := range a.Stream(context.Background(), "go") {
		if err != nil {
			t.Fatal(err)
		}
		if c.Type == stream.TypeToolCall {
			break
		}
	}
	// goleak in TestMain checks that the blocked tool's goroutine ended.
}

func TestModelErrorEndsTheRun(t *testing.T) {
	refused := errors.New("401 unauthorized")
	m := mock.New(mock.Step{Err: refused})
	out, err := newAgent(t, m, nil).Generate(context.Background(), "hi")
	var runErr *RunError
	if !errors.As(err, &runErr) || !errors.Is(err, refused) || out == nil || out.Error != runErr {
		t.Fatalf("a failed model call: err %v, output %+v", err, out)
	}
	if out.FinishReason != "error" || types(out.Chunks)[2] != stream.TypeError {
		t.Errorf("reason %s, chunks %v", out.FinishReason, types(out.Chunks))
	}
}

func TestToolNamesAreSanitised(t *testing.T) {
	if got := SanitizeToolName("weather.tool/v2:" + strings.Repeat("x", 80)); len(got) != 63 || strings.ContainsAny(got, "./:") {
		t.Errorf("SanitizeToolName = %q", got)
	}
	if _, err := New(Config{ID: "a", Model: mock.New(), Tools: tools.Set{"a.b": addTool(), "a_b": addTool()}}); err == nil {
		t.Error("colliding names must be an error")
	}
}

func TestAToolThatIgnoresItsContextIsNotWaitedFor(t *testing.T) {
	started, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	stubborn := tools.New(tools.Config[struct{}, addOut]{ID: "stubborn", Execute: func(tools.Context, struct{}) (addOut, error) {
		defer close(returned)
		close(started)
		<-release // ignores its context
		return addOut{Sum: 1}, nil
	}})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "stubborn", Args: `{}`}}}, mock.Step{Text: "never"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	out, err := newAgent(t, m, tools.Set{"stubborn": stubborn}).Generate(ctx, "go")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if got := types(out.Chunks); got[len(got)-1] != stream.TypeAbort || len(m.Calls()) != 1 {
		t.Errorf("chunks %v, %d model calls", got, len(m.Calls()))
	}
	close(release)
	<-returned
	// goleak in TestMain checks that the tool's goroutine ended once the
	// tool returned.
}

func TestToolResultsReachTheModelInTheToolsKeyOrder(t *testing.T) {
	type out struct {
		Zone int `json:"zone"`
		Area int `json:"area"`
	}
	ordered := tools.New(tools.Config[struct{}, out]{ID: "ordered", Execute: func(tools.Context, struct{}) (out, error) { return out{Zone: 1, Area: 2}, nil }})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{Name: "ordered", Args: `{}`}}}, mock.Step{Text: "ok"})
	if _, err := newAgent(t, m, tools.Set{"ordered": ordered}).Generate(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	msgs := m.Calls()[1].Messages
	b, _ := json.Marshal(msgs[len(msgs)-1].Content[0].ToolResult.Output)
	if string(b) != `{"type":"json","value":{"zone":1,"area":2}}` {
		t.Errorf("the model saw %s", b)
	}
}
