package agentcrash

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/mastraerror"
	"github.com/gomastra/mastra/model"
	"github.com/gomastra/mastra/storage"
)

// Child is the child process's body: the test function named h.Test,
// in the test binary that calls Run with the same h and b. It does
// nothing (it skips) in a normal test run.
func Child(t *testing.T, h crashtest.Harness, b crashtest.Backend) {
	var env crashtest.Env
	h.Payload(t, &env)
	store := b.OpenStore(t, env.Store)
	if env.Scenario == "randomkill" {
		randomKillChild(killAgent(t, env.Log, store), env.Log)
		return
	}
	a := durableAgent(t, env, store, printReady)
	ctx := context.Background()
	switch env.Scenario {
	case "midstep":
		_, _ = a.Generate(ctx, "add slow", agent.WithMemory("thread-1", "user-1"))
		t.Fatal("the run should have blocked until killed")
	case "suspend":
		suspend(t, a, env)
	case "resumeblock":
		_, _ = a.ResumeGenerate(ctx, env.RunID, approval{OK: true})
		t.Fatal("the resumed call should have blocked until killed")
	case "resume":
		resume(t, a, env)
	default:
		t.Fatalf("unknown scenario %q", env.Scenario)
	}
}

// printReady is the child's cue that it has reached the point to die at.
func printReady() { fmt.Println("READY") }

// suspend runs the agent until pay suspends it and prints "SUSPENDED
// <runID>"; told to block, it then waits until it is killed.
func suspend(t *testing.T, a *agent.Agent, env crashtest.Env) {
	out, err := a.Generate(context.Background(), "pay", agent.WithMemory("thread-1", "user-1"))
	if err != nil || out.FinishReason != model.FinishSuspended {
		t.Fatalf("suspend: %v %s", err, out.FinishReason)
	}
	fmt.Println("SUSPENDED " + out.RunID)
	if env.Block {
		printReady()
		select {}
	}
}

// resume waits to be released, resumes env.RunID and prints "RESUMED"
// if it finished the run, "CONFLICT" if another process did.
func resume(t *testing.T, a *agent.Agent, env crashtest.Env) {
	printReady()
	crashtest.AwaitRelease(t)
	out, err := a.ResumeGenerate(context.Background(), env.RunID, approval{OK: true})
	switch {
	case err == nil && out.Text == "done":
		fmt.Println("RESUMED")
	case errors.Is(err, storage.ErrConflict):
		fmt.Println("CONFLICT")
	case mastraerror.IDOf(err) == mastraerror.IDAgentResumeNoSnapshotFound:
		fmt.Println("CONFLICT") // the other process resumed and finished first
	default:
		t.Fatalf("resume: %v", err)
	}
}
