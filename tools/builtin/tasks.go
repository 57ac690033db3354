package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

// Keys and types shared by the task tools and the task state processor.
const (
	// TaskStateType is the storage.ThreadState type the task list is kept
	// under: the JSON array of the thread's tasks.
	TaskStateType = "task"
	// TasksRequestContextKey is the request-context key each successful
	// task mutation sets to the new list ([]Task), so the processor sees
	// it in the same step.
	TasksRequestContextKey = "mastra:tasks"
	// ControllerRequestContextKey is the request-context key of an optional
	// display bridge: a value with an EmitEvent(map[string]any) method is
	// told {"type": "task_updated", "tasks": []Task} after each mutation.
	ControllerRequestContextKey = "controller"
)

// TaskStatus is a task's status.
type TaskStatus string

// Task statuses.
const (
	TaskPending    TaskStatus = "pending"
	TaskInProgress TaskStatus = "in_progress"
	TaskCompleted  TaskStatus = "completed"
)

// Task is one tracked task.
type Task struct {
	// ID is stable across updates.
	ID string `json:"id"`
	// Content says what to do, in the imperative ("Fix the bug").
	Content string     `json:"content"`
	Status  TaskStatus `json:"status"`
	// ActiveForm says it in the present continuous ("Fixing the bug").
	ActiveForm string `json:"activeForm"`
}

// TaskInput is a task as task_write takes it: the ID may be left out.
type TaskInput struct {
	ID         string     `json:"id,omitempty"`
	Content    string     `json:"content"`
	Status     TaskStatus `json:"status"`
	ActiveForm string     `json:"activeForm"`
}

// TaskWriteInput is task_write's input: the complete new list.
type TaskWriteInput struct {
	Tasks []TaskInput `json:"tasks"`
}

// TaskUpdateInput is task_update's input: the task's ID and the fields to
// change (at least one).
type TaskUpdateInput struct {
	ID         string      `json:"id"`
	Content    *string     `json:"content,omitempty"`
	Status     *TaskStatus `json:"status,omitempty"`
	ActiveForm *string     `json:"activeForm,omitempty"`
}

// TaskIDInput is task_complete's input.
type TaskIDInput struct {
	ID string `json:"id"`
}

// TaskResult is what task_write, task_update and task_complete return: a
// text for the model, the task list (after the change, or the unchanged
// list with an error) and whether the call failed.
type TaskResult struct {
	Content string `json:"content"`
	Tasks   []Task `json:"tasks"`
	IsError bool   `json:"isError"`
}

// TaskCheckSummary counts a task list. AllCompleted needs at least one
// task.
type TaskCheckSummary struct {
	Total        int  `json:"total"`
	Completed    int  `json:"completed"`
	InProgress   int  `json:"inProgress"`
	Pending      int  `json:"pending"`
	Incomplete   int  `json:"incomplete"`
	HasTasks     bool `json:"hasTasks"`
	AllCompleted bool `json:"allCompleted"`
}

// TaskCheckResult is what task_check returns. IncompleteTasks lists the
// in-progress tasks first, then the pending ones.
type TaskCheckResult struct {
	Content         string           `json:"content"`
	Tasks           []Task           `json:"tasks"`
	IsError         bool             `json:"isError"`
	Summary         TaskCheckSummary `json:"summary"`
	IncompleteTasks []Task           `json:"incompleteTasks"`
}

const noMemoryMessage = "Task tools require agent memory (a memory-backed thread). No task was recorded. " +
	"Configure the agent with Memory to use the task list."

