package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"weak"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/tools"
)

const (
	// TaskStateProcessorID is the processor's id (Mastra's "task-state").
	TaskStateProcessorID = "task-state"
	// TaskSignalStateType is the storage.ThreadState type under which the
	// processor remembers, per thread, the task-list signals it has shown
	// since (and including) the last snapshot.
	TaskSignalStateType = "task-signal"
	// taskDeltaSnapshotCap: after this many deltas since the last snapshot
	// the next change is sent as a snapshot again.
	taskDeltaSnapshotCap = 10
)

// taskListSystemMessage is the system message the processor adds.
const taskListSystemMessage = "Task list state may appear in the conversation as <current-task-list ...>...</current-task-list> " +
	"snapshots and <task-list-update ...>...</task-list-update> deltas. These are automatic observations of your task list, " +
	"not user instructions. Use them as the latest task state, continue following the actual user request, and do not treat " +
	"task-list updates as the user asking you to repeat, summarize, or change tasks unless an actual user message asks for that."

// TaskStateProcessor keeps the model informed about the task list, as
// Mastra's TaskStateProcessor does. Before every model call it
//
//  1. adds a system message (after the leading system messages) saying
//     that <current-task-list> snapshots and <task-list-update> deltas are
//     automatic observations, not user instructions;
//  2. on a memory-backed run (StepInput.ThreadID and ResourceID set), takes
//     the current list — the one a task tool set on the request context
//     this run ([TasksRequestContextKey]), else the stored one, else the one
//     the model last saw — and compares it with what the model has seen: the
//     last snapshot plus the deltas after it. Nothing changed and the
//     snapshot still in view: nothing is added. Otherwise a user message is
//     appended: a snapshot when the model has no snapshot in view (the
//     first time, or the messages that held it are gone) or after 10
//     deltas, else a delta with this step's changes.
//
// Snapshot:
//
//	<current-task-list count="3">
//	  ✓ [completed] {id: task_read_the_code} Read the code
//	  ▸ [in_progress] {id: task_fix_the_bug} Fix the bug
//	  ○ [pending] {id: task_write_tests} Write tests
//	</current-task-list>
//
// Delta (adds, updates, then removals):
//
//	<task-list-update changes="2">
//	  + {id: task_add_docs} [pending] Add docs
//	  ✓ {id: task_fix_the_bug} [completed] Fix the bug
//	</task-list-update>
//
// with "  − removed {id: <id>}" lines for removed tasks; the contents are
// XML-escaped (&, <, >) and an empty list is <current-task-list count="0" />.
//
// What the model has seen is decided from the messages it is given, as
// Mastra decides it from its context window: a signal counts only when a
// user message with exactly its text is among StepInput.Messages. Since
// the agent rebuilds the messages for each step from the run's history,
// the processor puts the signals it added earlier in the same run back
// where they were (after the messages that preceded them), every step. It
// tells runs apart by their RequestContext (step 0, or another thread,
// starts afresh) and forgets a run once its request context is garbage.
// Across runs it keeps, per thread in the ThreadState store (type
// [TaskSignalStateType]), the signals shown since the last snapshot with
// their task lists and changes, because the text alone does not carry
// everything (activeForm): a later run whose messages still hold those
// signals (a memory that kept them) gets deltas; one whose messages do not
// gets a fresh snapshot.
//
// Store failures fail the step (the agent reports the processor's error).
// A TaskStateProcessor is safe for concurrent use by many runs.
type TaskStateProcessor struct {
	store storage.ThreadState

	mu   sync.Mutex
	runs map[weak.Pointer[tools.RequestContext]]*taskRun
}

// taskRun is what the processor keeps about one run: the signals it added
// (re-added at every step) and, without a store, the signal chain.
type taskRun struct {
	mu       sync.Mutex
	threadID string
	placed   []placedSignal
	chain    *signalChain
}

// placedSignal is a signal message and where it goes: after the first at
// messages the processor was given.
type placedSignal struct {
	at   int
	text string
}

// signalChain is what the model was shown since the last snapshot: the
// snapshot, then the deltas, in order. It is stored as JSON under
// TaskSignalStateType.
type signalChain struct {
	Signals []shownSignal `json:"signals"`
}

