package workflows_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/workflows"
)

type approval struct {
	OK bool `json:"ok"`
}

type question struct {
	Question string `json:"question"`
}

// A resume with data of a run another resume is running (stored as
// running) is a conflict: it must not take the run over and run the
// step a second time while the first resume is alive.
func TestResumeOfARunningWorkflowRunIsAConflict(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var resumed atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	approve := workflows.NewStep(workflows.StepConfig[num, num]{ID: "approve",
		SuspendSchema: schema.MustFor[question](), ResumeSchema: schema.MustFor[approval](),
		Execute: func(ctx workflows.StepContext, in num) (num, error) {
			if _, ok, err := tools.ResumeDataAs[approval](ctx); err != nil || !ok {
				return num{}, ctx.Suspend(question{Question: "ok?"})
			}
			resumed.Add(1)
			close(entered)
			<-release
			return in, nil
		}})
	w := workflows.New(workflows.Config{ID: "race", Storage: st}).Then(approve)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	run := w.CreateRun()
	if res, err := run.Start(ctx, num{N: 1}, nil); err != nil || res.Status != workflows.StatusSuspended {
		t.Fatalf("start: %v %+v", err, res)
	}
	done := make(chan error, 1)
	go func() {
		_, err := run.Resume(ctx, workflows.ResumeOptions{Data: approval{OK: true}})
		done <- err
	}()
	<-entered // the first resume runs the step
	other, err := w.LoadRun(ctx, run.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Resume(ctx, workflows.ResumeOptions{Data: approval{OK: true}}); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("second resume: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("first resume: %v", err)
	}
	if n := resumed.Load(); n != 1 {
		t.Errorf("the resumed step ran %d times", n)
	}
}
