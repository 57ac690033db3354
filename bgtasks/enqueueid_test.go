package bgtasks_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/bgtasks"
)

// An Enqueue with an ID is idempotent: a second Enqueue of that ID (a
// replayed workflow's) returns the first task's record, as it is by
// then, and neither records nor runs another.
func TestEnqueueWithIDIsIdempotent(t *testing.T) {
	m := start(t, bgtasks.Config{})
	var runs atomic.Int32
	ex := bgtasks.ExecutorFunc(func(context.Context, *bgtasks.Call) (any, error) {
		runs.Add(1)
		return "done", nil
	})
	p := payload("a", "c1")
	p.ID = "task-of-c1"
	first := enqueue(t, m, p, ex)
	if first.ID != "task-of-c1" {
		t.Fatalf("task id = %q, want the payload's", first.ID)
	}
	wait(t, m, first.ID)
	again, err := m.Enqueue(context.Background(), p, &bgtasks.Hooks{Executor: ex})
	if err != nil {
		t.Fatal(err)
	}
	if again.Task.ID != first.ID || again.Task.Status != bgtasks.Completed {
		t.Errorf("second Enqueue = %s %s, want the first task, completed", again.Task.ID, again.Task.Status)
	}
	list, err := m.ListTasks(context.Background(), bgtasks.Filter{AgentID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if list.Total != 1 || runs.Load() != 1 {
		t.Errorf("%d tasks recorded, %d executions; want 1 and 1", list.Total, runs.Load())
	}
}
