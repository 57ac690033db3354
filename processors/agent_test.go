package processors_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/processors"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
)

type place struct {
	Location string `json:"location"`
}

type noInput struct{}

// weatherTools are a weather tool and a clock.
func weatherTools() tools.Set {
	return tools.Set{
		"weatherTool": tools.New(tools.Config[place, map[string]any]{ID: "weather", Description: "Weather of a place",
			Execute: func(_ tools.Context, in place) (map[string]any, error) {
				return map[string]any{"location": in.Location, "temperature": 22, "conditions": "sunny"}, nil
			}}),
		"clock": tools.New(tools.Config[noInput, string]{ID: "clock", Description: "The time",
			Execute: func(tools.Context, noInput) (string, error) { return "12:00", nil }}),
	}
}

// memoryAgent is an agent keeping its memory in an in-memory SQLite
// store, with processors ps.
func memoryAgent(t *testing.T, m model.LanguageModel, ps ...agent.StepProcessor) (*agent.Agent, storage.Store) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	a, err := agent.New(agent.Config{ID: "assistant", Instructions: "You are a weather assistant.", Model: m,
		Storage: store, Memory: &agent.MemoryOptions{LastMessages: 40}, Tools: weatherTools(), Processors: ps})
	if err != nil {
		t.Fatal(err)
	}
	return a, store
}

