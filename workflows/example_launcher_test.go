package workflows_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// nodeByNode is a Launcher that runs a launched run to its end or its
// suspension before it returns, a node per Advance, each time from the
// run as its storage holds it: the loop an engine's workers run, here in
// the caller's goroutine. It keeps where each run's log goes on.
type nodeByNode struct {
	w       *workflows.Workflow
	logNext map[string]int64
}

func (l *nodeByNode) Launch(ctx context.Context, runID string) error   { return l.drive(ctx, runID) }
func (l *nodeByNode) Continue(ctx context.Context, runID string) error { return l.drive(ctx, runID) }
func (l *nodeByNode) Cancel(context.Context, string) (bool, error)     { return false, nil }

func (l *nodeByNode) drive(ctx context.Context, runID string) error {
	opts := workflows.AdvanceOptions{First: true, LogFrom: l.logNext[runID]}
	for {
		run, err := l.w.LoadRun(ctx, runID)
		if err != nil {
			return err
		}
		p, err := run.Advance(ctx, opts)
		if err != nil {
			return err
		}
		l.logNext[runID] = p.LogNext
		if p.Status != workflows.StatusRunning {
			return nil
		}
		time.Sleep(p.Sleep) // an engine sleeps durably (a timer)
		opts = workflows.AdvanceOptions{Slept: p.Sleep > 0, LogFrom: p.LogNext}
	}
}

// A workflow whose runs are launched: Stream saves the run, hands it to
// the launcher and reads its chunks back from the run's event log.
func ExampleWorkflow_UseLauncher() {
	type n struct {
		N int `json:"n"`
	}
	times := func(id string, k int) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[n, n]{ID: id, Execute: func(_ workflows.StepContext, in n) (n, error) {
			return n{N: k * in.N}, nil
		}})
	}
	w := workflows.New(workflows.Config{ID: "scaling", Storage: storage.NewMemoryRuns(), Events: storage.NewMemoryEvents()}).
		Then(times("double", 2)).Sleep(time.Millisecond).Then(times("triple", 3))
	if err := w.Commit(); err != nil {
		panic(err)
	}
	if err := w.UseLauncher(&nodeByNode{w: w, logNext: map[string]int64{}}); err != nil {
		panic(err)
	}
	run := w.CreateRun()
	for c, err := range run.Stream(context.Background(), n{N: 3}, nil) {
		if err != nil {
			panic(err)
		}
		fmt.Println(c.Type)
	}
	res := run.Result()
	fmt.Println(res.Status, string(res.Result))
	// Output:
	// workflow-start
	// workflow-step-start
	// workflow-step-result
	// workflow-step-start
	// workflow-step-result
	// workflow-finish
	// success {"n":18}
}
