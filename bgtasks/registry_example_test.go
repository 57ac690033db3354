package bgtasks_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/bgtasks"
)

// Executors registered by tool name let any process run a task, also
// one enqueued by a process that is gone.
func ExampleExecutors() {
	var executors bgtasks.Executors
	executors.Register("report", bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
		return "generic report", nil
	}))
	executors.RegisterForAgent("finance-agent", "report", bgtasks.ExecutorFunc(func(ctx context.Context, call *bgtasks.Call) (any, error) {
		return "finance report", nil
	}))

	ctx := context.Background()
	m := bgtasks.New(bgtasks.Config{Resolve: executors.Resolve})
	m.Start(ctx)
	defer m.Shutdown(ctx)
	for _, agent := range []string{"finance-agent", "ops-agent"} {
		res, _ := m.Enqueue(ctx, bgtasks.TaskPayload{RunID: "run", AgentID: agent, ToolName: "report", ToolCallID: "call-" + agent}, nil)
		done, _ := m.WaitForNextTask(ctx, []string{res.Task.ID})
		fmt.Println(agent, string(done.Result))
	}
	// Output:
	// finance-agent "finance report"
	// ops-agent "generic report"
}