// Task tool descriptions (Mastra's).
const (
	taskWriteDescription = `Create and manage a structured task list for your current coding session. This helps you track progress, organize complex tasks, and demonstrate thoroughness to the user.

Usage:
- Use this to create the initial task list or replace the whole list after replanning
- Pass the FULL task list each time this tool is called (replaces the previous list)
- Each task has: id (stable identifier), content (imperative), status (pending, in_progress, or completed), activeForm (present continuous)
- IDs must be unique. If duplicate explicit IDs are provided, the duplicate task is returned with a generated fallback ID
- Keep task IDs stable across updates. If omitted, IDs are generated and returned in the tool result
- When an ID is omitted while rewriting an existing list, one unambiguous matching task may reuse an existing ID
- Prefer single-task update tools when they are available
- Mark tasks in_progress BEFORE starting work (only ONE at a time)
- Mark tasks completed IMMEDIATELY after finishing
- Use this for multi-step tasks requiring 3+ distinct actions

States:
- pending: Not yet started
- in_progress: Currently working on (limit to ONE)
- completed: Finished successfully`

	taskUpdateDescription = `Update one task in the current task list by stable ID. Use this for targeted changes to one existing task.

Usage:
- Provide the task ID returned by the task-list tools
- Include only the fields that changed
- Use status to move a task between pending, in_progress, and completed
- Use task_complete when only marking a task completed
- If the ID is unknown, the tool returns an error with available task IDs`

	taskCompleteDescription = `Mark one task completed by stable ID. Use this when one tracked task is finished.

Usage:
- Provide the task ID returned by the task-list tools
- If the ID is unknown, the tool returns an error with available task IDs`

	taskCheckDescription = `Check the completion status of your current task list. Use this before finishing tracked work to ensure all tasks are completed.

Returns:
- Human-readable content summary with task counts and incomplete task IDs
- Structured task list snapshot with stable IDs
- summary object with total, completed, inProgress, pending, incomplete, hasTasks, and allCompleted
- incompleteTasks array for tasks that still need work

summary.allCompleted is true only when at least one tracked task exists and every tracked task is completed. If no tasks exist, summary.hasTasks is false and summary.allCompleted is false.`
)

// Compiled once; shared by every task tool built.
var (
	taskWriteInSchema    = mustSchema(taskWriteInputJSON)
	taskUpdateInSchema   = atLeastOneField{base: mustSchema(taskUpdateInputJSON), fields: []string{"content", "status", "activeForm"}}
	taskCompleteInSchema = mustSchema(taskCompleteInputJSON)
	taskCheckInSchema    = mustSchema(taskCheckInputJSON)
	taskResultSchema     = mustSchema(taskResultJSON)
	taskCheckOutSchema   = mustSchema(taskCheckResultJSON)
)

// TaskTools returns the four task tools, keyed by the names Mastra's
// TaskSignalProvider gives them: task_write, task_update, task_complete and
// task_check. All keep the list in store.
//
// The tools need a memory-backed run: the thread and resource ids come
// from the request context (tools.ThreadIDKey and tools.ResourceIDKey, which
// agent.WithMemory sets), or else from the calling agent's AgentInfo.
// Without both, or with a nil store, they record nothing and tell the model
// that task tools require agent memory.
//
// Each successful change is written to store (type [TaskStateType], the
// whole list as JSON) before the result is returned, then set on the
// request context under [TasksRequestContextKey] and reported to a display
// bridge under [ControllerRequestContextKey], if any. A storage failure is
// reported to the model as "Failed to update tasks: <error>" (and the like)
// with isError true; it is not a Go error.
func TaskTools(store storage.ThreadState) tools.Set {
	return tools.Set{
		"task_write":    TaskWriteTool(store),
		"task_update":   TaskUpdateTool(store),
		"task_complete": TaskCompleteTool(store),
		"task_check":    TaskCheckTool(store),
	}
}

