package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// taskEnv runs task tools on one memory-backed thread.
type taskEnv struct {
	t     *testing.T
	store *memStore
	set   tools.Set
	rc    *tools.RequestContext
	ctrl  *recordingController
}

func newTaskEnv(t *testing.T) *taskEnv {
	store := newMemStore()
	rc := tools.NewRequestContext(map[string]any{tools.ThreadIDKey: "thread-1", tools.ResourceIDKey: "user-1"})
	ctrl := &recordingController{}
	_ = rc.Set(builtin.ControllerRequestContextKey, ctrl)
	return &taskEnv{t: t, store: store, set: builtin.TaskTools(store), rc: rc, ctrl: ctrl}
}

// call runs tool on args and returns its output (a TaskResult,
// TaskCheckResult or *tools.ValidationError).
func (e *taskEnv) call(tool, args string) any {
	e.t.Helper()
	res, err := e.set[tool].Execute(context.Background(), json.RawMessage(args),
		&tools.Invocation{RequestContext: e.rc, Agent: &tools.AgentInfo{AgentID: "a"}})
	if err != nil {
		e.t.Fatalf("%s %s: %v", tool, args, err)
	}
	return res.Output
}

func (e *taskEnv) result(tool, args string) builtin.TaskResult {
	e.t.Helper()
	out := e.call(tool, args)
	r, ok := out.(builtin.TaskResult)
	if !ok {
		e.t.Fatalf("%s %s: output %T %v", tool, args, out, out)
	}
	return r
}

func (e *taskEnv) check() builtin.TaskCheckResult {
	e.t.Helper()
	out := e.call("task_check", `{}`)
	r, ok := out.(builtin.TaskCheckResult)
	if !ok {
		e.t.Fatalf("task_check: output %T %v", out, out)
	}
	return r
}

func (e *taskEnv) stored() []builtin.Task {
	e.t.Helper()
	raw, ok, err := e.store.GetThreadState(context.Background(), "thread-1", builtin.TaskStateType)
	if err != nil || !ok {
		e.t.Fatalf("stored list: %v %v", ok, err)
	}
	var tasks []builtin.Task
	if err := json.Unmarshal(raw, &tasks); err != nil {
		e.t.Fatal(err)
	}
	return tasks
}

func task(id, content string, status builtin.TaskStatus, activeForm string) builtin.Task {
	return builtin.Task{ID: id, Content: content, Status: status, ActiveForm: activeForm}
}

const threeTasks = `{"tasks":[
	{"content":"Read the code","status":"completed","activeForm":"Reading the code"},
	{"content":"Fix the bug","status":"in_progress","activeForm":"Fixing the bug"},
	{"id":"tests","content":"Write tests","status":"pending","activeForm":"Writing tests"}]}`

var threeTasksWritten = []builtin.Task{
	task("task_read_the_code", "Read the code", builtin.TaskCompleted, "Reading the code"),
	task("task_fix_the_bug", "Fix the bug", builtin.TaskInProgress, "Fixing the bug"),
	task("tests", "Write tests", builtin.TaskPending, "Writing tests"),
}

