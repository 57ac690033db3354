package builtin

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/tools"
)

// The processor forgets a run once its request context is gone.
func TestTaskStateForgetsFinishedRuns(t *testing.T) {
	p := NewTaskStateProcessor(nil)
	func() {
		for range 10 {
			rc := tools.NewRequestContext(nil)
			_ = rc.Set(TasksRequestContextKey, []Task{{ID: "a", Content: "A", Status: TaskPending, ActiveForm: "x"}})
			for step := range 3 {
				in := &agent.StepInput{StepNumber: step, Messages: []model.Message{model.UserText("go")}, RequestContext: rc, ThreadID: "t", ResourceID: "r"}
				if err := p.ProcessStep(context.Background(), in); err != nil {
					t.Fatal(err)
				}
			}
		}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		p.mu.Lock()
		n := len(p.runs)
		p.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d runs still remembered", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestTasksCacheKey(t *testing.T) {
	got := tasksCacheKey([]Task{
		{ID: "a:b", Content: "x|y", Status: TaskPending, ActiveForm: "🚀é"},
		{ID: "c", Content: "", Status: TaskCompleted, ActiveForm: "z"},
	})
	// Lengths count UTF-16 code units, as JavaScript's string length does.
	if want := "tasks:3:a:b7:pending3:x|y3:🚀é|1:c9:completed0:1:z"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := tasksCacheKey(nil); got != "tasks:" {
		t.Errorf("empty: %q", got)
	}
}
