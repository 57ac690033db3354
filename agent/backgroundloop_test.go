package agent

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type researchIn struct {
	Topic string `json:"topic"`
}

type researchOut struct {
	Summary string `json:"summary"`
}

// researchTool is an eligible tool whose calls wait for release (nil:
// no wait) and then answer with a summary of the topic.
func researchTool(release <-chan struct{}, bg *tools.BackgroundConfig) *tools.Tool {
	return tools.New(tools.Config[researchIn, researchOut]{
		ID: "research", Description: "Researches a topic", Background: bg,
		Execute: func(ctx tools.Context, in researchIn) (researchOut, error) {
			if release != nil {
				select {
				case <-release:
				case <-ctx.Done():
					return researchOut{}, ctx.Err()
				}
			}
			if in.Topic == "fail" {
				return researchOut{}, errors.New("the archive is closed")
			}
			return researchOut{Summary: "all about " + in.Topic}, nil
		},
	})
}

// startedManager is a started memory manager, shut down at the test's
// end.
func startedManager(t *testing.T, cfg bgtasks.Config) *bgtasks.Manager {
	t.Helper()
	cfg.PollInterval = 10 * time.Millisecond
	m := bgtasks.New(cfg)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

// memoryStore is an in-memory SQLite store.
func memoryStore(t *testing.T) storage.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func bgAgent(t *testing.T, m *mock.Model, set tools.Set, mgr *bgtasks.Manager, opts ...func(*Config)) *Agent {
	t.Helper()
	cfg := Config{ID: "bg-agent", Instructions: "You research.", Model: m, Tools: set, Logger: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.UseBackgroundTasks(mgr)
	return a
}

func chunksOf(t *testing.T, a *Agent, input any, opts ...Option) []stream.Chunk {
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

func firstOfType(chunks []stream.Chunk, typ string) (stream.Chunk, bool) {
	for _, c := range chunks {
		if c.Type == typ {
			return c, true
		}
	}
	return stream.Chunk{}, false
}

func TestDeferredCallAnswersWithThePlaceholderAndWritesTheResultLater(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	mgr := startedManager(t, bgtasks.Config{})
	t.Cleanup(open)
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}},
		mock.Step{Text: "I started the research."},
	)
	store := memoryStore(t)
	a := bgAgent(t, m, tools.Set{"research": researchTool(release, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) { c.Storage, c.Memory = store, &MemoryOptions{} })
	chunks := chunksOf(t, a, "research owls", WithMemory("th-1", "user-1"))

	started, ok := firstOfType(chunks, bgtasks.TypeStarted)
	if !ok {
		t.Fatalf("no background-task-started chunk: %v", types(chunks))
	}
	sp := started.Payload.(bgtasks.StartedPayload)
	if sp.ToolCallID != "c1" || sp.ToolName != "research" || sp.TaskID == "" {
		t.Fatalf("started payload %+v", sp)
	}
	res, _ := firstOfType(chunks, stream.TypeToolResult)
	want := `Background task started. Task ID: ` + sp.TaskID + `. The tool "research" is running in the background. You will be notified when it completes.`
	wantJSON, _ := json.Marshal(want)
	if got := res.Payload.(stream.ToolResultPayload).Result; string(got.(json.RawMessage)) != string(wantJSON) {
		t.Fatalf("tool-result %s", got)
	}
	// The model was told: the system prompt, and the field in the schema.
	first := m.Calls()[0]
	if !strings.Contains(first.Messages[0].Content[0].Text, "You research.\n\nYou have the ability to run certain tools in the background") ||
		!strings.Contains(first.Messages[0].Content[0].Text, "- research (default: background)") {
		t.Errorf("system message %q", first.Messages[0].Content[0].Text)
	}
	if first.Tools[0].InputSchema.Properties[backgroundKey] == nil {
		t.Errorf("no _background in the offered schema")
	}
	// The task finishes after the run: memory gets the real result.
	open()
	if _, err := mgr.WaitForNextTask(context.Background(), []string{sp.TaskID}); err != nil {
		t.Fatal(err)
	}
	a.backgroundInjected(context.Background(), sp.TaskID, bgtasks.TypeCompleted)
	msgs, err := store.ListMessages(context.Background(), "th-1", 10)
	if err != nil {
		t.Fatal(err)
	}
	var toolMsg *storage.Message
	for i := range msgs {
		if msgs[i].Role == "tool" {
			toolMsg = &msgs[i]
		}
	}
	if toolMsg == nil || !strings.Contains(string(toolMsg.Content), `all about owls`) || strings.Contains(string(toolMsg.Content), "Background task started") {
		t.Fatalf("stored tool message %s", toolMsg.Content)
	}
	if !strings.Contains(string(toolMsg.Metadata), `"backgroundTasks":{"c1":{"taskId":"`+sp.TaskID+`"`) {
		t.Errorf("metadata %s", toolMsg.Metadata)
	}
}

func TestAwaitedCallAnswersWithTheTasksResult(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls","_background":{"disposition":"awaited"}}`}}},
		mock.Step{Text: "Done."},
	)
	a := bgAgent(t, m, tools.Set{"research": researchTool(nil, &tools.BackgroundConfig{Enabled: true, DefaultDisposition: tools.DispositionForeground})}, mgr)
	chunks := chunksOf(t, a, "research owls")
	if _, ok := firstOfType(chunks, bgtasks.TypeStarted); !ok {
		t.Fatalf("no started chunk: %v", types(chunks))
	}
	res, _ := firstOfType(chunks, stream.TypeToolResult)
	if got := string(res.Payload.(stream.ToolResultPayload).Result.(json.RawMessage)); got != `{"summary":"all about owls"}` {
		t.Fatalf("tool-result %s", got)
	}
	tasks, _ := mgr.ListTasks(context.Background(), bgtasks.Filter{AgentID: "bg-agent"})
	if tasks.Total != 1 || tasks.Tasks[0].Status != bgtasks.Completed || string(tasks.Tasks[0].Args) != `{"topic":"owls"}` {
		t.Fatalf("tasks %+v", tasks)
	}
	// The prompt says the tool runs in the foreground unless opted in.
	if !strings.Contains(m.Calls()[0].Messages[0].Content[0].Text, `- research (default: foreground — opt in with "_background")`) {
		t.Errorf("system prompt %q", m.Calls()[0].Messages[0].Content[0].Text)
	}
}

