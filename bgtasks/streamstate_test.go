package bgtasks

import (
	"context"
	"testing"
	"time"
)

// TestStreamForgetsFinishedTasks: a Stream does not keep a finished
// task once its last event was yielded and no read of the store can
// show it again, so its memory does not grow with every task.
func TestStreamForgetsFinishedTasks(t *testing.T) {
	st := &streamState{seen: map[string]int64{}, started: time.Now().Add(-time.Hour)}
	long := time.Now().Add(-time.Minute).UTC()
	events := []Event{
		{Type: TypeCompleted, Task: Task{ID: "t1", Status: Completed, Version: 3, CompletedAt: long}},
		{Type: TypeRunning, Task: Task{ID: "t2", Status: Running, Version: 2}},
	}
	st.yieldAll(events, func(Event, error) bool { return true })
	if _, err := st.poll(context.Background(), NewMemoryStore()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.poll(context.Background(), NewMemoryStore()); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.seen["t1"]; ok || len(st.seen) != 1 {
		t.Errorf("seen after the polls = %v; want only the running t2", st.seen)
	}
}
