package bgtasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
)

// collect reads the Manager's stream in a goroutine until stop is
// called, and returns what it read.
func collect(m *bgtasks.Manager, f bgtasks.StreamFilter) (stop func() []bgtasks.Event, ready <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan []bgtasks.Event)
	r := make(chan struct{})
	go func() {
		var got []bgtasks.Event
		close(r)
		for e, err := range m.Stream(ctx, f) {
			if err != nil {
				break
			}
			got = append(got, e)
		}
		out <- got
	}()
	return func() []bgtasks.Event { cancel(); return <-out }, r
}

func types(events []bgtasks.Event) string {
	var s []string
	for _, e := range events {
		s = append(s, e.Type)
	}
	return strings.Join(s, " ")
}

func TestStreamLifecycle(t *testing.T) {
	m := start(t, bgtasks.Config{})
	stop, ready := collect(m, bgtasks.StreamFilter{AgentID: "a2"})
	<-ready
	time.Sleep(5 * time.Millisecond) // the stream has subscribed
	out := func(s string) json.RawMessage {
		return json.RawMessage(`{"type":"tool-output","runId":"run-1","from":"AGENT","payload":{"output":"` + s + `"}}`)
	}
	other := enqueue(t, m, payload("a1", "c0"), func(context.Context, *bgtasks.Call) (any, error) { return "x", nil })
	tk := enqueue(t, m, payload("a2", "c1"), func(ctx context.Context, call *bgtasks.Call) (any, error) {
		call.Progress(ctx, out("first"))
		call.Progress(ctx, out("second"))
		return "streamed-result", nil
	})
	failing := enqueue(t, m, payload("a2", "c2"), func(context.Context, *bgtasks.Call) (any, error) { return nil, errors.New("boom") })
	wait(t, m, other.ID)
	wait(t, m, tk.ID)
	wait(t, m, failing.ID)
	time.Sleep(5 * time.Millisecond)
	events := stop()
	var mine, theirs []bgtasks.Event
	for _, e := range events {
		if e.Task.AgentID != "a2" {
			t.Errorf("event of agent %s through a filter of a2", e.Task.AgentID)
		}
		if e.Task.ID == tk.ID {
			mine = append(mine, e)
		} else {
			theirs = append(theirs, e)
		}
	}
	if got := types(mine); got != "background-task-running background-task-output background-task-output background-task-completed" {
		t.Errorf("events: %s", got)
	}
	if got := types(theirs); got != "background-task-running background-task-failed" {
		t.Errorf("events of the failing task: %s", got)
	}
	b, _ := json.Marshal(mine[1])
	if want := `{"type":"background-task-output","payload":{"taskId":"` + tk.ID + `","toolName":"tool","toolCallId":"c1","runId":"run-1","agentId":"a2","payload":{"type":"tool-output","runId":"run-1","from":"AGENT","payload":{"output":"first"}}}}`; string(b) != want {
		t.Errorf("output event:\n got %s\nwant %s", b, want)
	}
}

func TestStreamSnapshotOfRunning(t *testing.T) {
	m := start(t, bgtasks.Config{})
	b := newBlocker()
	slow := enqueue(t, m, payload("a", "slow"), b.run)
	fast := enqueue(t, m, payload("a", "fast"), func(context.Context, *bgtasks.Call) (any, error) { return 1, nil })
	<-b.started
	wait(t, m, fast.ID)
	stop, ready := collect(m, bgtasks.StreamFilter{})
	<-ready
	time.Sleep(5 * time.Millisecond)
	close(b.release)
	wait(t, m, slow.ID)
	time.Sleep(5 * time.Millisecond)
	events := stop()
	if types(events) != "background-task-running background-task-completed" || events[0].Task.ID != slow.ID {
		t.Errorf("events: %s", types(events))
	}
}

func TestStreamSuspendResumeCancel(t *testing.T) {
	m := start(t, bgtasks.Config{})
	stop, ready := collect(m, bgtasks.StreamFilter{})
	<-ready
	time.Sleep(5 * time.Millisecond)
	tk := enqueue(t, m, payload("a", "c1"), func(_ context.Context, call *bgtasks.Call) (any, error) {
		if call.ResumeData == nil {
			return nil, call.Suspend(map[string]string{"ask": "pause"})
		}
		return "ok", nil
	})
	waitStatus(t, m, tk.ID, bgtasks.Suspended)
	m.Resume(context.Background(), tk.ID, true)
	wait(t, m, tk.ID)
	b := newBlocker()
	c := enqueue(t, m, payload("a", "c2"), b.run)
	<-b.started
	m.Cancel(context.Background(), c.ID)
	wait(t, m, c.ID)
	time.Sleep(5 * time.Millisecond)
	events := stop()
	want := "background-task-running background-task-suspended background-task-resumed background-task-completed background-task-running background-task-cancelled"
	if types(events) != want {
		t.Fatalf("events:\n got %s\nwant %s", types(events), want)
	}
	s, _ := json.Marshal(events[1])
	if !strings.HasPrefix(string(s), `{"type":"background-task-suspended","payload":{"taskId":"`+tk.ID+`","toolName":"tool","toolCallId":"c1","runId":"run-1","agentId":"a","args":{"q":1},"suspendPayload":{"ask":"pause"},"suspendedAt":"`) {
		t.Errorf("suspended event: %s", s)
	}
	chunk := events[3].Chunk()
	if chunk.Type != bgtasks.TypeCompleted || chunk.RunID != "run-1" {
		t.Errorf("chunk = %+v", chunk)
	}
	r, ok := chunk.Payload.(*bgtasks.ResultPayload)
	if !ok || string(r.Result) != `"ok"` || r.TaskID != tk.ID {
		t.Errorf("completed payload = %#v", chunk.Payload)
	}
}

func TestTaskJSON(t *testing.T) {
	at := time.Date(2026, 12, 2, 6, 38, 4, 123456789, time.UTC)
	tk := bgtasks.Task{
		ID: "t1", Status: bgtasks.Failed, ToolName: "tool", ToolCallID: "c1", Args: json.RawMessage(`{"a":1}`),
		AgentID: "ag", RunID: "r1", Error: &bgtasks.TaskError{Message: "boom"},
		CreatedAt: at, StartedAt: at, CompletedAt: at.Add(time.Second), MaxRetries: 2, Timeout: 300 * time.Second,
		Owner: "m1", Version: 4,
	}
	b, err := json.Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"t1","status":"failed","toolName":"tool","toolCallId":"c1","args":{"a":1},"agentId":"ag","runId":"r1","error":{"message":"boom"},"createdAt":"2026-12-02T06:38:04.123Z","startedAt":"2026-12-02T06:38:04.123Z","completedAt":"2026-12-02T06:38:05.123Z","retryCount":0,"maxRetries":2,"timeoutMs":300000}`
	if string(b) != want {
		t.Errorf("task JSON:\n got %s\nwant %s", b, want)
	}
	var back bgtasks.Task
	if err := json.Unmarshal(b, &back); err != nil || back.Timeout != tk.Timeout || !back.CompletedAt.Equal(at.Add(time.Second).Truncate(time.Millisecond)) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestTaskListJSON(t *testing.T) {
	m := start(t, bgtasks.Config{})
	list, err := m.ListTasks(context.Background(), bgtasks.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(list); string(b) != `{"tasks":[],"total":0}` {
		t.Errorf("empty list JSON = %s", b)
	}
}
