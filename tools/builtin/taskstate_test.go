package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

const explanation = "Task list state may appear in the conversation as <current-task-list ...>...</current-task-list> snapshots " +
	"and <task-list-update ...>...</task-list-update> deltas. These are automatic observations of your task list, not user " +
	"instructions. Use them as the latest task state, continue following the actual user request, and do not treat task-list " +
	"updates as the user asking you to repeat, summarize, or change tasks unless an actual user message asks for that."

// sim simulates an agent run around a TaskStateProcessor: the run's
// history, its request context and the task tools sharing the store.
type sim struct {
	t       *testing.T
	p       *builtin.TaskStateProcessor
	store   *memStore
	set     tools.Set
	rc      *tools.RequestContext
	history []model.Message
	step    int
	calls   int
}

func newSim(t *testing.T, store *memStore, history ...model.Message) *sim {
	s := &sim{t: t, p: builtin.NewTaskStateProcessor(store), store: store, set: builtin.TaskTools(store)}
	s.newRun(history...)
	return s
}

// newRun starts another run on the same thread with the given messages.
func (s *sim) newRun(history ...model.Message) {
	s.rc = tools.NewRequestContext(map[string]any{tools.ThreadIDKey: "thread-1", tools.ResourceIDKey: "user-1"})
	s.history = append([]model.Message(nil), history...)
	s.step = 0
}

// model runs the processor for the next model call and returns what the
// model is given.
func (s *sim) model() []model.Message {
	s.t.Helper()
	in := &agent.StepInput{StepNumber: s.step, Messages: append([]model.Message(nil), s.history...),
		RequestContext: s.rc, ThreadID: "thread-1", ResourceID: "user-1"}
	if err := s.p.ProcessStep(context.Background(), in); err != nil {
		s.t.Fatal(err)
	}
	s.step++
	return in.Messages
}

// callTool records the model calling a task tool and its result.
func (s *sim) callTool(name, args string) {
	s.t.Helper()
	s.calls++
	id := fmt.Sprintf("call-%d", s.calls)
	res, err := s.set[name].Execute(context.Background(), json.RawMessage(args),
		&tools.Invocation{ToolCallID: id, ToolName: name, RequestContext: s.rc, Agent: &tools.AgentInfo{AgentID: "a"}})
	if err != nil {
		s.t.Fatal(err)
	}
	out, _ := res.JSON()
	s.history = append(s.history,
		model.Assistant(model.Part{Type: model.MessageToolCall, ToolCall: &model.ToolCallPart{ToolCallID: id, ToolName: name, Input: json.RawMessage(args)}}),
		model.ToolMessage(model.ToolResultPart{ToolCallID: id, ToolName: name, Output: model.ToolResultOutput{Type: model.OutputJSON, Value: json.RawMessage(out)}}))
}

// shape renders messages as "role: text" lines (tool calls and results as
// their tool names).
func shape(msgs []model.Message) []string {
	var out []string
	for _, c := range compact(msgs) {
		line := c.Role
		if c.Text != nil {
			line += ": " + *c.Text
		}
		if len(c.ToolCalls) > 0 {
			line += " calls " + strings.Join(c.ToolCalls, ",")
		}
		if len(c.ToolResults) > 0 {
			line += " results " + strings.Join(c.ToolResults, ",")
		}
		out = append(out, line)
	}
	return out
}

const (
	snapshotAB = "user: <current-task-list count=\"2\">\n  ▸ [in_progress] {id: a} Alpha\n  ○ [pending] {id: b} Beta\n</current-task-list>"
	deltaA     = "user: <task-list-update changes=\"1\">\n  ✓ {id: a} [completed] Alpha\n</task-list-update>"
	writeAB    = `{"tasks":[{"id":"a","content":"Alpha","status":"in_progress","activeForm":"Doing alpha"},{"id":"b","content":"Beta","status":"pending","activeForm":"Doing beta"}]}`
)

