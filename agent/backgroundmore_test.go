package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// storedToolResult is the output of the call's result part in the
// thread's stored messages.
func storedToolResult(t *testing.T, store storage.Store, thread, callID string) *model.ToolResultOutput {
	t.Helper()
	msgs, err := store.ListMessages(context.Background(), thread, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, sm := range msgs {
		var m model.Message
		_ = json.Unmarshal(sm.Content, &m)
		for _, p := range m.Content {
			if p.ToolResult != nil && p.ToolResult.ToolCallID == callID {
				return &p.ToolResult.Output
			}
		}
	}
	return nil
}

func startedTaskID(t *testing.T, chunks []stream.Chunk) string {
	t.Helper()
	c, ok := firstOfType(chunks, bgtasks.TypeStarted)
	if !ok {
		t.Fatalf("no task started: %v", types(chunks))
	}
	return c.Payload.(bgtasks.StartedPayload).TaskID
}

func TestSuspendedTaskResumesByTaskID(t *testing.T) {
	type answer struct {
		Answer string `json:"answer"`
	}
	ask := tools.New(tools.Config[researchIn, string]{ID: "ask", Description: "asks", Background: &tools.BackgroundConfig{Enabled: true},
		ResumeSchema: schema.MustFor[answer](),
		Execute: func(ctx tools.Context, in researchIn) (string, error) {
			a, ok, err := tools.ResumeDataAs[answer](ctx)
			if err != nil {
				return "", err
			}
			if !ok {
				return "", ctx.Suspend(map[string]string{"question": "which " + in.Topic + "?"})
			}
			return "researched " + a.Answer, nil
		}})
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "ask", Args: `{"topic":"birds"}`}}}, mock.Step{Text: "Asked."})
	store := memoryStore(t)
	a := bgAgent(t, m, tools.Set{"ask": ask}, mgr, func(c *Config) { c.Storage, c.Memory = store, &MemoryOptions{} })
	id := startedTaskID(t, chunksOf(t, a, "go", WithMemory("th-s", "u")))
	waitTask(t, mgr, id, bgtasks.Suspended)
	task, _ := mgr.GetTask(context.Background(), id)
	if string(task.SuspendPayload) != `{"question":"which birds?"}` {
		t.Fatalf("suspend payload %s", task.SuspendPayload)
	}
	if err := mgr.Resume(context.Background(), id, map[string]string{"answer": "owls"}); err != nil {
		t.Fatal(err)
	}
	waitTask(t, mgr, id, bgtasks.Completed)
	a.backgroundInjected(context.Background(), id, bgtasks.TypeCompleted)
	out := storedToolResult(t, store, "th-s", "c1")
	if b, _ := json.Marshal(out); out == nil || !strings.Contains(string(b), "researched owls") {
		t.Errorf("stored result %s", b)
	}
}

func waitTask(t *testing.T, mgr *bgtasks.Manager, id string, want bgtasks.Status) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		task, err := mgr.GetTask(context.Background(), id)
		if err == nil && task.Status == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %s, want %s", id, task.Status, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestUntilIdleReportsATimedOutTask(t *testing.T) {
	never := make(chan struct{})
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls","_background":{"timeoutMs":30}}`}}},
		mock.Step{Text: "Started."},
		mock.Step{Text: "It took too long."},
	)
	a := bgAgent(t, m, tools.Set{"research": researchTool(never, &tools.BackgroundConfig{Enabled: true})}, mgr,
		func(c *Config) { c.Storage, c.Memory = memoryStore(t), &MemoryOptions{} })
	chunks := chunksOf(t, a, "research", WithMemory("th-t", "u"), WithUntilIdle(5*time.Second))
	failed, ok := firstOfType(chunks, bgtasks.TypeFailed)
	if !ok {
		t.Fatalf("no failed chunk: %v", types(chunks))
	}
	if p := failed.Payload.(*bgtasks.FailedPayload); p.Error.Message != "Task timed out after 30ms" || p.ToolCallID != "c1" {
		t.Errorf("failed payload %+v", p)
	}
	b, _ := json.Marshal(m.Calls()[2].Messages)
	if !strings.Contains(string(b), "The following tool-call IDs failed: c1 (research).") ||
		!strings.Contains(string(b), "Background task failed: Task timed out after 30ms") {
		t.Errorf("the continuation saw %s", b)
	}
}

