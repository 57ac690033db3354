package bgtasks

import (
	"context"
	"errors"
	"time"

	"github.com/gomastra/mastra/storage"
)

// staleMessage is the error of a task whose process died while it ran
// and that has no retries left.
const staleMessage = "Worker process terminated before task completed"

// recover takes up the Running tasks filter selects (Running is
// implied), which no live execution holds: a task with retries left
// goes back to Pending, counting a retry; any other fails with
// staleMessage. A task another Manager changed meanwhile is left to it.
// An execution of this Manager holds its task until its outcome is
// recorded, even when the lease lapsed (its renewals were late, or the
// store was down).
func (m *Manager) recover(ctx context.Context, filter Filter) error {
	filter.Status = []Status{Running}
	stale, _, err := m.store.ListTasks(ctx, filter)
	if err != nil {
		return err
	}
	for _, t := range stale {
		if m.isActive(t.ID) {
			continue
		}
		next, failed := recovered(t)
		stored, err := m.store.UpdateTask(ctx, next)
		if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		if failed {
			m.settled(Event{Type: TypeFailed, Task: stored})
		}
	}
	if len(stale) > 0 {
		m.kick()
	}
	return nil
}

// recovered is the record of a stale Running task taken up, and
// whether it failed.
func recovered(t Task) (Task, bool) {
	t.Owner, t.LeaseUntil = "", time.Time{}
	if t.RetryCount < t.MaxRetries {
		t.RetryCount++
		t.Status, t.StartedAt = Pending, time.Time{}
		return t, false
	}
	t.Status, t.CompletedAt = Failed, time.Now().UTC()
	t.Error = &TaskError{Message: staleMessage}
	return t, true
}

// isActive reports whether an execution of this Manager holds the task:
// running, recording its outcome, or holding an outcome the store failed
// to record (written at a later renewal).
func (m *Manager) isActive(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.holds(id)
}
