package bgtasks

import (
	"context"
	"sync"
	"time"
)

// TaskPayload is the tool call Enqueue makes a task of.
type TaskPayload struct {
	// ID, when set, is the task's id and makes Enqueue idempotent: when
	// a task of that id is already recorded, Enqueue returns its record
	// and enqueues nothing (a caller that may enqueue the same call twice,
	// such as a replayed workflow, derives it from the call). Empty: a new
	// random id.
	ID         string
	RunID      string
	ToolName   string
	ToolCallID string
	// Args are the call's arguments, a JSON object (nil: {}).
	Args       []byte
	AgentID    string
	ThreadID   string
	ResourceID string
	// Timeout overrides Config.DefaultTimeout (0: the default).
	Timeout time.Duration
	// MaxRetries overrides Config.DefaultRetries.MaxRetries when not nil.
	MaxRetries *int
}

// EnqueueResult is Enqueue's answer.
type EnqueueResult struct {
	// Task is the task's record as Enqueue created it (Pending).
	Task Task
	// FallbackToSync is set when the FallbackSync backpressure found no
	// slot: no task was kept; the caller runs the tool itself.
	FallbackToSync bool
}

// TaskList is a page of tasks and how many the filter selects in all;
// its JSON is Mastra's {"tasks": [...], "total": n}.
type TaskList struct {
	Tasks []Task `json:"tasks"`
	Total int    `json:"total"`
}

// StreamFilter selects the tasks whose events Stream yields: those of
// the agent, run, thread and resource set (all when zero); TaskIDs, when
// set, restricts it to these tasks.
type StreamFilter struct {
	AgentID    string
	RunID      string
	ThreadID   string
	ResourceID string
	TaskIDs    []string
}

// Manager runs background tasks: it keeps their records in its Store,
// runs each through its executor in its own goroutine within the
// concurrency limits, applies timeouts, retries, cancellation and
// suspension, and publishes their lifecycle events. Managers in several
// processes may share one database Store: a task runs in one of them at
// a time, and a task a dead process left Running is taken up again
// after its lease lapses (see Start).
//
// A Manager is safe for concurrent use. Tasks run once Start was
// called; Enqueue before it only records them.
type Manager struct {
	cfg   Config
	store Store

	mu        sync.Mutex
	hooks     map[string]*Hooks      // by task id: the hooks Enqueue was given
	active    map[string]*activeTask // by task id: executions in this process
	finishing map[string]bool        // by task id: executions recording their outcome
	// unrecorded are outcomes the store failed to record, by task id:
	// this Manager holds their tasks and writes them at a renewal.
	unrecorded map[string]unrecordedOutcome
	started    bool
	shutting   bool
	// hooksSwept is when the tasks sweepHooks has read finished up to;
	// only the dispatcher uses it.
	hooksSwept time.Time

	wake    chan struct{} // a buffered kick of the dispatcher
	stop    chan struct{} // closed by Shutdown
	loop    sync.WaitGroup
	running sync.WaitGroup // executions
	base    context.Context
	abort   context.CancelCauseFunc // ends every execution's context

	subs subscribers
}

// activeTask is an execution running in this process.
type activeTask struct {
	cancel  context.CancelCauseFunc
	claimed time.Time
}

// New returns a Manager configured by cfg (zero fields take the
// defaults). Call Start to have it run tasks and Shutdown to stop it.
func New(cfg Config) *Manager {
	cfg = cfg.withDefaults()
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	if cfg.Owner == "" {
		cfg.Owner = newID()
	}
	base, abort := context.WithCancelCause(context.Background())
	return &Manager{
		cfg: cfg, store: cfg.Store,
		hooks: map[string]*Hooks{}, active: map[string]*activeTask{}, finishing: map[string]bool{},
		unrecorded: map[string]unrecordedOutcome{}, hooksSwept: time.Now(),
		wake: make(chan struct{}, 1), stop: make(chan struct{}),
		base: base, abort: abort,
	}
}

// Store returns the Manager's store.
func (m *Manager) Store() Store { return m.store }

// Owner returns the name of this Manager in the tasks it claims.
func (m *Manager) Owner() string { return m.cfg.Owner }