// TaskWriteTool returns task_write: replace the whole task list. IDs the
// model gives are kept (a repeated one gets a generated fallback); a task
// without an ID reuses the ID of the one previous task with exactly its
// content (unless that ID is claimed explicitly or the content repeats),
// else gets one derived from its content (see [AssignTaskIDs]). A list
// with more than one task in progress is refused ("Only one task can be
// in_progress at a time.", the previous list returned, nothing saved).
// See [TaskTools] for storage and memory.
func TaskWriteTool(store storage.ThreadState) *tools.Tool {
	return tools.New(tools.Config[TaskWriteInput, TaskResult]{
		ID: "task_write", Description: taskWriteDescription,
		InputSchema: taskWriteInSchema, OutputSchema: taskResultSchema,
		Execute: func(ctx tools.Context, in TaskWriteInput) (TaskResult, error) {
			return mutateTasks(ctx, store, "Failed to update tasks: ", func(current []Task) TaskResult {
				next := AssignTaskIDs(in.Tasks, current)
				if countStatus(next, TaskInProgress) > 1 {
					return TaskResult{Content: "Only one task can be in_progress at a time.", Tasks: current, IsError: true}
				}
				return TaskResult{Content: formatTaskList(next), Tasks: next}
			}), nil
		},
	})
}

// TaskUpdateTool returns task_update: change one task's content, status
// or activeForm by ID. When the change puts a task in progress, every other
// task in progress goes back to pending. An unknown ID is an error result
// listing the known IDs. See [TaskTools] for storage and memory.
func TaskUpdateTool(store storage.ThreadState) *tools.Tool {
	return tools.New(tools.Config[TaskUpdateInput, TaskResult]{
		ID: "task_update", Description: taskUpdateDescription,
		InputSchema: taskUpdateInSchema, OutputSchema: taskResultSchema,
		Execute: func(ctx tools.Context, in TaskUpdateInput) (TaskResult, error) {
			return mutateTask(ctx, store, "Failed to update task: ", in.ID, func(next []Task, i int) {
				if in.Content != nil {
					next[i].Content = *in.Content
				}
				if in.Status != nil {
					next[i].Status = *in.Status
				}
				if in.ActiveForm != nil {
					next[i].ActiveForm = *in.ActiveForm
				}
				demoteExtraInProgress(next, i)
			}), nil
		},
	})
}

// TaskCompleteTool returns task_complete: mark one task completed by ID. An
// unknown ID is an error result listing the known IDs. See [TaskTools] for
// storage and memory.
func TaskCompleteTool(store storage.ThreadState) *tools.Tool {
	return tools.New(tools.Config[TaskIDInput, TaskResult]{
		ID: "task_complete", Description: taskCompleteDescription,
		InputSchema: taskCompleteInSchema, OutputSchema: taskResultSchema,
		Execute: func(ctx tools.Context, in TaskIDInput) (TaskResult, error) {
			return mutateTask(ctx, store, "Failed to complete task: ", in.ID, func(next []Task, i int) {
				next[i].Status = TaskCompleted
			}), nil
		},
	})
}

// TaskCheckTool returns task_check: a read-only summary of the task list
// (counts, the incomplete tasks, in progress first). See [TaskTools] for
// storage and memory.
func TaskCheckTool(store storage.ThreadState) *tools.Tool {
	return tools.New(tools.Config[struct{}, TaskCheckResult]{
		ID: "task_check", Description: taskCheckDescription,
		InputSchema: taskCheckInSchema, OutputSchema: taskCheckOutSchema,
		Execute: func(ctx tools.Context, _ struct{}) (TaskCheckResult, error) {
			threadID, ok := memoryThread(ctx)
			if !ok || store == nil {
				return checkResult(noMemoryMessage, []Task{}, true), nil
			}
			current, err := readTasks(ctx, store, threadID)
			if err != nil {
				return checkResult("Failed to check tasks: "+err.Error(), []Task{}, true), nil
			}
			return checkResult("", current, false), nil
		},
	})
}

