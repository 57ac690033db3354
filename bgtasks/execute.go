package bgtasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// startExecution runs the claimed task in a goroutine of its own.
func (m *Manager) startExecution(t Task) {
	ctx, cancel := context.WithCancelCause(m.base)
	m.mu.Lock()
	m.active[t.ID] = &activeTask{cancel: cancel, claimed: time.Now()}
	m.mu.Unlock()
	m.running.Add(1)
	go func() {
		defer m.running.Done()
		defer cancel(nil)
		m.execute(ctx, t)
	}()
}

// execute runs one execution of the claimed task t and records its
// outcome.
func (m *Manager) execute(ctx context.Context, t Task) {
	kind := TypeRunning
	if !t.SuspendedAt.IsZero() {
		kind = TypeResumed
	}
	m.publish(Event{Type: kind, Task: t})
	ex := m.executorOf(ctx, t)
	if ex == nil {
		m.leave(ctx, t.ID)
		m.finish(t, outcome{err: errors.New("No executor registered for this task"), final: true})
		return
	}
	call := &Call{Task: t.Clone(), Args: t.Args, ResumeData: t.ResumeData, progress: m.progressOf(t)}
	runCtx, stop := context.WithTimeoutCause(ctx, t.Timeout, errTimeout)
	result, err := runExecutor(runCtx, ex, call)
	stop()
	cause := m.leave(ctx, t.ID)
	if cause == nil && errors.Is(context.Cause(runCtx), errTimeout) {
		cause = errTimeout
	}
	m.finish(t, outcome{result: result, err: err, cause: cause, call: call})
}

// leave removes the task's execution from the active ones and returns
// why its context ctx ended early (nil when it did not). Cancellations
// hold m.mu, so none comes after leave.
func (m *Manager) leave(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.active, id)
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// runExecutor calls the executor, turning a panic into an error.
func runExecutor(ctx context.Context, ex Executor, call *Call) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return ex.Execute(ctx, call)
}

// executorOf is the task's executor: its hooks', else the resolver's.
func (m *Manager) executorOf(ctx context.Context, t Task) Executor {
	if h := m.hooksOf(t.ID); h != nil && h.Executor != nil {
		return h.Executor
	}
	if m.cfg.Resolve != nil {
		if ex, ok := m.cfg.Resolve(ctx, t); ok {
			return ex
		}
	}
	return nil
}

// progressOf publishes an execution's progress output, throttled.
func (m *Manager) progressOf(t Task) func(context.Context, json.RawMessage) {
	var mu sync.Mutex
	var last time.Time
	return func(_ context.Context, output json.RawMessage) {
		mu.Lock()
		now := time.Now()
		skip := m.cfg.ProgressThrottle > 0 && !last.IsZero() && now.Sub(last) < m.cfg.ProgressThrottle
		if !skip {
			last = now
		}
		mu.Unlock()
		if !skip {
			m.publish(Event{Type: TypeOutput, Task: t, Output: output})
		}
	}
}