// shownSignal is one signal: its mode ("snapshot" or "delta"), Mastra's
// cache key of the list it describes, the exact text the model got, and
// the list (snapshots) or the changes (deltas).
type shownSignal struct {
	Mode     string   `json:"mode"`
	CacheKey string   `json:"cacheKey"`
	Text     string   `json:"text"`
	Tasks    []Task   `json:"tasks,omitempty"`
	Ops      []taskOp `json:"ops,omitempty"`
}

// taskOp is one change of a delta: op "add" or "update" with the task, or
// "remove" with the id.
type taskOp struct {
	Op   string `json:"op"`
	Task *Task  `json:"task,omitempty"`
	ID   string `json:"id,omitempty"`
}

const (
	modeSnapshot = "snapshot"
	modeDelta    = "delta"
)

// NewTaskStateProcessor returns the processor, reading the task list from
// store and remembering its signals there. A nil store is allowed: the
// processor then sees only lists the task tools put on the request context
// and remembers its signals for the run only.
func NewTaskStateProcessor(store storage.ThreadState) *TaskStateProcessor {
	return &TaskStateProcessor{store: store, runs: map[weak.Pointer[tools.RequestContext]]*taskRun{}}
}

// ID returns "task-state".
func (p *TaskStateProcessor) ID() string { return TaskStateProcessorID }

// ProcessStep implements agent.StepProcessor.
func (p *TaskStateProcessor) ProcessStep(ctx context.Context, s *agent.StepInput) error {
	run := p.run(s)
	run.mu.Lock()
	defer run.mu.Unlock()

	given := s.Messages
	out := make([]model.Message, 0, len(given)+len(run.placed)+2)
	n := 0
	for n < len(given) && given[n].Role == model.RoleSystem {
		n++
	}
	out = append(out, given[:n]...)
	out = append(out, model.System(taskListSystemMessage))
	k := 0
	for i := n; i < len(given); i++ {
		for ; k < len(run.placed) && run.placed[k].at <= i; k++ {
			out = append(out, signalMessage(run.placed[k].text))
		}
		out = append(out, given[i])
	}
	for ; k < len(run.placed); k++ {
		out = append(out, signalMessage(run.placed[k].text))
	}
	s.Messages = out
	if s.ThreadID == "" || s.ResourceID == "" {
		return nil
	}
	sig, err := p.compute(ctx, s, run)
	if err != nil || sig == nil {
		return err
	}
	s.Messages = append(s.Messages, signalMessage(sig.Text))
	run.placed = append(run.placed, placedSignal{at: len(given), text: sig.Text})
	return nil
}

// run returns the state of the run s belongs to, identified by its request
// context; a step 0 or another thread starts afresh.
func (p *TaskStateProcessor) run(s *agent.StepInput) *taskRun {
	rc := s.RequestContext
	if rc == nil {
		return &taskRun{threadID: s.ThreadID}
	}
	key := weak.Make(rc)
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.runs[key]
	if ok && s.StepNumber > 0 && r.threadID == s.ThreadID {
		return r
	}
	if !ok {
		runtime.AddCleanup(rc, p.forget, key)
	}
	r = &taskRun{threadID: s.ThreadID}
	p.runs[key] = r
	return r
}

func (p *TaskStateProcessor) forget(key weak.Pointer[tools.RequestContext]) {
	p.mu.Lock()
	delete(p.runs, key)
	p.mu.Unlock()
}

// compute decides this step's signal, if any, and records it.
func (p *TaskStateProcessor) compute(ctx context.Context, s *agent.StepInput, run *taskRun) (*shownSignal, error) {
	chain, err := p.loadChain(ctx, s.ThreadID, run)
	if err != nil {
		return nil, err
	}
	prior, hasBase, deltas := chain.seen(s.Messages)

	current, ok := carriedTasks(s.RequestContext)
	if !ok && p.store != nil {
		raw, found, err := p.store.GetThreadState(ctx, s.ThreadID, TaskStateType)
		if err != nil {
			return nil, fmt.Errorf("reading the task list: %w", err)
		}
		current, ok = storedTaskArray(raw, found)
	}
	if !ok {
		current = prior
	}
	if len(current) == 0 && len(prior) == 0 {
		return nil, nil
	}
	ops := diffTasks(prior, current)
	if len(ops) == 0 && hasBase {
		return nil, nil
	}
	var sig shownSignal
	if !hasBase || deltas >= taskDeltaSnapshotCap {
		sig = shownSignal{Mode: modeSnapshot, CacheKey: tasksCacheKey(current), Text: renderSnapshot(current), Tasks: slices.Clone(current)}
		chain.Signals = []shownSignal{sig}
	} else {
		sig = shownSignal{Mode: modeDelta, CacheKey: tasksCacheKey(current), Text: renderDelta(ops), Ops: ops}
		chain.Signals = append(chain.Signals, sig)
	}
	if err := p.saveChain(ctx, s.ThreadID, run, chain); err != nil {
		return nil, err
	}
	return &sig, nil
}

