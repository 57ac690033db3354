package bgtasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/storage"
)

// Enqueue records a Pending task for the tool call and has it run in
// the background, with hooks (nil: none; its executor then comes from
// Config.Resolve). When the concurrency limits leave no slot for it,
// Config.Backpressure decides: Queue keeps it Pending until one opens,
// Reject fails with ErrConcurrencyLimit, FallbackSync answers
// FallbackToSync; the last two keep no record. After Shutdown it fails
// with ErrShuttingDown. Before Start, every mode queues the task.
func (m *Manager) Enqueue(ctx context.Context, p TaskPayload, hooks *Hooks) (EnqueueResult, error) {
	m.mu.Lock()
	shutting, started := m.shutting, m.started
	m.mu.Unlock()
	if shutting {
		return EnqueueResult{}, ErrShuttingDown
	}
	if p.ID != "" {
		if t, err := m.store.GetTask(ctx, p.ID); err == nil {
			return EnqueueResult{Task: t}, nil
		}
	}
	// Before Start no slot can be known: every mode queues.
	queue := m.cfg.Backpressure == Queue || !started
	task, err := m.newTask(p)
	if err != nil {
		return EnqueueResult{}, err
	}
	if hooks != nil {
		m.mu.Lock()
		m.hooks[task.ID] = hooks
		m.mu.Unlock()
		if hooks.Executor != nil {
			task.Producer = m.cfg.Owner
		}
	}
	if !queue {
		// Held from dispatchers until enqueueNow's own claim decides;
		// should this process die first, it runs after the hold.
		task.NotBefore = time.Now().Add(m.cfg.Lease)
	}
	if err := m.store.CreateTask(ctx, task); err != nil {
		m.dropHooks(task.ID)
		if t, gerr := m.store.GetTask(ctx, task.ID); p.ID != "" && errors.Is(err, storage.ErrConflict) && gerr == nil {
			return EnqueueResult{Task: t}, nil // enqueued meanwhile
		}
		return EnqueueResult{}, fmt.Errorf("bgtasks: enqueue: %w", err)
	}
	task.Version = 1
	if queue {
		m.claimNow(ctx, task.ID)
		return EnqueueResult{Task: task}, nil
	}
	return m.enqueueNow(ctx, task)
}

// claimNow starts the new task here at once when a slot is free, as
// Mastra dispatches it at once; else it waits in the queue. Before
// Start it only wakes the dispatcher.
func (m *Manager) claimNow(ctx context.Context, id string) {
	m.mu.Lock()
	started := m.started && !m.shutting
	m.mu.Unlock()
	if started {
		if claimed, err := m.store.ClaimTasks(ctx, m.claim([]string{id})); err == nil {
			for _, t := range claimed {
				m.startExecution(t)
			}
		}
	}
	m.kick()
}

// enqueueNow claims the new task at once, or applies the Reject or
// FallbackSync backpressure when it cannot. A claim that fails keeps no
// task either: the caller is told the Enqueue failed.
func (m *Manager) enqueueNow(ctx context.Context, task Task) (EnqueueResult, error) {
	claimed, err := m.store.ClaimTasks(ctx, m.claim([]string{task.ID}))
	if err == nil && len(claimed) == 1 {
		m.startExecution(claimed[0])
		return EnqueueResult{Task: task}, nil
	}
	m.dropHooks(task.ID)
	if derr := m.store.DeleteTask(ctx, task.ID); err != nil || derr != nil {
		return EnqueueResult{}, fmt.Errorf("bgtasks: enqueue: %w", errors.Join(err, derr))
	}
	if m.cfg.Backpressure == FallbackSync {
		return EnqueueResult{Task: task, FallbackToSync: true}, nil
	}
	return EnqueueResult{}, fmt.Errorf("%w, cannot enqueue task for tool %q", ErrConcurrencyLimit, task.ToolName)
}

// newTask is the Pending record of p.
func (m *Manager) newTask(p TaskPayload) (Task, error) {
	args := json.RawMessage(p.Args)
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	} else if !json.Valid(args) {
		return Task{}, errors.New("bgtasks: enqueue: args are not valid JSON")
	}
	retries := m.cfg.DefaultRetries.MaxRetries
	if p.MaxRetries != nil {
		retries = *p.MaxRetries
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = m.cfg.DefaultTimeout
	}
	id := p.ID
	if id == "" {
		id = newID()
	}
	return Task{
		ID: id, Status: Pending,
		ToolName: p.ToolName, ToolCallID: p.ToolCallID, Args: args,
		AgentID: p.AgentID, ThreadID: p.ThreadID, ResourceID: p.ResourceID, RunID: p.RunID,
		CreatedAt: time.Now().UTC(), MaxRetries: retries, Timeout: timeout,
	}, nil
}