func ask(t *testing.T, a *agent.Agent, text string) {
	t.Helper()
	out, err := a.Generate(context.Background(), text, agent.WithMemory("thread-1", "user-1"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Error != nil {
		t.Fatal(out.Error)
	}
}

func calls(ids ...string) []mock.ToolCall {
	var out []mock.ToolCall
	for _, id := range ids {
		name, args := "weatherTool", `{"location":"Paris"}`
		if strings.HasPrefix(id, "clock") {
			name, args = "clock", `{}`
		}
		out = append(out, mock.ToolCall{ID: id, Name: name, Args: args})
	}
	return out
}

// render writes a prompt one line a message: its role and parts (text,
// "call NAME ID", "result NAME ID").
func render(msgs []model.Message) []string {
	var out []string
	for _, m := range msgs {
		var parts []string
		for _, p := range m.Content {
			switch {
			case p.ToolCall != nil:
				parts = append(parts, "call "+p.ToolCall.ToolName+" "+p.ToolCall.ToolCallID)
			case p.ToolResult != nil:
				parts = append(parts, "result "+p.ToolResult.ToolName+" "+p.ToolResult.ToolCallID)
			default:
				parts = append(parts, p.Text)
			}
		}
		out = append(out, string(m.Role)+": "+strings.Join(parts, " | "))
	}
	return out
}

// seen is what the model was given at each of its calls from the n-th on.
func seen(m *mock.Model, from int) [][]string {
	var out [][]string
	for _, req := range m.Calls()[from:] {
		out = append(out, render(req.Messages))
	}
	return out
}

// stored is the thread's messages as memory keeps them.
func stored(t *testing.T, st storage.Store) []string {
	t.Helper()
	msgs, err := st.ListMessages(context.Background(), "thread-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Message
	for _, sm := range msgs {
		var m model.Message
		if err := json.Unmarshal(sm.Content, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return render(out)
}

// The filter takes the recalled turn's tool traffic out of every step of
// the next run, and keeps the run's own calls and results; memory keeps
// everything.
func TestToolCallFilterWithMemory(t *testing.T) {
	turn1 := []mock.Step{{ToolCalls: calls("c1", "clock1")}, {Text: "Sunny in Paris at noon."}}
	turn2 := []mock.Step{{ToolCalls: calls("c2", "clock2")}, {Text: "Still sunny, still noon."}}
	history := []string{
		"system: You are a weather assistant.",
		"user: Weather in Paris, and the time?",
		"assistant: call weatherTool c1 | call clock clock1",
		"tool: result weatherTool c1 | result clock clock1",
		"assistant: Sunny in Paris at noon.",
	}
	for _, c := range []struct {
		name   string
		filter *processors.ToolCallFilter
		turn2  [][]string
	}{
		{"every tool", processors.NewToolCallFilter(), [][]string{{
			"system: You are a weather assistant.",
			"user: Weather in Paris, and the time?",
			"assistant: Sunny in Paris at noon.",
			"user: And now?",
		}, {
			"system: You are a weather assistant.",
			"user: Weather in Paris, and the time?",
			"assistant: Sunny in Paris at noon.",
			"user: And now?",
			"assistant: call weatherTool c2 | call clock clock2",
			"tool: result weatherTool c2 | result clock clock2",
		}}},
		{"exclude clock", processors.NewToolCallFilter("clock"), [][]string{{
			"system: You are a weather assistant.",
			"user: Weather in Paris, and the time?",
			"assistant: call weatherTool c1",
			"tool: result weatherTool c1",
			"assistant: Sunny in Paris at noon.",
			"user: And now?",
		}, {
			"system: You are a weather assistant.",
			"user: Weather in Paris, and the time?",
			"assistant: call weatherTool c1",
			"tool: result weatherTool c1",
			"assistant: Sunny in Paris at noon.",
			"user: And now?",
			"assistant: call weatherTool c2 | call clock clock2",
			"tool: result weatherTool c2 | result clock clock2",
		}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := mock.New(append(turn1, turn2...)...)
			a, st := memoryAgent(t, m, c.filter)
			ask(t, a, "Weather in Paris, and the time?")
			// The first run has no history: its own calls stay.
			want1 := [][]string{history[:2], history[:4]}
			if diff := cmp.Diff(want1, seen(m, 0)); diff != "" {
				t.Errorf("turn 1 (-want +got):\n%s", diff)
			}
			ask(t, a, "And now?")
			if diff := cmp.Diff(c.turn2, seen(m, 2)); diff != "" {
				t.Errorf("turn 2 (-want +got):\n%s", diff)
			}
			wantStored := append(append([]string(nil), history[1:]...),
				"user: And now?",
				"assistant: call weatherTool c2 | call clock clock2",
				"tool: result weatherTool c2 | result clock clock2",
				"assistant: Still sunny, still noon.")
			if diff := cmp.Diff(wantStored, stored(t, st)); diff != "" {
				t.Errorf("memory (-want +got):\n%s", diff)
			}
		})
	}
}

// The limiter gives each step the system message and the newest
// messages that fit, a tool call always with its result, and recounts at
// every step as the run's own messages add up; memory keeps everything.
func TestTokenLimiterWithMemory(t *testing.T) {
	turns := []mock.Step{
		{Text: "Hello! How can I help you with the weather today?"},
		{ToolCalls: calls("c1")}, {Text: "It is sunny in Paris, 22 degrees."},
		{ToolCalls: calls("c2")}, {Text: "Still sunny, 22 degrees."},
	}
	m := mock.New(turns...)
	tl := processors.NewTokenLimiter(0) // set below, once the history is there
	a, st := memoryAgent(t, m, tl)
	tl.Limit = 1 << 20
	ask(t, a, "Hi there, I am planning a trip to Paris next week.")
	ask(t, a, "What is the weather in Paris?")

	// The third run's first prompt, whole: the second run's last one (the
	// model saw everything then), its answer and the new question.
	full := append(m.Calls()[2].Messages,
		model.Assistant(model.Text("It is sunny in Paris, 22 degrees.")),
		model.UserText("And tomorrow?"))
	if diff := cmp.Diff([]string{
		"system: You are a weather assistant.",
		"user: Hi there, I am planning a trip to Paris next week.",
		"assistant: Hello! How can I help you with the weather today?",
		"user: What is the weather in Paris?",
		"assistant: call weatherTool c1",
		"tool: result weatherTool c1",
		"assistant: It is sunny in Paris, 22 degrees.",
		"user: And tomorrow?",
	}, render(full)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	var counts []float64
	for _, msg := range full {
		counts = append(counts, tl.MessageTokens(msg))
	}
	// "systemYou are a weather assistant.": 9 estimated tokens + 3.8; the
	// call: "assistantweatherTool{"location":"Paris"}", 11 tokens + 3.8 -
	// 12 (its input counted as JSON); ...
	wantCounts := []float64{12.8, 17.8, 18.8, 12.8, 2.8000000000000007, 11.8, 14.8, 8.8}
	if diff := cmp.Diff(wantCounts, counts); diff != "" {
		t.Fatalf("counts (-want +got):\n%s", diff)
	}
	// 88 leaves 88 - 12.8 (the system message) - 24 (the conversation) =
	// 51.2 for the rest: the last three messages and the call with its
	// result (8.8 + 14.8 + 14.6 = 38.2), and the question before them
	// (12.8, 51 in all), not the older ones.
	tl.Limit = 88
	ask(t, a, "And tomorrow?")
	want := [][]string{{
		"system: You are a weather assistant.",
		"user: What is the weather in Paris?",
		"assistant: call weatherTool c1",
		"tool: result weatherTool c1",
		"assistant: It is sunny in Paris, 22 degrees.",
		"user: And tomorrow?",
	}, {
		// The run's own call and result (14.6) push the recalled call and
		// its result (14.6) out, together; the older question (12.8)
		// still fits after them, and is kept (best fit).
		"system: You are a weather assistant.",
		"user: What is the weather in Paris?",
		"assistant: It is sunny in Paris, 22 degrees.",
		"user: And tomorrow?",
		"assistant: call weatherTool c2",
		"tool: result weatherTool c2",
	}}
	if diff := cmp.Diff(want, seen(m, 3)); diff != "" {
		t.Errorf("turn 3 (-want +got):\n%s", diff)
	}
	wantStored := []string{
		"user: Hi there, I am planning a trip to Paris next week.",
		"assistant: Hello! How can I help you with the weather today?",
		"user: What is the weather in Paris?",
		"assistant: call weatherTool c1",
		"tool: result weatherTool c1",
		"assistant: It is sunny in Paris, 22 degrees.",
		"user: And tomorrow?",
		"assistant: call weatherTool c2",
		"tool: result weatherTool c2",
		"assistant: Still sunny, 22 degrees.",
	}
	if diff := cmp.Diff(wantStored, stored(t, st)); diff != "" {
		t.Errorf("memory (-want +got):\n%s", diff)
	}
}

// A prompt whose system messages alone pass the limit stops the run
// with the limiter's tripwire, before the model is called, as Mastra's:
// a tripwire chunk, no step, finish reason "other".
func TestTokenLimiterTripsTheRun(t *testing.T) {
	m := mock.New(mock.Step{Text: "never"})
	a, _ := memoryAgent(t, m, processors.NewTokenLimiter(30))
	out, err := a.Generate(context.Background(), "Hi", agent.WithMemory("thread-1", "user-1"))
	if err != nil || out.Tripwire == nil || out.FinishReason != "other" {
		t.Fatalf("err = %v, output %+v; want the limiter's tripwire", err, out)
	}
	if tw := out.Tripwire; tw.ProcessorID != "token-limiter" || tw.Metadata["systemTokens"] != 12.8 || tw.Retry {
		t.Errorf("tripwire %+v", tw)
	}
	var types []string
	for _, c := range out.Chunks {
		types = append(types, c.Type)
	}
	if got := strings.Join(types, " "); got != "start tripwire" {
		t.Errorf("chunks %s, want Mastra's: start tripwire", got)
	}
	if n := len(m.Calls()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}
