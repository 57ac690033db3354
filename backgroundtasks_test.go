package mastra_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

func TestBackgroundTasksNeedStorage(t *testing.T) {
	m := mastra.New(mastra.Config{})
	if _, err := m.EnableBackgroundTasks(context.Background(), bgtasks.Config{}); !errors.Is(err, mastra.ErrBackgroundTasksNeedStorage) {
		t.Fatalf("err %v", err)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Fatal("New accepted background tasks without storage")
		}
	}()
	mastra.New(mastra.Config{BackgroundTasks: &bgtasks.Config{}})
}

func TestRegistryGivesItsAgentsTheManagerAndTheirConcurrency(t *testing.T) {
	release := make(chan struct{})
	slow := tools.New(tools.Config[struct{}, string]{ID: "slow", Description: "d", Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(ctx tools.Context, _ struct{}) (string, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return "done", nil
		}})
	model := mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "a", Name: "slow", Args: `{}`}, {ID: "b", Name: "slow", Args: `{}`}}},
		mock.Step{Text: "Both started."},
	)
	a, err := agent.New(agent.Config{ID: "worker", Model: model, Tools: tools.Set{"slow": slow}, Background: &agent.BackgroundTasks{Concurrency: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"worker": a},
		BackgroundTasks: &bgtasks.Config{Store: bgtasks.NewMemoryStore(), PollInterval: 10 * time.Millisecond}})
	mgr := m.BackgroundTaskManager()
	defer mgr.Shutdown(context.Background())
	defer close(release)
	if a.BackgroundTaskManager() != mgr {
		t.Fatal("the agent has not the registry's manager")
	}
	if _, err := a.Generate(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		running, _ := mgr.ListTasks(context.Background(), bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Running}})
		pending, _ := mgr.ListTasks(context.Background(), bgtasks.Filter{Status: []bgtasks.Status{bgtasks.Pending}})
		if running.Total == 1 && pending.Total == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("running %d pending %d, want 1 and 1", running.Total, pending.Total)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
