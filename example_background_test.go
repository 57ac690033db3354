package mastra_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
)

// Background tasks are enabled on the registry, which needs a store for
// them; its agents then get the manager.
func ExampleMastra_EnableBackgroundTasks() {
	ctx := context.Background()
	a, _ := agent.New(agent.Config{ID: "researcher", Model: mock.New(mock.Step{Text: "hi"}),
		Background: &agent.BackgroundTasks{All: true, Concurrency: 2}})
	m := mastra.New(mastra.Config{Agents: map[string]*agent.Agent{"researcher": a}})

	_, err := m.EnableBackgroundTasks(ctx, bgtasks.Config{})
	fmt.Println(err)

	mgr, err := m.EnableBackgroundTasks(ctx, bgtasks.Config{Store: bgtasks.NewMemoryStore(), GlobalConcurrency: 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer mgr.Shutdown(ctx)
	fmt.Println(a.BackgroundTaskManager() == mgr)
	// Output:
	// mastra: background tasks need storage: set the Store of the background-task configuration (bgtasks.NewMemoryStore(), or a storage/sqlite or storage/postgres store)
	// true
}