func TestTaskWrite(t *testing.T) {
	e := newTaskEnv(t)
	r := e.result("task_write", threeTasks)
	want := builtin.TaskResult{
		Content: "Tasks updated: [1/3 completed]\nCurrently: Fixing the bug (task_fix_the_bug)\nTask IDs:\n" +
			"- task_read_the_code: Read the code (completed)\n- task_fix_the_bug: Fix the bug (in_progress)\n- tests: Write tests (pending)",
		Tasks: threeTasksWritten,
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(threeTasksWritten, e.stored()); diff != "" {
		t.Errorf("stored (-want +got):\n%s", diff)
	}
	// The request context carries the new list for the processor, and the
	// display bridge hears about it.
	v, _ := e.rc.Get(builtin.TasksRequestContextKey)
	if diff := cmp.Diff(threeTasksWritten, v); diff != "" {
		t.Errorf("request context (-want +got):\n%s", diff)
	}
	wantEvents := []map[string]any{{"type": "task_updated", "tasks": threeTasksWritten}}
	if diff := cmp.Diff(wantEvents, e.ctrl.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// An empty list is a valid replacement.
	r = e.result("task_write", `{"tasks":[]}`)
	if r.Content != "Tasks updated: [0/0 completed]" || r.IsError || r.Tasks == nil || len(e.stored()) != 0 {
		t.Errorf("empty write: %+v, stored %v", r, e.stored())
	}
}

func TestTaskWriteRefusesTwoInProgress(t *testing.T) {
	e := newTaskEnv(t)
	e.result("task_write", threeTasks)
	e.ctrl.events = nil
	e.rc.Delete(builtin.TasksRequestContextKey)

	r := e.result("task_write", `{"tasks":[
		{"content":"A","status":"in_progress","activeForm":"Aing"},
		{"content":"B","status":"in_progress","activeForm":"Bing"}]}`)
	want := builtin.TaskResult{Content: "Only one task can be in_progress at a time.", Tasks: threeTasksWritten, IsError: true}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(threeTasksWritten, e.stored()); diff != "" {
		t.Errorf("the refused list was saved (-want +got):\n%s", diff)
	}
	if e.rc.Has(builtin.TasksRequestContextKey) || len(e.ctrl.events) > 0 {
		t.Error("a refused write was announced")
	}
}

func TestTaskWriteIDs(t *testing.T) {
	in := func(content string) builtin.TaskInput {
		return builtin.TaskInput{Content: content, Status: builtin.TaskPending, ActiveForm: "x"}
	}
	withID := func(id, content string) builtin.TaskInput {
		ti := in(content)
		ti.ID = id
		return ti
	}
	prev := func(id, content string) builtin.Task { return task(id, content, builtin.TaskPending, "x") }
	for _, c := range []struct {
		name     string
		tasks    []builtin.TaskInput
		previous []builtin.Task
		want     []string
	}{
		{"slug", []builtin.TaskInput{in("  Fix: the BUG (now)!")}, nil, []string{"task_fix_the_bug_now"}},
		{"non-ASCII letters separate", []builtin.TaskInput{in("Café crème")}, nil, []string{"task_caf_cr_me"}},
		{"JavaScript lowercasing of İ", []builtin.TaskInput{in("İzmir")}, nil, []string{"task_i_zmir"}},
		{"nothing left: item", []builtin.TaskInput{in("!!!"), in("日本")}, nil, []string{"task_item", "task_item_2"}},
		{"48 characters at most", []builtin.TaskInput{in(strings.Repeat("ab", 30))}, nil, []string{"task_" + strings.Repeat("ab", 24)}},
		{"cut right after a separator", []builtin.TaskInput{in(strings.Repeat("a", 47) + " bc")}, nil, []string{"task_" + strings.Repeat("a", 47) + "_"}},
		{"repeated content", []builtin.TaskInput{in("Test"), in("Test"), in("Test")}, nil, []string{"task_test", "task_test_2", "task_test_3"}},
		{"explicit ids kept", []builtin.TaskInput{withID("a", "A"), withID("b", "B")}, nil, []string{"a", "b"}},
		{"duplicate explicit id", []builtin.TaskInput{withID("same", "A"), withID("same", "B")}, nil, []string{"same", "task_b"}},
		{"explicit id reserved", []builtin.TaskInput{in("Fix bug"), withID("task_fix_bug", "Other")}, nil, []string{"task_fix_bug_2", "task_fix_bug"}},
		{"reuse by unambiguous content", []builtin.TaskInput{in("Fix bug"), in("New")}, []builtin.Task{prev("old_1", "Fix bug")}, []string{"old_1", "task_new"}},
		{"no reuse when ambiguous", []builtin.TaskInput{in("Fix bug")}, []builtin.Task{prev("o1", "Fix bug"), prev("o2", "Fix bug")}, []string{"task_fix_bug"}},
		{"no reuse when the content repeats", []builtin.TaskInput{in("Fix bug"), in("Fix bug")}, []builtin.Task{prev("o1", "Fix bug")}, []string{"task_fix_bug", "task_fix_bug_2"}},
		{"no reuse of a claimed id", []builtin.TaskInput{in("Fix bug"), withID("o1", "Other")}, []builtin.Task{prev("o1", "Fix bug")}, []string{"task_fix_bug", "o1"}},
		{"reused id reserved", []builtin.TaskInput{in("Zed"), in("Fix bug")}, []builtin.Task{prev("task_zed", "Fix bug")}, []string{"task_zed_2", "task_zed"}},
	} {
		var got []string
		for _, tk := range builtin.AssignTaskIDs(c.tasks, c.previous) {
			got = append(got, tk.ID)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}

	// Through the tool: a rewrite without ids keeps the ids of unchanged
	// tasks.
	e := newTaskEnv(t)
	e.result("task_write", `{"tasks":[{"id":"keep","content":"Fix bug","status":"pending","activeForm":"x"}]}`)
	r := e.result("task_write", `{"tasks":[{"content":"Fix bug","status":"completed","activeForm":"x"},{"content":"Ship","status":"pending","activeForm":"y"}]}`)
	if r.Tasks[0].ID != "keep" || r.Tasks[1].ID != "task_ship" {
		t.Errorf("rewrite ids: %+v", r.Tasks)
	}
}

func TestTaskUpdate(t *testing.T) {
	e := newTaskEnv(t)
	e.result("task_write", threeTasks)

	// Putting a task in progress demotes the one in progress.
	r := e.result("task_update", `{"id":"tests","status":"in_progress"}`)
	want := []builtin.Task{
		threeTasksWritten[0],
		task("task_fix_the_bug", "Fix the bug", builtin.TaskPending, "Fixing the bug"),
		task("tests", "Write tests", builtin.TaskInProgress, "Writing tests"),
	}
	if diff := cmp.Diff(want, r.Tasks); diff != "" {
		t.Fatalf("tasks (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.Content, "\nCurrently: Writing tests (tests)\n") || r.IsError {
		t.Errorf("content %q", r.Content)
	}

	// Only the fields given change.
	r = e.result("task_update", `{"id":"tests","content":"Write more tests","activeForm":"Writing more tests"}`)
	if got := r.Tasks[2]; got != task("tests", "Write more tests", builtin.TaskInProgress, "Writing more tests") {
		t.Errorf("updated task %+v", got)
	}
	if diff := cmp.Diff(r.Tasks, e.stored()); diff != "" {
		t.Errorf("stored (-want +got):\n%s", diff)
	}

	// At least one field.
	ve, ok := e.call("task_update", `{"id":"tests"}`).(*tools.ValidationError)
	if !ok || !strings.Contains(ve.Message, "\n- root: Provide at least one field to update.\n") {
		t.Errorf("update without fields: %v", ve)
	}
}

func TestTaskComplete(t *testing.T) {
	e := newTaskEnv(t)
	e.result("task_write", threeTasks)
	r := e.result("task_complete", `{"id":"task_fix_the_bug"}`)
	want := "Tasks updated: [2/3 completed]\nTask IDs:\n- task_read_the_code: Read the code (completed)\n" +
		"- task_fix_the_bug: Fix the bug (completed)\n- tests: Write tests (pending)"
	if r.Content != want || r.IsError {
		t.Errorf("content\n%q\nwant\n%q", r.Content, want)
	}
}

func TestTaskUnknownID(t *testing.T) {
	e := newTaskEnv(t)
	for _, tool := range []string{"task_update", "task_complete"} {
		r := e.result(tool, `{"id":"nope","status":"completed"}`)
		want := builtin.TaskResult{Content: "Task not found: nope\n\nNo tasks are currently tracked.", Tasks: []builtin.Task{}, IsError: true}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("%s on no tasks (-want +got):\n%s", tool, diff)
		}
	}
	e.result("task_write", threeTasks)
	e.ctrl.events = nil
	for _, tool := range []string{"task_update", "task_complete"} {
		r := e.result(tool, `{"id":"nope","status":"completed"}`)
		want := builtin.TaskResult{
			Content: "Task not found: nope\n\nAvailable task IDs:\n- task_read_the_code: Read the code (completed)\n" +
				"- task_fix_the_bug: Fix the bug (in_progress)\n- tests: Write tests (pending)",
			Tasks: threeTasksWritten, IsError: true,
		}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tool, diff)
		}
	}
	if len(e.ctrl.events) > 0 {
		t.Error("a failed update was announced")
	}
}

func TestTaskCheck(t *testing.T) {
	e := newTaskEnv(t)
	r := e.check()
	if r.Content != "No tasks found. Consider using task_write to create a task list for complex work." || r.IsError ||
		r.Summary != (builtin.TaskCheckSummary{}) || r.Tasks == nil || r.IncompleteTasks == nil {
		t.Errorf("empty check: %+v", r)
	}

	e.result("task_write", `{"tasks":[
		{"id":"p1","content":"P1","status":"pending","activeForm":"x"},
		{"id":"c1","content":"C1","status":"completed","activeForm":"x"},
		{"id":"p2","content":"P2","status":"pending","activeForm":"x"},
		{"id":"i1","content":"I1","status":"in_progress","activeForm":"x"}]}`)
	r = e.check()
	wantSummary := builtin.TaskCheckSummary{Total: 4, Completed: 1, InProgress: 1, Pending: 2, Incomplete: 3, HasTasks: true}
	if r.Summary != wantSummary {
		t.Errorf("summary %+v", r.Summary)
	}
	var ids []string
	for _, tk := range r.IncompleteTasks {
		ids = append(ids, tk.ID)
	}
	if diff := cmp.Diff([]string{"i1", "p1", "p2"}, ids); diff != "" {
		t.Errorf("incomplete tasks: in progress first, then pending (-want +got):\n%s", diff)
	}
	want := "Task Status: [1/4 completed]\n- Completed: 1\n- In Progress: 1\n- Pending: 2\n\nAll tasks completed: NO\n\n" +
		"Incomplete tasks:\n\nIn Progress:\n- i1: I1\n\nPending:\n- p1: P1\n- p2: P2\n\nContinue working on these tasks before ending."
	if r.Content != want {
		t.Errorf("content\n%q\nwant\n%q", r.Content, want)
	}

	e.result("task_write", `{"tasks":[{"id":"c1","content":"C1","status":"completed","activeForm":"x"}]}`)
	e.rc.Delete(builtin.TasksRequestContextKey)
	e.ctrl.events = nil
	r = e.check()
	if r.Content != "Task Status: [1/1 completed]\n- Completed: 1\n- In Progress: 0\n- Pending: 0\n\nAll tasks completed: YES" ||
		!r.Summary.AllCompleted || len(r.IncompleteTasks) != 0 {
		t.Errorf("all completed: %+v", r)
	}
	if e.rc.Has(builtin.TasksRequestContextKey) || len(e.ctrl.events) > 0 {
		t.Error("task_check announced something")
	}
}

func TestTaskToolsNeedMemory(t *testing.T) {
	const noMemory = "Task tools require agent memory (a memory-backed thread). No task was recorded. " +
		"Configure the agent with Memory to use the task list."
	for _, c := range []struct {
		name    string
		entries map[string]any
		agent   *tools.AgentInfo
		noStore bool
		want    bool // memory-backed
	}{
		{name: "no context"},
		{name: "thread only", entries: map[string]any{tools.ThreadIDKey: "t"}},
		{name: "resource only", entries: map[string]any{tools.ResourceIDKey: "r"}},
		{name: "empty thread", entries: map[string]any{tools.ThreadIDKey: "", tools.ResourceIDKey: "r"}},
		{name: "not strings", entries: map[string]any{tools.ThreadIDKey: 1, tools.ResourceIDKey: 2}},
		{name: "no store", entries: map[string]any{tools.ThreadIDKey: "t", tools.ResourceIDKey: "r"}, noStore: true},
		{name: "request context", entries: map[string]any{tools.ThreadIDKey: "t", tools.ResourceIDKey: "r"}, want: true},
		{name: "agent info", agent: &tools.AgentInfo{ThreadID: "t", ResourceID: "r"}, want: true},
		{name: "mixed", entries: map[string]any{tools.ThreadIDKey: "t"}, agent: &tools.AgentInfo{ResourceID: "r"}, want: true},
	} {
		store := newMemStore()
		set := builtin.TaskTools(store)
		if c.noStore {
			set = builtin.TaskTools(nil)
		}
		for _, call := range [][2]string{
			{"task_write", `{"tasks":[{"content":"A","status":"pending","activeForm":"a"}]}`},
			{"task_update", `{"id":"task_a","status":"completed"}`},
			{"task_complete", `{"id":"task_a"}`},
			{"task_check", `{}`},
		} {
			rc := tools.NewRequestContext(c.entries)
			res, err := set[call[0]].Execute(context.Background(), json.RawMessage(call[1]), &tools.Invocation{RequestContext: rc, Agent: c.agent})
			if err != nil {
				t.Fatal(err)
			}
			var content string
			var isError bool
			switch o := res.Output.(type) {
			case builtin.TaskResult:
				content, isError = o.Content, o.IsError
				if !c.want && (o.Tasks == nil || len(o.Tasks) != 0) {
					t.Errorf("%s %s: tasks %v", c.name, call[0], o.Tasks)
				}
			case builtin.TaskCheckResult:
				content, isError = o.Content, o.IsError
				if !c.want && (o.Summary != builtin.TaskCheckSummary{} || o.IncompleteTasks == nil) {
					t.Errorf("%s: check %+v", c.name, o)
				}
			default:
				t.Fatalf("%s %s: output %T", c.name, call[0], res.Output)
			}
			if got := content == noMemory && isError; got == c.want {
				t.Errorf("%s %s: %q (isError %v)", c.name, call[0], content, isError)
			}
			if !c.want && rc.Has(builtin.TasksRequestContextKey) {
				t.Errorf("%s %s: recorded without memory", c.name, call[0])
			}
		}
		if !c.want && store.sets > 0 {
			t.Errorf("%s: wrote to the store", c.name)
		}
	}
}

func TestTaskToolsStoreFailures(t *testing.T) {
	boom := errors.New("disk on fire")
	for _, c := range []struct {
		tool, args, want string
		failGet          bool
	}{
		{"task_write", `{"tasks":[]}`, "Failed to update tasks: disk on fire", true},
		{"task_update", `{"id":"a","status":"completed"}`, "Failed to update task: disk on fire", true},
		{"task_complete", `{"id":"a"}`, "Failed to complete task: disk on fire", true},
		{"task_check", `{}`, "Failed to check tasks: disk on fire", true},
		{"task_write", `{"tasks":[]}`, "Failed to update tasks: disk on fire", false},
		{"task_update", `{"id":"a","status":"completed"}`, "Failed to update task: disk on fire", false},
		{"task_complete", `{"id":"a"}`, "Failed to complete task: disk on fire", false},
	} {
		e := newTaskEnv(t)
		e.store.set("thread-1", builtin.TaskStateType, []builtin.Task{task("a", "A", builtin.TaskPending, "x")})
		if c.failGet {
			e.store.failGet = boom
		} else {
			e.store.failSet = boom
		}
		e.ctrl.events = nil
		var content string
		var isError bool
		var tasks []builtin.Task
		switch o := e.call(c.tool, c.args).(type) {
		case builtin.TaskResult:
			content, isError, tasks = o.Content, o.IsError, o.Tasks
		case builtin.TaskCheckResult:
			content, isError, tasks = o.Content, o.IsError, o.Tasks
			if o.Summary != (builtin.TaskCheckSummary{}) {
				t.Errorf("%s: summary %+v", c.tool, o.Summary)
			}
		}
		if content != c.want || !isError || tasks == nil || len(tasks) != 0 {
			t.Errorf("%s (get fails %v): %q %v %v", c.tool, c.failGet, content, isError, tasks)
		}
		if e.rc.Has(builtin.TasksRequestContextKey) || len(e.ctrl.events) > 0 {
			t.Errorf("%s: a failed change was announced", c.tool)
		}
	}
}

func TestTaskStoredValues(t *testing.T) {
	// A stored value that is not an array reads as an empty list, as in
	// Mastra; an array that is not a task list is a failure.
	e := newTaskEnv(t)
	e.store.set("thread-1", builtin.TaskStateType, map[string]any{"not": "a list"})
	if r := e.check(); r.Content != "No tasks found. Consider using task_write to create a task list for complex work." {
		t.Errorf("object: %q", r.Content)
	}
	e.store.set("thread-1", builtin.TaskStateType, []any{1, 2})
	if r := e.result("task_complete", `{"id":"a"}`); !r.IsError || !strings.HasPrefix(r.Content, "Failed to complete task: stored task list: ") {
		t.Errorf("bad array: %+v", r)
	}
}