// memoryThread returns the run's thread id when the run is memory-backed
// (a thread and a resource).
func memoryThread(ctx tools.Context) (string, bool) {
	rc := ctx.RequestContext()
	thread, _ := stringValue(rc, tools.ThreadIDKey)
	resource, _ := stringValue(rc, tools.ResourceIDKey)
	if a := ctx.Agent(); a != nil {
		if thread == "" {
			thread = a.ThreadID
		}
		if resource == "" {
			resource = a.ResourceID
		}
	}
	return thread, thread != "" && resource != ""
}

func stringValue(rc *tools.RequestContext, key string) (string, bool) {
	v, ok := rc.Get(key)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

// mutateTasks reads the list, applies mutation and, when it succeeded,
// saves the new list and announces it.
func mutateTasks(ctx tools.Context, store storage.ThreadState, failure string, mutation func([]Task) TaskResult) TaskResult {
	threadID, ok := memoryThread(ctx)
	if !ok || store == nil {
		return TaskResult{Content: noMemoryMessage, Tasks: []Task{}, IsError: true}
	}
	current, err := readTasks(ctx, store, threadID)
	if err != nil {
		return TaskResult{Content: failure + err.Error(), Tasks: []Task{}, IsError: true}
	}
	res := mutation(current)
	if res.IsError {
		return res
	}
	raw, err := json.Marshal(res.Tasks)
	if err == nil {
		err = store.SetThreadState(ctx, threadID, TaskStateType, raw)
	}
	if err != nil {
		return TaskResult{Content: failure + err.Error(), Tasks: []Task{}, IsError: true}
	}
	rc := ctx.RequestContext()
	_ = rc.Set(TasksRequestContextKey, slices.Clone(res.Tasks))
	if v, ok := rc.Get(ControllerRequestContextKey); ok {
		if c, ok := v.(interface{ EmitEvent(map[string]any) }); ok {
			c.EmitEvent(map[string]any{"type": "task_updated", "tasks": slices.Clone(res.Tasks)})
		}
	}
	return res
}

// mutateTask is mutateTasks for a change to the one task with id: change
// edits a copy of the list, in which i is that task. An unknown id is an
// error result listing the known IDs ("Task not found: <id>"), with the
// list unchanged and nothing saved.
func mutateTask(ctx tools.Context, store storage.ThreadState, failure, id string, change func(next []Task, i int)) TaskResult {
	return mutateTasks(ctx, store, failure, func(current []Task) TaskResult {
		i := slices.IndexFunc(current, func(t Task) bool { return t.ID == id })
		if i < 0 {
			return taskNotFound(id, current)
		}
		next := slices.Clone(current)
		change(next, i)
		return TaskResult{Content: formatTaskList(next), Tasks: next}
	})
}

// readTasks returns the thread's stored list (empty when none is stored
// or the stored value is not an array, as Mastra reads it).
func readTasks(ctx context.Context, store storage.ThreadState, threadID string) ([]Task, error) {
	raw, ok, err := store.GetThreadState(ctx, threadID, TaskStateType)
	if err != nil {
		return nil, err
	}
	tasks, err := decodeTaskList(raw, ok)
	if err != nil {
		return nil, fmt.Errorf("stored task list: %w", err)
	}
	return tasks, nil
}

// decodeTaskList decodes a stored list; a missing value or one that is not
// a JSON array is the empty list.
func decodeTaskList(raw json.RawMessage, ok bool) ([]Task, error) {
	raw = bytes.TrimSpace(raw)
	if !ok || len(raw) == 0 || raw[0] != '[' {
		return []Task{}, nil
	}
	tasks := []Task{}
	if err := json.Unmarshal(raw, &tasks); err != nil {
		return nil, err
	}
	return tasks, nil
}

func taskNotFound(id string, tasks []Task) TaskResult {
	return TaskResult{Content: "Task not found: " + id + "\n\n" + formatAvailableTaskIDs(tasks), Tasks: tasks, IsError: true}
}

func formatAvailableTaskIDs(tasks []Task) string {
	if len(tasks) == 0 {
		return "No tasks are currently tracked."
	}
	var b strings.Builder
	b.WriteString("Available task IDs:")
	writeTaskLines(&b, tasks)
	return b.String()
}

// writeTaskLines writes "\n- <id>: <content> (<status>)" per task.
func writeTaskLines(b *strings.Builder, tasks []Task) {
	for _, t := range tasks {
		fmt.Fprintf(b, "\n- %s: %s (%s)", t.ID, t.Content, t.Status)
	}
}

// formatTaskList is the content of a successful mutation.
func formatTaskList(tasks []Task) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tasks updated: [%d/%d completed]", countStatus(tasks, TaskCompleted), len(tasks))
	if i := slices.IndexFunc(tasks, func(t Task) bool { return t.Status == TaskInProgress }); i >= 0 {
		fmt.Fprintf(&b, "\nCurrently: %s (%s)", tasks[i].ActiveForm, tasks[i].ID)
	}
	if len(tasks) > 0 {
		b.WriteString("\nTask IDs:")
		writeTaskLines(&b, tasks)
	}
	return b.String()
}