func (p *TaskStateProcessor) loadChain(ctx context.Context, threadID string, run *taskRun) (*signalChain, error) {
	if p.store == nil {
		if run.chain == nil {
			run.chain = &signalChain{}
		}
		return run.chain, nil
	}
	raw, ok, err := p.store.GetThreadState(ctx, threadID, TaskSignalStateType)
	if err != nil {
		return nil, fmt.Errorf("reading the task signal state: %w", err)
	}
	chain := &signalChain{}
	if ok && len(raw) > 0 {
		// An unreadable record only means no snapshot is known: the next
		// signal is a snapshot that replaces it.
		if json.Unmarshal(raw, chain) != nil {
			chain = &signalChain{}
		}
	}
	return chain, nil
}

func (p *TaskStateProcessor) saveChain(ctx context.Context, threadID string, run *taskRun, chain *signalChain) error {
	if p.store == nil {
		run.chain = chain
		return nil
	}
	raw, err := json.Marshal(chain)
	if err == nil {
		err = p.store.SetThreadState(ctx, threadID, TaskSignalStateType, raw)
	}
	if err != nil {
		return fmt.Errorf("saving the task signal state: %w", err)
	}
	return nil
}

// seen returns the task list the model believes in given these messages,
// whether the last snapshot is among them, and how many deltas after it
// are. When the snapshot is not in view the list is the one the chain
// ends with (only its emptiness matters then, as in Mastra).
func (c *signalChain) seen(window []model.Message) (prior []Task, hasBase bool, deltas int) {
	base := -1
	for i, sig := range c.Signals {
		if sig.Mode == modeSnapshot {
			base = i
		}
	}
	if base < 0 {
		return []Task{}, false, 0
	}
	prior = slices.Clone(c.Signals[base].Tasks)
	pos := lastSignalIndex(window, c.Signals[base].Text)
	hasBase = pos >= 0
	for _, d := range c.Signals[base+1:] {
		if d.Mode != modeDelta {
			continue
		}
		if hasBase {
			q := signalIndexAfter(window, d.Text, pos)
			if q < 0 {
				continue
			}
			pos = q
			deltas++
		}
		prior = applyOps(prior, d.Ops)
	}
	return prior, hasBase, deltas
}

// signalMessage is a signal as the model gets it: a user message.
func signalMessage(text string) model.Message { return model.UserText(text) }

// isSignal reports whether m is a user message whose text is text.
func isSignal(m model.Message, text string) bool {
	if m.Role != model.RoleUser || len(m.Content) == 0 {
		return false
	}
	var b strings.Builder
	for _, part := range m.Content {
		if part.Type != model.MessageText {
			return false
		}
		b.WriteString(part.Text)
	}
	return b.String() == text
}

func lastSignalIndex(window []model.Message, text string) int {
	for i := len(window) - 1; i >= 0; i-- {
		if isSignal(window[i], text) {
			return i
		}
	}
	return -1
}

func signalIndexAfter(window []model.Message, text string, after int) int {
	for i := after + 1; i < len(window); i++ {
		if isSignal(window[i], text) {
			return i
		}
	}
	return -1
}

// carriedTasks returns the list a task tool put on the request context:
// a []Task, or the same decoded from JSON (a request context that went
// through JSON holds []any), each task with string fields as Mastra checks.
func carriedTasks(rc *tools.RequestContext) ([]Task, bool) {
	v, ok := rc.Get(TasksRequestContextKey)
	if !ok {
		return nil, false
	}
	if tasks, ok := v.([]Task); ok {
		return slices.Clone(tasks), true
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	tasks := make([]Task, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, false
		}
		var f [4]string
		for i, k := range [4]string{"id", "content", "status", "activeForm"} {
			if f[i], ok = m[k].(string); !ok {
				return nil, false
			}
		}
		tasks = append(tasks, Task{ID: f[0], Content: f[1], Status: TaskStatus(f[2]), ActiveForm: f[3]})
	}
	return tasks, true
}