// Cancel cancels the task: a Pending or Suspended one never runs, a
// Running one's execution context is cancelled (in whichever process
// runs it: another one sees it at its next lease renewal). A task
// already finished is left as it is. An unknown id fails with
// storage.ErrNotFound ("Task not found: <id>").
func (m *Manager) Cancel(ctx context.Context, id string) error {
	for {
		t, err := m.store.GetTask(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			return taskNotFound(id)
		}
		if err != nil {
			return fmt.Errorf("bgtasks: cancel: %w", err)
		}
		if t.Status.Terminal() {
			return nil
		}
		t.Status, t.CompletedAt = Cancelled, time.Now().UTC()
		t.Owner, t.LeaseUntil = "", time.Time{}
		t, err = m.store.UpdateTask(ctx, t)
		if errors.Is(err, storage.ErrConflict) {
			continue // it changed meanwhile: look again
		}
		if err != nil {
			return fmt.Errorf("bgtasks: cancel: %w", err)
		}
		m.abortExecution(id, errCancelled)
		m.settled(Event{Type: TypeCancelled, Task: t})
		return nil
	}
}

// Resume runs the Suspended task again, its executor given data (any
// JSON value) as Call.ResumeData: the task goes back to Pending, and
// "background-task-resumed" is published when an execution starts. A
// task in another status fails ("Cannot resume task in status '…'").
func (m *Manager) Resume(ctx context.Context, id string, data any) error {
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("bgtasks: resume: %w", err)
	}
	for {
		t, err := m.store.GetTask(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			return taskNotFound(id)
		}
		if err != nil {
			return fmt.Errorf("bgtasks: resume: %w", err)
		}
		if t.Status != Suspended {
			return mastraText(fmt.Sprintf("Cannot resume task in status '%s'", t.Status))
		}
		t.Status, t.ResumeData, t.SuspendPayload = Pending, raw, nil
		if _, err = m.store.UpdateTask(ctx, t); errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("bgtasks: resume: %w", err)
		}
		m.kick()
		return nil
	}
}

// GetTask returns the task's record, or storage.ErrNotFound.
func (m *Manager) GetTask(ctx context.Context, id string) (Task, error) {
	return m.store.GetTask(ctx, id)
}

// ListTasks returns the tasks filter selects, and how many in all.
func (m *Manager) ListTasks(ctx context.Context, filter Filter) (TaskList, error) {
	tasks, total, err := m.store.ListTasks(ctx, filter)
	if tasks == nil {
		tasks = []Task{}
	}
	return TaskList{Tasks: tasks, Total: total}, err
}

// Cleanup removes the records of Completed tasks finished more than
// CompletedTTL ago and of Failed, Cancelled and TimedOut ones finished
// more than FailedTTL ago (Config.Cleanup, or its defaults).
func (m *Manager) Cleanup(ctx context.Context) error {
	cl := Config{Cleanup: &CleanupConfig{}}.withDefaults().Cleanup
	if m.cfg.Cleanup != nil {
		cl = m.cfg.Cleanup
	}
	now := time.Now()
	if _, err := m.store.DeleteTasks(ctx, Filter{Status: []Status{Completed}, ToDate: now.Add(-cl.CompletedTTL), DateFilterBy: ByCompletedAt}); err != nil {
		return fmt.Errorf("bgtasks: cleanup: %w", err)
	}
	if _, err := m.store.DeleteTasks(ctx, Filter{Status: []Status{Failed, Cancelled, TimedOut}, ToDate: now.Add(-cl.FailedTTL), DateFilterBy: ByCompletedAt}); err != nil {
		return fmt.Errorf("bgtasks: cleanup: %w", err)
	}
	return nil
}

func (m *Manager) dropHooks(id string) {
	m.mu.Lock()
	delete(m.hooks, id)
	m.mu.Unlock()
}

func (m *Manager) hooksOf(id string) *Hooks {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hooks[id]
}

// abortExecution ends the context of the task's execution in this
// process, if there is one, with cause.
func (m *Manager) abortExecution(id string, cause error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.active[id]; a != nil {
		a.cancel(cause)
	}
}
