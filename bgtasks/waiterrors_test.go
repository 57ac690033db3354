package bgtasks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/storage"
)

// TestWaitForUnknownTask: waiting for a task the store does not know
// fails at once with "Task not found: <id>", instead of waiting until
// ctx ends.
func TestWaitForUnknownTask(t *testing.T) {
	m := start(t, bgtasks.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := m.WaitForNextTask(ctx, []string{"no-such-task"})
	if !errors.Is(err, storage.ErrNotFound) || err.Error() != "Task not found: no-such-task" {
		t.Errorf("WaitForNextTask of an unknown id = %v; want Task not found: no-such-task", err)
	}
}

// TestWaitForDeletedTask: a task deleted while waited for ends the wait
// with "Task not found: <id>".
func TestWaitForDeletedTask(t *testing.T) {
	m := start(t, bgtasks.Config{})
	b := newBlocker()
	defer close(b.release)
	tk := enqueue(t, m, payload("a", "c1"), b.run)
	<-b.started
	go func() {
		time.Sleep(30 * time.Millisecond)
		m.Store().DeleteTask(context.Background(), tk.ID)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := m.WaitForNextTask(ctx, []string{tk.ID}); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("WaitForNextTask of a deleted task = %v; want Task not found", err)
	}
}
