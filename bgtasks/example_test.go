package bgtasks_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/bgtasks"
)

func Example() {
	ctx := context.Background()
	m := bgtasks.New(bgtasks.Config{GlobalConcurrency: 2})
	if err := m.Start(ctx); err != nil {
		panic(err)
	}
	defer m.Shutdown(ctx)

	lookup := bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
		return map[string]string{"weather": "sunny"}, nil
	})
	res, err := m.Enqueue(ctx, bgtasks.TaskPayload{
		RunID: "run-1", AgentID: "weather-agent",
		ToolName: "get-weather", ToolCallID: "call-1", Args: []byte(`{"city":"Paris"}`),
	}, &bgtasks.Hooks{Executor: lookup})
	if err != nil {
		panic(err)
	}
	done, err := m.WaitForNextTask(ctx, []string{res.Task.ID})
	if err != nil {
		panic(err)
	}
	fmt.Println(done.Status, string(done.Result))
	// Output: completed {"weather":"sunny"}
}
