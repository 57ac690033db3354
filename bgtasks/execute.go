package bgtasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// startExecution runs the claimed task in a goroutine of its own. Once
// Shutdown began it runs nothing: the task goes back to Pending, and
// Shutdown, which waits for the executions started, misses none.
func (m *Manager) startExecution(t Task) {
	m.mu.Lock()
	if m.shutting {
		m.mu.Unlock()
		m.release(t)
		return
	}
	ctx, cancel := context.WithCancelCause(m.base)
	m.active[t.ID] = &activeTask{cancel: cancel, claimed: time.Now()}
	m.running.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.running.Done()
		defer cancel(nil)
		defer m.finished(t.ID)
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
		m.finish(t, outcome{err: noExecutor(t.ToolName), final: true})
		return
	}
	call := &Call{Task: t.Clone(), Args: t.Args, ResumeData: t.ResumeData, progress: m.progressOf(t)}
	runCtx, stop := context.WithTimeoutCause(ctx, t.Timeout, errTimeout)
	defer stop()
	o := awaitExecutor(runCtx, ex, call)
	if cause := m.leave(ctx, t.ID); cause != nil {
		o.cause = cause
	} else if o.err != nil && errors.Is(context.Cause(runCtx), errTimeout) {
		o.cause = errTimeout // the executor failed because of its deadline
	}
	m.finish(t, o)
}

// awaitExecutor runs the executor and returns its outcome, or, when
// ctx ends first (timeout, cancellation, shutdown), the outcome of that
// without waiting for the executor: the deadline decides, and an
// executor that ignores ctx cannot hold the task or its slot. What it
// returns later is dropped.
func awaitExecutor(ctx context.Context, ex Executor, call *Call) outcome {
	done := make(chan outcome, 1)
	go func() {
		result, err := runExecutor(ctx, ex, call)
		done <- outcome{result: result, err: err, call: call}
	}()
	select {
	case o := <-done:
		return o
	case <-ctx.Done():
		cause := context.Cause(ctx)
		return outcome{err: cause, cause: cause}
	}
}

// leave moves the task's execution from the active ones to those
// recording their outcome and returns why its context ctx ended early
// (nil when it did not). Cancellations hold m.mu, so none comes after
// leave.
func (m *Manager) leave(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.active, id)
	m.finishing[id] = true
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// noExecutor is the error of a task no executor was found for, in
// Mastra's words.
func noExecutor(toolName string) error {
	return mastraText(fmt.Sprintf("No executor registered for tool %q. "+
		"Register the tool on Mastra (so workers can resolve it cross-process) "+
		"or run the task in the same process as the producer.", toolName))
}

// finished notes that the task's execution has recorded its outcome.
func (m *Manager) finished(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.active, id)
	delete(m.finishing, id)
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