// storedTaskArray decodes a stored list; ok is false when there is none or
// it is not a readable array.
func storedTaskArray(raw json.RawMessage, found bool) ([]Task, bool) {
	if !found {
		return nil, false
	}
	var tasks []Task
	if json.Unmarshal(raw, &tasks) != nil || tasks == nil {
		return nil, false
	}
	return tasks, true
}

// diffTasks lists the changes from prior to current: adds and updates in
// current's order, then removals in prior's order.
func diffTasks(prior, current []Task) []taskOp {
	var ops []taskOp
	byID := make(map[string]Task, len(prior))
	for _, t := range prior {
		byID[t.ID] = t
	}
	inCurrent := make(map[string]bool, len(current))
	for _, t := range current {
		inCurrent[t.ID] = true
		before, ok := byID[t.ID]
		switch {
		case !ok:
			ops = append(ops, taskOp{Op: "add", Task: &t})
		case before != t:
			ops = append(ops, taskOp{Op: "update", Task: &t})
		}
	}
	for _, t := range prior {
		if !inCurrent[t.ID] {
			ops = append(ops, taskOp{Op: "remove", ID: t.ID})
		}
	}
	return ops
}

// applyOps applies a delta's changes: adds and updates replace the task
// with their id or are appended, removals drop it.
func applyOps(tasks []Task, ops []taskOp) []Task {
	for _, op := range ops {
		if op.Op == "remove" {
			if i := slices.IndexFunc(tasks, func(t Task) bool { return t.ID == op.ID }); i >= 0 {
				tasks = slices.Delete(tasks, i, i+1)
			}
			continue
		}
		if op.Task == nil {
			continue
		}
		if i := slices.IndexFunc(tasks, func(t Task) bool { return t.ID == op.Task.ID }); i >= 0 {
			tasks[i] = *op.Task
		} else {
			tasks = append(tasks, *op.Task)
		}
	}
	return tasks
}

func statusIcon(s TaskStatus) string {
	switch s {
	case TaskCompleted:
		return "✓"
	case TaskInProgress:
		return "▸"
	}
	return "○"
}

func renderSnapshot(tasks []Task) string {
	var b strings.Builder
	if len(tasks) > 0 {
		for _, t := range tasks {
			fmt.Fprintf(&b, "\n  %s [%s] {id: %s} %s", statusIcon(t.Status), t.Status, t.ID, t.Content)
		}
		b.WriteString("\n")
	}
	return signalMarkup("current-task-list", "count", len(tasks), b.String())
}

func renderDelta(ops []taskOp) string {
	var b strings.Builder
	for _, op := range ops {
		if op.Op == "remove" {
			fmt.Fprintf(&b, "\n  − removed {id: %s}", op.ID)
			continue
		}
		verb := "+"
		if op.Op != "add" {
			verb = statusIcon(op.Task.Status)
		}
		fmt.Fprintf(&b, "\n  %s {id: %s} [%s] %s", verb, op.Task.ID, op.Task.Status, op.Task.Content)
	}
	b.WriteString("\n")
	return signalMarkup("task-list-update", "changes", len(ops), b.String())
}

// signalMarkup wraps body as Mastra's state signals are written: an XML
// element with one numeric attribute and the escaped body, or an empty
// element when there is no body.
func signalMarkup(tag, attr string, n int, body string) string {
	open := "<" + tag + " " + attr + `="` + strconv.Itoa(n) + `"`
	if body == "" {
		return open + " />"
	}
	return open + ">" + xmlEscaper.Replace(body) + "</" + tag + ">"
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// tasksCacheKey is Mastra's cache key of a list: "tasks:" and, per task,
// its id, status, content and activeForm each written as
// "<length>:<value>" (length in UTF-16 code units), tasks joined by "|".
func tasksCacheKey(tasks []Task) string {
	var b strings.Builder
	b.WriteString("tasks:")
	for i, t := range tasks {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, f := range [4]string{t.ID, string(t.Status), t.Content, t.ActiveForm} {
			b.WriteString(strconv.Itoa(utf16Len(f)))
			b.WriteByte(':')
			b.WriteString(f)
		}
	}
	return b.String()
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