func TestSubAgentRunsAsABackgroundTask(t *testing.T) {
	writerModel := mock.New(mock.Step{Text: "A poem about owls."})
	writer, err := New(Config{ID: "writer-agent", Description: "Writes poems", Model: writerModel})
	if err != nil {
		t.Fatal(err)
	}
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "s1", Name: "agent-writer", Args: `{"prompt":"owls"}`}}},
		mock.Step{Text: "The writer is on it."},
	)
	a := bgAgent(t, m, nil, mgr, func(c *Config) {
		c.Agents = map[string]*Agent{"writer": writer}
		c.Background = &BackgroundTasks{Tools: map[string]BackgroundTool{"writer": {Enabled: true}}}
	})
	chunks := chunksOf(t, a, "a poem")
	id := startedTaskID(t, chunks)
	if !strings.Contains(m.Calls()[0].Messages[0].Content[0].Text, "- agent-writer (default: background)") {
		t.Errorf("system prompt %q", m.Calls()[0].Messages[0].Content[0].Text)
	}
	waitTask(t, mgr, id, bgtasks.Completed)
	task, _ := mgr.GetTask(context.Background(), id)
	if !strings.Contains(string(task.Result), `"text":"A poem about owls."`) {
		t.Errorf("task result %s", task.Result)
	}
}

func TestInjectedResultGoesThroughToModelOutput(t *testing.T) {
	tool := tools.New(tools.Config[researchIn, researchOut]{ID: "research", Description: "d", Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(_ tools.Context, in researchIn) (researchOut, error) {
			return researchOut{Summary: "all about " + in.Topic}, nil
		},
		ToModelOutput: func(_ context.Context, out researchOut) (*model.ToolResultOutput, error) {
			return tools.TextOutput("summary: " + out.Summary)
		}})
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}}, mock.Step{Text: "ok"})
	store := memoryStore(t)
	a := bgAgent(t, m, tools.Set{"research": tool}, mgr, func(c *Config) { c.Storage, c.Memory = store, &MemoryOptions{} })
	id := startedTaskID(t, chunksOf(t, a, "go", WithMemory("th-m", "u")))
	waitTask(t, mgr, id, bgtasks.Completed)
	a.backgroundInjected(context.Background(), id, bgtasks.TypeCompleted)
	out := storedToolResult(t, store, "th-m", "c1")
	if out == nil || out.Type != model.OutputText || out.Value != "summary: all about owls" {
		t.Errorf("stored output %+v", out)
	}
}

func TestAwaitedTaskThatSuspendsSuspendsTheRunAndResumesWithIt(t *testing.T) {
	type answer struct {
		Answer string `json:"answer"`
	}
	ask := tools.New(tools.Config[researchIn, string]{ID: "ask", Description: "asks", Background: &tools.BackgroundConfig{Enabled: true},
		ResumeSchema: schema.MustFor[answer](),
		Execute: func(ctx tools.Context, in researchIn) (string, error) {
			a, ok, err := tools.ResumeDataAs[answer](ctx)
			if err != nil {
				return "", err
			}
			if !ok {
				return "", ctx.Suspend(map[string]string{"question": "which " + in.Topic + "?"})
			}
			return "researched " + a.Answer, nil
		}})
	mgr := startedManager(t, bgtasks.Config{})
	m := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "ask", Args: `{"topic":"birds","_background":{"disposition":"awaited"}}`}}},
		mock.Step{Text: "Owls it is."},
	)
	a := bgAgent(t, m, tools.Set{"ask": ask}, mgr, func(c *Config) { c.Storage = memoryStore(t) })
	out, err := a.Generate(context.Background(), "go")
	if err != nil {
		t.Fatal(err)
	}
	if out.FinishReason != "suspended" {
		t.Fatalf("finish %s: %v", out.FinishReason, types(out.Chunks))
	}
	susp, ok := firstOfType(out.Chunks, stream.TypeToolCallSuspended)
	if !ok || !strings.Contains(mustJSON(t, susp.Payload), `"suspendPayload":{"question":"which birds?"}`) {
		t.Fatalf("suspension %s", mustJSON(t, susp.Payload))
	}
	res, err := a.ResumeGenerate(context.Background(), out.RunID, map[string]string{"answer": "owls"}, WithToolCallID("c1"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := firstOfType(res.Chunks, stream.TypeToolResult)
	if got := mustJSON(t, r.Payload); !strings.Contains(got, `"result":"researched owls"`) {
		t.Errorf("resumed result %s", got)
	}
	tasks, _ := mgr.ListTasks(context.Background(), bgtasks.Filter{AgentID: "bg-agent"})
	if tasks.Total != 1 || tasks.Tasks[0].Status != bgtasks.Completed {
		t.Errorf("tasks %+v (one task, resumed, not a second one)", tasks)
	}
}