func TestTaskStateSystemMessage(t *testing.T) {
	p := builtin.NewTaskStateProcessor(newMemStore())
	for _, c := range []struct {
		name string
		in   []model.Message
		want []string
	}{
		{"after the instructions", []model.Message{model.System("I"), model.UserText("hi")}, []string{"system: I", "system: " + explanation, "user: hi"}},
		{"first without instructions", []model.Message{model.UserText("hi")}, []string{"system: " + explanation, "user: hi"}},
		{"after every leading system message", []model.Message{model.System("a"), model.System("b"), model.UserText("hi")},
			[]string{"system: a", "system: b", "system: " + explanation, "user: hi"}},
	} {
		// Without memory only the system message is added, whatever the
		// request context carries.
		rc := tools.NewRequestContext(map[string]any{builtin.TasksRequestContextKey: []builtin.Task{task("a", "A", builtin.TaskPending, "x")}})
		in := &agent.StepInput{Messages: c.in, RequestContext: rc, ThreadID: "thread-1"}
		if err := p.ProcessStep(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, shape(in.Messages)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestTaskStateSnapshotAndDeltas(t *testing.T) {
	s := newSim(t, newMemStore(), model.System("I"), model.UserText("go"))
	head := []string{"system: I", "system: " + explanation, "user: go"}

	// No tasks yet: nothing.
	if diff := cmp.Diff(head, shape(s.model())); diff != "" {
		t.Fatalf("step 0 (-want +got):\n%s", diff)
	}

	// The first list is a snapshot, after the tool result.
	s.callTool("task_write", writeAB)
	want := append(append([]string{}, head...), "assistant calls task_write", "tool results task_write", snapshotAB)
	if diff := cmp.Diff(want, shape(s.model())); diff != "" {
		t.Fatalf("step 1 (-want +got):\n%s", diff)
	}

	// Nothing changed: the snapshot stays where it was, nothing is added.
	s.callTool("task_check", `{}`)
	want = append(want, "assistant calls task_check", "tool results task_check")
	if diff := cmp.Diff(want, shape(s.model())); diff != "" {
		t.Fatalf("step 2 (-want +got):\n%s", diff)
	}

	// A change is a delta; an activeForm-only change is one too (Mastra
	// compares every field).
	s.callTool("task_complete", `{"id":"a"}`)
	want = append(want, "assistant calls task_complete", "tool results task_complete", deltaA)
	if diff := cmp.Diff(want, shape(s.model())); diff != "" {
		t.Fatalf("step 3 (-want +got):\n%s", diff)
	}
	s.callTool("task_update", `{"id":"b","activeForm":"Doing beta now"}`)
	want = append(want, "assistant calls task_update", "tool results task_update",
		"user: <task-list-update changes=\"1\">\n  ○ {id: b} [pending] Beta\n</task-list-update>")
	if diff := cmp.Diff(want, shape(s.model())); diff != "" {
		t.Fatalf("step 4 (-want +got):\n%s", diff)
	}

	// Adds, updates and removals in one delta.
	s.callTool("task_write", `{"tasks":[{"id":"c","content":"Gamma & <co>","status":"in_progress","activeForm":"x"},{"id":"b","content":"Beta","status":"completed","activeForm":"Doing beta now"}]}`)
	got := shape(s.model())
	wantDelta := "user: <task-list-update changes=\"3\">\n  + {id: c} [in_progress] Gamma &amp; &lt;co&gt;\n  ✓ {id: b} [completed] Beta\n  − removed {id: a}\n</task-list-update>"
	if got[len(got)-1] != wantDelta {
		t.Errorf("delta\n got %q\nwant %q", got[len(got)-1], wantDelta)
	}

	// Clearing the list is a delta of removals, in the order of the list
	// the model pieced together (deltas append new tasks: b, then c); then
	// nothing.
	s.callTool("task_write", `{"tasks":[]}`)
	got = shape(s.model())
	if want := "user: <task-list-update changes=\"2\">\n  − removed {id: b}\n  − removed {id: c}\n</task-list-update>"; got[len(got)-1] != want {
		t.Errorf("clearing\n got %q\nwant %q", got[len(got)-1], want)
	}
	n := len(got)
	s.history = append(s.history, model.Assistant(model.Text("done")))
	if got := s.model(); len(got) != n+1 {
		t.Errorf("an empty list was announced again: %q", shape(got)[n:])
	}
}

func TestTaskStateTenDeltas(t *testing.T) {
	s := newSim(t, newMemStore(), model.UserText("go"))
	var modes []string
	list := []string{}
	for i := 1; i <= 13; i++ {
		list = append(list, fmt.Sprintf(`{"id":"t%d","content":"T%d","status":"pending","activeForm":"x"}`, i, i))
		s.callTool("task_write", `{"tasks":[`+strings.Join(list, ",")+`]}`)
		msgs := s.model()
		last := messageText(msgs[len(msgs)-1])
		switch {
		case strings.HasPrefix(last, "<current-task-list"):
			modes = append(modes, "S")
		case strings.HasPrefix(last, "<task-list-update"):
			modes = append(modes, "D")
		default:
			modes = append(modes, "-")
		}
	}
	// A snapshot, ten deltas, then the eleventh change is a snapshot.
	if got := strings.Join(modes, ""); got != "SDDDDDDDDDDSD" {
		t.Errorf("modes %s", got)
	}
}

func TestTaskStateLaterRuns(t *testing.T) {
	store := newMemStore()
	s := newSim(t, store, model.UserText("go"))
	s.callTool("task_write", writeAB)
	s.model()
	s.callTool("task_complete", `{"id":"a"}`)
	s.model()

	// A later run whose messages do not hold the signals (the agent's memory
	// keeps only the conversation): the stored list comes as a snapshot.
	s.newRun(model.UserText("go"), model.Assistant(model.Text("ok")), model.UserText("next"))
	got := shape(s.model())
	want := []string{"system: " + explanation, "user: go", "assistant: ok", "user: next",
		"user: <current-task-list count=\"2\">\n  ✓ [completed] {id: a} Alpha\n  ○ [pending] {id: b} Beta\n</current-task-list>"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("later run (-want +got):\n%s", diff)
	}

	// A later run whose messages still hold that snapshot (a memory that
	// kept the signals): nothing new, and a change is a delta.
	snapshot := messageText(s.model()[4])
	s.newRun(model.UserText("go"), model.UserText(snapshot), model.UserText("again"))
	if got := shape(s.model()); len(got) != 4 {
		t.Fatalf("a known snapshot was repeated: %q", got)
	}
	s.callTool("task_update", `{"id":"b","status":"in_progress"}`)
	got = shape(s.model())
	if want := "user: <task-list-update changes=\"1\">\n  ▸ {id: b} [in_progress] Beta\n</task-list-update>"; got[len(got)-1] != want {
		t.Errorf("change after a kept snapshot\n got %q\nwant %q", got[len(got)-1], want)
	}

	// Messages that hold the snapshot but lost the delta after it: the
	// change is sent again, as a delta against the snapshot in view.
	s.newRun(model.UserText(snapshot), model.UserText("again"))
	if got := shape(s.model()); got[len(got)-1] != "user: <task-list-update changes=\"1\">\n  ▸ {id: b} [in_progress] Beta\n</task-list-update>" {
		t.Errorf("lost delta: got %q", got[len(got)-1])
	}
}

func TestTaskStateStoreFailures(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		name          string
		failGet       bool
		types         []string
		carried       bool
		wantErrSubstr string
	}{
		{"signal state unreadable", true, []string{builtin.TaskSignalStateType}, true, "reading the task signal state: boom"},
		{"task list unreadable", true, []string{builtin.TaskStateType}, false, "reading the task list: boom"},
		{"signal state unwritable", false, []string{builtin.TaskSignalStateType}, true, "saving the task signal state: boom"},
	} {
		store := newMemStore()
		store.set("thread-1", builtin.TaskStateType, []builtin.Task{task("a", "A", builtin.TaskPending, "x")})
		if c.failGet {
			store.failGet = boom
		} else {
			store.failSet = boom
		}
		store.failOnly = c.types
		rc := tools.NewRequestContext(nil)
		if c.carried {
			_ = rc.Set(builtin.TasksRequestContextKey, []builtin.Task{task("a", "A", builtin.TaskPending, "x")})
		}
		in := &agent.StepInput{Messages: []model.Message{model.UserText("go")}, RequestContext: rc, ThreadID: "thread-1", ResourceID: "user-1"}
		err := builtin.NewTaskStateProcessor(store).ProcessStep(context.Background(), in)
		if err == nil || !strings.Contains(err.Error(), c.wantErrSubstr) || !errors.Is(err, boom) {
			t.Errorf("%s: error %v", c.name, err)
		}
	}

	// An unreadable signal record only means no snapshot is known.
	store := newMemStore()
	store.set("thread-1", builtin.TaskSignalStateType, "garbage")
	s := newSim(t, store, model.UserText("go"))
	s.callTool("task_write", writeAB)
	got := shape(s.model())
	if got[len(got)-1] != snapshotAB {
		t.Errorf("after a garbage record: %q", got[len(got)-1])
	}
}

func TestTaskStateWithoutStoreOrRequestContext(t *testing.T) {
	// Without a store the processor still follows the run's own lists.
	p := builtin.NewTaskStateProcessor(nil)
	rc := tools.NewRequestContext(nil)
	_ = rc.Set(builtin.TasksRequestContextKey, []any{
		map[string]any{"id": "a", "content": "Alpha", "status": "in_progress", "activeForm": "x"},
		map[string]any{"id": "b", "content": "Beta", "status": "pending", "activeForm": "y"},
	}) // as a request context decoded from JSON holds it
	history := []model.Message{model.UserText("go")}
	for step, want := range []string{snapshotAB, snapshotAB} {
		in := &agent.StepInput{StepNumber: step, Messages: append([]model.Message(nil), history...), RequestContext: rc, ThreadID: "t", ResourceID: "r"}
		if err := p.ProcessStep(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		got := shape(in.Messages)
		if got[2] != want || len(got) != 3+step {
			t.Errorf("step %d: %q", step, got)
		}
		history = append(history, model.Assistant(model.Text("x")))
	}

	// A nil request context does not break anything.
	in := &agent.StepInput{Messages: []model.Message{model.UserText("go")}, ThreadID: "t", ResourceID: "r"}
	if err := builtin.NewTaskStateProcessor(newMemStore()).ProcessStep(context.Background(), in); err != nil || len(in.Messages) != 2 {
		t.Errorf("nil request context: %v %q", err, shape(in.Messages))
	}

	// A carried value that is not a task list is ignored.
	rc = tools.NewRequestContext(map[string]any{builtin.TasksRequestContextKey: []any{map[string]any{"id": 1}}})
	in = &agent.StepInput{Messages: []model.Message{model.UserText("go")}, RequestContext: rc, ThreadID: "t", ResourceID: "r"}
	if err := builtin.NewTaskStateProcessor(newMemStore()).ProcessStep(context.Background(), in); err != nil || len(in.Messages) != 2 {
		t.Errorf("bad carried list: %v %q", err, shape(in.Messages))
	}
}

func TestTaskStateConcurrentRuns(t *testing.T) {
	store := newMemStore()
	p := builtin.NewTaskStateProcessor(store)
	set := builtin.TaskTools(store)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			thread := fmt.Sprintf("thread-%d", g)
			rc := tools.NewRequestContext(map[string]any{tools.ThreadIDKey: thread, tools.ResourceIDKey: "u"})
			history := []model.Message{model.UserText("go")}
			var signals int
			for step := range 6 {
				args := fmt.Sprintf(`{"tasks":[{"id":"a","content":"Step %d","status":"pending","activeForm":"x"}]}`, step)
				if _, err := set["task_write"].Execute(context.Background(), json.RawMessage(args), &tools.Invocation{RequestContext: rc}); err != nil {
					errs <- err
					return
				}
				in := &agent.StepInput{StepNumber: step, Messages: append([]model.Message(nil), history...), RequestContext: rc, ThreadID: thread, ResourceID: "u"}
				if err := p.ProcessStep(context.Background(), in); err != nil {
					errs <- err
					return
				}
				signals = len(in.Messages) - len(history) - 1
				history = append(history, model.Assistant(model.Text("x")))
			}
			if signals != 6 {
				errs <- fmt.Errorf("%s: %d signals in view, want 6", thread, signals)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
