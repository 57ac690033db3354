package workflowcrash

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// Child is the child process's body: the test function named h.Test,
// in the test binary that calls Run with the same h and b. It does
// nothing (it skips) in a normal test run.
func Child(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	var env crashtest.Env
	h.Payload(t, &env)
	store := b.OpenStore(t, env.Store)
	switch env.Scenario {
	case "midstep":
		w := seqWorkflow(t, env, store, func() { fmt.Println("READY") })
		_, _ = w.CreateRun().Start(context.Background(), num{N: 1}, nil)
		t.Fatal("the run should have blocked until killed")
	case "suspend":
		suspend(t, env, store)
	case "resume":
		resume(t, env, store)
	default:
		t.Fatalf("unknown scenario %q", env.Scenario)
	}
}

// suspend starts the approval workflow until approve suspends it and
// prints "SUSPENDED <runID>"; told to block, it then prints "READY" and
// waits until it is killed.
func suspend(t *testing.T, env crashtest.Env, store storage.Store) {
	w := approvalWorkflow(t, env, store, nil)
	res, err := w.CreateRun().Start(context.Background(), num{N: 1}, nil)
	if err != nil || res.Status != workflows.StatusSuspended {
		t.Fatalf("suspend: %v %+v", err, res)
	}
	fmt.Println("SUSPENDED " + res.RunID)
	if env.Block {
		fmt.Println("READY")
		select {}
	}
}

// resume loads env.RunID, waits to be released, resumes approve and
// prints "RESUMED" if it finished the run, "CONFLICT" if another process
// holds it; told to block, approve prints "BLOCKED" once resumed and
// waits until the process is killed.
func resume(t *testing.T, env crashtest.Env, store storage.Store) {
	w := approvalWorkflow(t, env, store, func() { fmt.Println("BLOCKED") })
	ctx := context.Background()
	run, err := w.LoadRun(ctx, env.RunID)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("READY")
	crashtest.AwaitRelease(t)
	res, err := run.Resume(ctx, workflows.ResumeOptions{Step: []string{"approve"}, Data: approval{OK: true}})
	switch {
	case err == nil && res.Status == workflows.StatusSuccess && string(res.Result) == `{"n":201}`:
		fmt.Println("RESUMED")
	case errors.Is(err, storage.ErrConflict):
		fmt.Println("CONFLICT")
	default:
		t.Fatalf("resume: %v %+v", err, res)
	}
}
