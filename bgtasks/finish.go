package bgtasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomastra/mastra/storage"
)

// outcome is how an execution ended.
type outcome struct {
	result any
	err    error
	cause  error // why its context ended early, or errTimeout
	call   *Call
	final  bool // no retry, whatever the retries left
}

// finish records the outcome of an execution of t (claimed at
// t.Version) and publishes it. It writes nothing when the task was
// taken from this Manager meanwhile (cancelled, or recovered elsewhere).
func (m *Manager) finish(t Task, o outcome) {
	switch {
	case errors.Is(o.cause, errCancelled), errors.Is(o.cause, errLost):
		return // Cancel, or the Manager that took the task, records it
	case errors.Is(o.cause, errShutdown) && o.err != nil:
		m.release(t)
		return
	}
	next, kind := m.nextRecord(t, o)
	next.Owner, next.LeaseUntil = "", time.Time{}
	stored, err := m.record(next)
	m.recorded(unrecordedOutcome{next, kind}, stored, err)
}

// unrecordedOutcome is an execution's outcome to write: the task's
// next record, and the event to publish once it is written.
type unrecordedOutcome struct {
	next Task
	kind string
}

// recorded publishes the outcome o the store wrote (stored, or err).
// When the store failed otherwise than by a lost race (whoever won
// records the task), the outcome is kept for writeUnrecorded: the task
// stays Running for this Manager, which renews its lease meanwhile.
func (m *Manager) recorded(o unrecordedOutcome, stored Task, err error) {
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
		return
	}
	if err != nil {
		m.mu.Lock()
		m.unrecorded[o.next.ID] = o
		m.mu.Unlock()
		return
	}
	if o.kind == "" { // a retry
		if wait := time.Until(stored.NotBefore); wait > 0 {
			time.AfterFunc(wait, m.kick)
		}
		m.kick()
		return
	}
	m.settled(Event{Type: o.kind, Task: stored})
}

// writeUnrecorded tries once more to write the outcomes the store
// failed to record.
func (m *Manager) writeUnrecorded() {
	m.mu.Lock()
	outcomes := make([]unrecordedOutcome, 0, len(m.unrecorded))
	for id, o := range m.unrecorded {
		outcomes = append(outcomes, o)
		delete(m.unrecorded, id)
	}
	m.mu.Unlock()
	for _, o := range outcomes {
		stored, err := m.store.UpdateTask(m.base, o.next)
		m.recorded(o, stored, err)
	}
}

// record writes an execution's outcome, trying again a few times while
// the store fails otherwise than by a lost race: a task left Running is
// only taken up when its lease lapses.
func (m *Manager) record(next Task) (Task, error) {
	wait := 10 * time.Millisecond
	for attempt := 1; ; attempt++ {
		stored, err := m.store.UpdateTask(context.Background(), next)
		if err == nil || attempt == 5 || errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
			return stored, err
		}
		time.Sleep(wait)
		wait *= 2
	}
}

// nextRecord is t's record after the outcome, and the event to publish
// ("" for a retry, which publishes none).
func (m *Manager) nextRecord(t Task, o outcome) (Task, string) {
	now := time.Now().UTC()
	t.SuspendedAt = time.Time{}
	switch {
	case o.err == nil && o.call != nil && o.call.suspended:
		t.Status, t.SuspendPayload, t.SuspendedAt = Suspended, o.call.suspendPayload, now
		t.ResumeData = nil
		return t, TypeSuspended
	case errors.Is(o.cause, errTimeout):
		t.Status, t.CompletedAt = TimedOut, now
		t.Error = &TaskError{Message: fmt.Sprintf("Task timed out after %dms", t.Timeout.Milliseconds())}
		return t, TypeFailed
	case o.err == nil:
		raw, err := marshalResult(o.result)
		if err != nil {
			t.Status, t.CompletedAt, t.Error = Failed, now, &TaskError{Message: err.Error()}
			return t, TypeFailed
		}
		t.Status, t.CompletedAt, t.Result, t.Error = Completed, now, raw, nil
		return t, TypeCompleted
	case !o.final && t.RetryCount < t.MaxRetries && m.retryable(o.err):
		t.RetryCount++
		t.Status, t.StartedAt, t.Error = Pending, time.Time{}, nil
		t.NotBefore = now.Add(m.cfg.DefaultRetries.retryDelay(t.RetryCount))
		return t, ""
	default:
		t.Status, t.CompletedAt = Failed, now
		t.Error = &TaskError{Message: o.err.Error()}
		return t, TypeFailed
	}
}

func (m *Manager) retryable(err error) bool {
	return m.cfg.DefaultRetries.Retryable == nil || m.cfg.DefaultRetries.Retryable(err)
}

// marshalResult is an executor's result as JSON: a json.RawMessage as
// it is (it must be valid JSON), anything else encoded (a []byte as
// encoding/json does, in base64); nil is no result.
func marshalResult(result any) (json.RawMessage, error) {
	switch r := result.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if !json.Valid(r) {
			return nil, errors.New("the task's result is not valid JSON")
		}
		return r, nil
	}
	return json.Marshal(result)
}

// release puts a task this Manager stops running (Shutdown) back to
// Pending, without counting a retry.
func (m *Manager) release(t Task) {
	t.Status, t.StartedAt = Pending, time.Time{}
	t.Owner, t.LeaseUntil = "", time.Time{}
	m.store.UpdateTask(context.Background(), t)
}

// settled publishes a task's new state and calls the callbacks a
// completion or failure has; a finished task's hooks are dropped. A
// slot may have opened: the dispatcher is woken.
func (m *Manager) settled(e Event) {
	m.publish(e)
	h := m.hooksOf(e.Task.ID)
	switch e.Task.Status {
	case Completed:
		if h != nil && h.OnComplete != nil {
			h.OnComplete(e.Task)
		}
		if m.cfg.OnTaskComplete != nil {
			m.cfg.OnTaskComplete(e.Task)
		}
	case Failed, TimedOut:
		if h != nil && h.OnFailed != nil {
			h.OnFailed(e.Task)
		}
		if m.cfg.OnTaskFailed != nil {
			m.cfg.OnTaskFailed(e.Task)
		}
	}
	if e.Task.Status.Terminal() {
		m.dropHooks(e.Task.ID)
	}
	m.kick()
}