func TestBackgroundArgumentOfAnIneligibleToolIsAValidationError(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls","_background":{"disposition":"deferred"}}`}}},
		mock.Step{Text: "Sorry."},
	)
	a := bgAgent(t, m, tools.Set{"research": researchTool(nil, nil)}, mgr)
	chunks := chunksOf(t, a, "research owls")
	res, _ := firstOfType(chunks, stream.TypeToolResult)
	got, _ := json.Marshal(res.Payload.(stream.ToolResultPayload).Result)
	if !strings.Contains(string(got), `Tool input validation failed for research`) || !strings.Contains(string(got), `Unrecognized key: \"_background\"`) {
		t.Fatalf("tool-result %s", got)
	}
	if _, ok := firstOfType(chunks, bgtasks.TypeStarted); ok {
		t.Error("a task was started")
	}
	if m.Calls()[0].Tools[0].InputSchema.Properties[backgroundKey] != nil {
		t.Error("an ineligible tool was offered _background")
	}
	// The model saw the error, and the call as it made it.
	second := m.Calls()[1]
	last := second.Messages[len(second.Messages)-1].Content[0].ToolResult
	if last == nil || !strings.Contains(string(last.Input), `"_background"`) {
		t.Errorf("the model's call was not kept: %+v", last)
	}
}

func TestForegroundOverrideRunsInlineWithoutTheField(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	var seen string
	tool := tools.New(tools.Config[map[string]any, string]{ID: "echo", Description: "d", Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(_ tools.Context, in map[string]any) (string, error) {
			b, _ := json.Marshal(in)
			seen = string(b)
			return "ok", nil
		}})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "echo", Args: `{"a":1,"_background":{"disposition":"foreground"}}`}}},
		mock.Step{Text: "Done."},
	)
	a := bgAgent(t, m, tools.Set{"echo": tool}, mgr)
	chunks := chunksOf(t, a, "go")
	if seen != `{"a":1}` {
		t.Errorf("the tool saw %s", seen)
	}
	if _, ok := firstOfType(chunks, bgtasks.TypeStarted); ok {
		t.Error("a task was started")
	}
}

func TestFailedDeferredTaskLeavesItsErrorInMemory(t *testing.T) {
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"fail"}`}}},
		mock.Step{Text: "Started."},
	)
	store := memoryStore(t)
	a := bgAgent(t, m, tools.Set{"research": researchTool(nil, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) { c.Storage, c.Memory = store, &MemoryOptions{} })
	chunks := chunksOf(t, a, "research", WithMemory("th-2", "user-1"))
	started, _ := firstOfType(chunks, bgtasks.TypeStarted)
	id := started.Payload.(bgtasks.StartedPayload).TaskID
	if _, err := mgr.WaitForNextTask(context.Background(), []string{id}); err != nil {
		t.Fatal(err)
	}
	a.backgroundInjected(context.Background(), id, bgtasks.TypeFailed)
	msgs, _ := store.ListMessages(context.Background(), "th-2", 10)
	found := false
	for _, sm := range msgs {
		var msg model.Message
		_ = json.Unmarshal(sm.Content, &msg)
		for _, p := range msg.Content {
			if p.ToolResult != nil && p.ToolResult.Output.Value != nil {
				b, _ := json.Marshal(p.ToolResult.Output.Value)
				found = found || string(b) == `"Background task failed: the archive is closed"`
			}
		}
	}
	if !found {
		t.Fatalf("memory does not hold the failure")
	}
}

func TestWithoutAManagerArgumentsAreLeftAsTheyAre(t *testing.T) {
	var seen string
	tool := tools.New(tools.Config[map[string]any, string]{ID: "echo", Description: "d",
		Execute: func(_ tools.Context, in map[string]any) (string, error) {
			b, _ := json.Marshal(in)
			seen = string(b)
			return "ok", nil
		}})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "echo", Args: `{"a":1,"_background":{"disposition":"deferred"}}`}}},
		mock.Step{Text: "Done."},
	)
	a, err := New(Config{ID: "plain", Model: m, Tools: tools.Set{"echo": tool}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if seen != `{"_background":{"disposition":"deferred"},"a":1}` {
		t.Errorf("the tool saw %s", seen)
	}
}
