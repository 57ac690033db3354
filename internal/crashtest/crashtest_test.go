package crashtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/storage"
)

func TestLogLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "exec.log")
	if got := crashtest.LogLines(t, path); len(got) != 0 {
		t.Errorf("a missing log: %q", got)
	}
	crashtest.LogLine("", "ignored") // no log: nothing happens
	crashtest.LogLine(path, "a")
	crashtest.LogLine(path, "b:c1")
	crashtest.LogLine(path, "a")
	if got, want := crashtest.LogLines(t, path), []string{"a", "b:c1", "a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LogLines = %q, want %q", got, want)
	}
}

func TestOpenStoreAndPollRun(t *testing.T) {
	store := crashtest.SQLite.OpenStore(t, crashtest.SQLite.New(t))
	ctx := context.Background()
	if _, err := store.SaveRun(ctx, storage.Run{RunID: "r1", Kind: storage.KindWorkflow, Name: "w", Status: storage.RunRunning, Snapshot: json.RawMessage(`{"n":1}`)}); err != nil {
		t.Fatal(err)
	}
	polls := 0
	crashtest.PollRun(ctx, store, "r1", func(r *storage.Run) bool {
		polls++
		return polls == 3 && string(r.Snapshot) == `{"n":1}`
	})
	if polls != 3 {
		t.Errorf("PollRun stopped after %d polls, want 3", polls)
	}
}

func TestFreshEnvAndRestart(t *testing.T) {
	env := crashtest.SQLite.FreshEnv(t, crashtest.Env{Scenario: "s", RunID: "r1", Block: true})
	if env.Store == "" || env.Log == "" || env.Scenario != "s" || env.RunID != "r1" || !env.Block {
		t.Fatalf("FreshEnv = %+v", env)
	}
	if other := crashtest.SQLite.FreshEnv(t, env); other.Store == env.Store || other.Log == env.Log {
		t.Errorf("two FreshEnv calls share a store or log: %+v %+v", env, other)
	}
	store := crashtest.SQLite.Restart(t, &env)
	if env.Block {
		t.Error("Restart left env.Block set")
	}
	if _, _, err := store.ListRuns(context.Background(), storage.RunFilter{}); err != nil {
		t.Errorf("the restarted store: %v", err)
	}
}

func TestRunScenariosSkipsMultiProcessOnes(t *testing.T) {
	var ran []string
	record := func(t *testing.T, _ crashtest.Harness, b crashtest.Backend) {
		ran = append(ran, t.Name()+" on "+b.Name)
	}
	scenarios := []crashtest.Scenario{{Name: "Alone", Test: record}, {Name: "Shared", MultiProcess: true, Test: record}}
	t.Run("single", func(t *testing.T) { crashtest.RunScenarios(t, harness, crashtest.SQLite, scenarios) })
	multi := crashtest.SQLite
	multi.Name, multi.MultiProcess = "multi", true
	t.Run("multi", func(t *testing.T) { crashtest.RunScenarios(t, harness, multi, scenarios) })
	want := []string{
		"TestRunScenariosSkipsMultiProcessOnes/single/Alone on sqlite",
		"TestRunScenariosSkipsMultiProcessOnes/multi/Alone on multi",
		"TestRunScenariosSkipsMultiProcessOnes/multi/Shared on multi",
	}
	if !reflect.DeepEqual(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
}

var harness = crashtest.Harness{Test: "TestHarnessChild", EnvVar: "GOMASTRA_CRASHTEST_CHILD"}

// TestHarnessChild is the child of TestHarness.
func TestHarnessChild(t *testing.T) {
	var env crashtest.Env
	harness.Payload(t, &env)
	fmt.Println("noise")
	fmt.Println("HELLO " + env.RunID)
	crashtest.AwaitRelease(t)
	fmt.Println("RELEASED")
	if env.Block {
		select {}
	}
}

func TestHarness(t *testing.T) {
	c := harness.Start(t, crashtest.Env{RunID: "r1", Block: true})
	if got := c.AwaitRest(t, "HELLO "); got != "r1" {
		t.Errorf("AwaitRest = %q, want r1", got)
	}
	c.Release(t)
	if got := c.Await(t, "REL"); got != "RELEASED" {
		t.Errorf("Await = %q, want RELEASED", got)
	}
	c.Kill(t)

	c = harness.Start(t, crashtest.Env{RunID: "r2"})
	c.AwaitRest(t, "HELLO ")
	c.Release(t)
	c.Wait(t)
}
