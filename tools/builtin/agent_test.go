package builtin_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools/builtin"
)

const writeTwo = `{"tasks":[{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},` +
	`{"content":"Write tests","status":"pending","activeForm":"Writing tests"}]}`

const snapshotTwo = "<current-task-list count=\"2\">\n  ▸ [in_progress] {id: task_fix_the_bug} Fix the bug\n" +
	"  ○ [pending] {id: task_write_tests} Write tests\n</current-task-list>"

func newTaskAgent(t *testing.T, store *memStore, steps ...mock.Step) (*agent.Agent, *mock.Model) {
	t.Helper()
	m := mock.New(steps...)
	a, err := agent.New(agent.Config{
		ID: "coder", Instructions: "You are a coder.", Model: m,
		Signals: []agent.Signal{builtin.NewTaskSignalProvider(store)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, m
}

func TestAgentTaskSignals(t *testing.T) {
	store := newMemStore()
	a, m := newTaskAgent(t, store,
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "task_write", Args: writeTwo}}},
		mock.Step{Text: "Working on it."},
	)
	out, err := a.Generate(context.Background(), "Fix the bug and test it.", agent.WithMemory("thread-1", "user-1"))
	if err != nil {
		t.Fatal(err)
	}

	// The tool result.
	if len(out.ToolResults) != 1 {
		t.Fatalf("%d tool results", len(out.ToolResults))
	}
	res := taskResultOf(t, out.ToolResults[0])
	want := "Tasks updated: [0/2 completed]\nCurrently: Fixing the bug (task_fix_the_bug)\nTask IDs:\n" +
		"- task_fix_the_bug: Fix the bug (in_progress)\n- task_write_tests: Write tests (pending)"
	if res.Content != want || res.IsError || len(res.Tasks) != 2 {
		t.Errorf("result %+v", res)
	}
	if got := store.get("thread-1", builtin.TaskStateType); got == nil {
		t.Error("the list was not stored")
	}

	// The tools are offered to the model.
	calls := m.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d model calls", len(calls))
	}
	var names []string
	for _, td := range calls[0].Tools {
		names = append(names, td.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"task_check", "task_complete", "task_update", "task_write"}, names); diff != "" {
		t.Errorf("tools offered (-want +got):\n%s", diff)
	}

	// The first call: the instructions and the processor's explanation.
	if diff := cmp.Diff([]string{"system: You are a coder.", "system: " + explanation, "user: Fix the bug and test it."}, shape(calls[0].Messages)); diff != "" {
		t.Errorf("first call (-want +got):\n%s", diff)
	}
	// The second call: the snapshot, as a user message after the result.
	wantSecond := []string{"system: You are a coder.", "system: " + explanation, "user: Fix the bug and test it.",
		"assistant calls task_write", "tool results task_write", "user: " + snapshotTwo}
	if diff := cmp.Diff(wantSecond, shape(calls[1].Messages)); diff != "" {
		t.Errorf("second call (-want +got):\n%s", diff)
	}
	// The signal is not part of the run's own messages.
	for _, msg := range out.Response.Messages {
		if msg.Role == model.RoleUser {
			t.Errorf("response holds a user message: %q", messageText(msg))
		}
	}
}

// Mastra persists its signals in memory, so a later run on the thread sees
// them again; here the agent keeps only the conversation, and the
// processor tells a later run the task list afresh, as Mastra does once
// its window has lost the snapshot.
func TestAgentLaterRuns(t *testing.T) {
	store := newMemStore()
	a, _ := newTaskAgent(t, store,
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "task_write", Args: writeTwo}}},
		mock.Step{Text: "Working on it."},
	)
	first, err := a.Generate(context.Background(), "Fix the bug.", agent.WithMemory("thread-1", "user-1"))
	if err != nil {
		t.Fatal(err)
	}
	history := append([]model.Message{model.UserText("Fix the bug.")}, first.Response.Messages...)

	// Without the signals in its messages: a snapshot from the store.
	b, m := newTaskAgent(t, store, mock.Step{Text: "Still on it."})
	if _, err := b.Generate(context.Background(), append(slices.Clone(history), model.UserText("Status?")), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	got := shape(m.Calls()[0].Messages)
	if got[len(got)-2] != "user: Status?" || got[len(got)-1] != "user: "+snapshotTwo {
		t.Errorf("later run without signals: %q", got)
	}

	// With them (a memory that kept the signals): nothing new.
	c, m := newTaskAgent(t, store, mock.Step{Text: "Still on it."})
	withSignal := append(slices.Clone(history[:3]), model.UserText(snapshotTwo))
	withSignal = append(withSignal, history[3:]...)
	if _, err := c.Generate(context.Background(), append(withSignal, model.UserText("Status?")), agent.WithMemory("thread-1", "user-1")); err != nil {
		t.Fatal(err)
	}
	got = shape(m.Calls()[0].Messages)
	if n := countPrefix(got, "user: <current-task-list"); n != 1 || got[len(got)-1] != "user: Status?" {
		t.Errorf("later run with the signal: %q", got)
	}
}

// Without memory the task tools record nothing and no signal is shown.
func TestAgentWithoutMemory(t *testing.T) {
	store := newMemStore()
	a, m := newTaskAgent(t, store,
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "task_write", Args: writeTwo}}},
		mock.Step{Text: "ok"},
	)
	out, err := a.Generate(context.Background(), "Fix the bug.")
	if err != nil {
		t.Fatal(err)
	}
	res := taskResultOf(t, out.ToolResults[0])
	if !res.IsError || !strings.HasPrefix(res.Content, "Task tools require agent memory") {
		t.Errorf("result %+v", res)
	}
	if got := shape(m.Calls()[1].Messages); countPrefix(got, "user: <") > 0 {
		t.Errorf("a signal without memory: %q", got)
	}
	if store.sets > 0 {
		t.Error("stored without memory")
	}
}

func taskResultOf(t *testing.T, c stream.Chunk) builtin.TaskResult {
	t.Helper()
	p := c.Payload.(stream.ToolResultPayload)
	var raw []byte
	switch r := p.Result.(type) {
	case json.RawMessage:
		raw = r
	default:
		var err error
		if raw, err = json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	}
	var res builtin.TaskResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	return res
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func TestTaskSignalProvider(t *testing.T) {
	p := builtin.NewTaskSignalProvider(newMemStore())
	if p.ID() != "task-signals" {
		t.Errorf("id %q", p.ID())
	}
	set := p.Tools()
	var keys []string
	for k, tool := range set {
		keys = append(keys, k)
		if tool.ID() != k {
			t.Errorf("tool %s has id %s", k, tool.ID())
		}
	}
	slices.Sort(keys)
	if diff := cmp.Diff([]string{"task_check", "task_complete", "task_update", "task_write"}, keys); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	delete(set, "task_write")
	if _, ok := p.Tools()["task_write"]; !ok {
		t.Error("Tools returned the provider's own map")
	}
	procs := p.Processors()
	if len(procs) != 1 || procs[0].ID() != "task-state" || procs[0] != agent.StepProcessor(p.Processor()) {
		t.Errorf("processors %v", procs)
	}
}