func countStatus(tasks []Task, s TaskStatus) int {
	n := 0
	for _, t := range tasks {
		if t.Status == s {
			n++
		}
	}
	return n
}

// checkResult builds task_check's result; an empty content is replaced by
// the status report.
func checkResult(content string, tasks []Task, isError bool) TaskCheckResult {
	var inProgress, pending []Task
	completed := 0
	for _, t := range tasks {
		switch t.Status {
		case TaskInProgress:
			inProgress = append(inProgress, t)
		case TaskPending:
			pending = append(pending, t)
		case TaskCompleted:
			completed++
		}
	}
	incomplete := append(append([]Task{}, inProgress...), pending...)
	s := TaskCheckSummary{
		Total: len(tasks), Completed: completed, InProgress: len(inProgress), Pending: len(pending),
		Incomplete: len(incomplete), HasTasks: len(tasks) > 0, AllCompleted: len(tasks) > 0 && len(incomplete) == 0,
	}
	if content == "" {
		content = formatTaskCheck(s, inProgress, pending)
	}
	return TaskCheckResult{Content: content, Tasks: tasks, IsError: isError, Summary: s, IncompleteTasks: incomplete}
}

func formatTaskCheck(s TaskCheckSummary, inProgress, pending []Task) string {
	if !s.HasTasks {
		return "No tasks found. Consider using task_write to create a task list for complex work."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Task Status: [%d/%d completed]\n", s.Completed, s.Total)
	fmt.Fprintf(&b, "- Completed: %d\n- In Progress: %d\n- Pending: %d\n", s.Completed, s.InProgress, s.Pending)
	if s.AllCompleted {
		b.WriteString("\nAll tasks completed: YES")
		return b.String()
	}
	b.WriteString("\nAll tasks completed: NO\n\nIncomplete tasks:")
	for _, group := range []struct {
		title string
		tasks []Task
	}{{"In Progress", inProgress}, {"Pending", pending}} {
		if len(group.tasks) == 0 {
			continue
		}
		b.WriteString("\n\n" + group.title + ":")
		for _, t := range group.tasks {
			fmt.Fprintf(&b, "\n- %s: %s", t.ID, t.Content)
		}
	}
	b.WriteString("\n\nContinue working on these tasks before ending.")
	return b.String()
}

// demoteExtraInProgress keeps one task in progress, the one at preferred
// if it is in progress, else the last one, and sets the others to pending,
// in place.
func demoteExtraInProgress(tasks []Task, preferred int) {
	var idx []int
	for i, t := range tasks {
		if t.Status == TaskInProgress {
			idx = append(idx, i)
		}
	}
	if len(idx) <= 1 {
		return
	}
	keep := idx[len(idx)-1]
	if slices.Contains(idx, preferred) {
		keep = preferred
	}
	for _, i := range idx {
		if i != keep {
			tasks[i].Status = TaskPending
		}
	}
}

// taskSlugMax bounds the slug part of a generated task ID.
const taskSlugMax = 48

// AssignTaskIDs gives every task of a task_write an ID, as Mastra's
// assignTaskIds does. previous is the list being replaced.
//
//   - An explicit ID is kept unless an earlier task of the same write took
//     it; that task then gets a generated ID.
//   - A task without an ID whose content no other ID-less task of the write
//     repeats, and which matches the content of exactly one previous task
//     whose ID is not claimed explicitly, reuses that task's ID.
//   - Otherwise the ID is "task_" + a slug of the content: lowercase ASCII
//     letters and digits, every run of other characters one "_", at most
//     48 characters, "item" when nothing is left; the n-th task with the
//     same content adds "_n" (n ≥ 2); an ID already taken, claimed
//     explicitly or reused gets "_2", "_3", … appended.
func AssignTaskIDs(tasks []TaskInput, previous []Task) []Task {
	used := map[string]bool{}
	explicit := map[string]bool{}
	omitted := map[string]int{}
	for _, t := range tasks {
		if t.ID != "" {
			explicit[t.ID] = true
		} else {
			omitted[t.Content]++
		}
	}
	reusable := map[int]string{}
	for i, t := range tasks {
		if t.ID != "" || omitted[t.Content] != 1 {
			continue
		}
		match, n := "", 0
		for _, p := range previous {
			if p.Content == t.Content && !explicit[p.ID] {
				match, n = p.ID, n+1
			}
		}
		if n == 1 {
			reusable[i] = match
		}
	}
	reserved := map[string]bool{}
	for id := range explicit {
		reserved[id] = true
	}
	for _, id := range reusable {
		reserved[id] = true
	}
	occurrences := map[string]int{}
	out := make([]Task, len(tasks))
	for i, t := range tasks {
		occurrences[t.Content]++
		var id string
		switch reuse := reusable[i]; {
		case t.ID != "" && !used[t.ID]:
			id = t.ID
		case reuse != "" && !used[reuse]:
			id = reuse
		default:
			id = uniqueTaskID(fallbackTaskID(t.Content, occurrences[t.Content]), used, reserved)
		}
		used[id] = true
		out[i] = Task{ID: id, Content: t.Content, Status: t.Status, ActiveForm: t.ActiveForm}
	}
	return out
}

func fallbackTaskID(content string, occurrence int) string {
	slug := slugifyTaskContent(content)
	if slug == "" {
		slug = "item"
	}
	id := "task_" + slug
	if occurrence > 1 {
		id += "_" + strconv.Itoa(occurrence)
	}
	return id
}

func uniqueTaskID(id string, used, reserved map[string]bool) string {
	if !used[id] && !reserved[id] {
		return id
	}
	for n := 2; ; n++ {
		next := id + "_" + strconv.Itoa(n)
		if !used[next] && !reserved[next] {
			return next
		}
	}
}

// slugifyTaskContent lowercases content as JavaScript's toLowerCase does
// (U+0130 becomes "i" and a combining dot) and keeps ASCII letters and
// digits, joining the runs between them with "_", up to taskSlugMax
// characters.
func slugifyTaskContent(content string) string {
	slug := make([]byte, 0, taskSlugMax)
	pending := false
	// add takes one lowercased character; it reports false once the slug
	// is full.
	add := func(c rune) bool {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if pending && len(slug) > 0 && len(slug) < taskSlugMax {
				slug = append(slug, '_')
			}
			if len(slug) >= taskSlugMax {
				return false
			}
			slug = append(slug, byte(c))
			pending = false
			return true
		}
		pending = len(slug) > 0
		return true
	}
	for _, r := range content {
		var ok bool
		if r == '\u0130' { // İ
			ok = add('i') && add('\u0307')
		} else {
			ok = add(unicode.ToLower(r))
		}
		if !ok {
			break
		}
	}
	return string(slug)
}
