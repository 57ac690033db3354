package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/bgtasks"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type TopicInput struct {
	Topic string `json:"topic"`
}

// A tool eligible for background execution: its calls run as tasks of
// the agent's manager, the model gets a placeholder at once.
func ExampleAgent_UseBackgroundTasks() {
	ctx := context.Background()
	mgr := bgtasks.New(bgtasks.Config{})
	_ = mgr.Start(ctx)
	defer mgr.Shutdown(ctx)

	research := tools.New(tools.Config[TopicInput, string]{
		ID: "research", Description: "Researches a topic at length",
		Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(_ tools.Context, in TopicInput) (string, error) {
			return "all about " + in.Topic, nil
		},
	})
	a, _ := agent.New(agent.Config{
		ID: "researcher", Instructions: "You research.", Tools: tools.Set{"research": research},
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}},
			mock.Step{Text: "I started the research."},
		),
	})
	a.UseBackgroundTasks(mgr)

	out, _ := a.Generate(ctx, "Research owls")
	var taskID string
	for _, c := range out.Chunks {
		if c.Type == bgtasks.TypeStarted {
			taskID = c.Payload.(bgtasks.StartedPayload).TaskID
			fmt.Println(c.Type)
		}
	}
	var placeholder string
	_ = json.Unmarshal(out.Results()[0].Result, &placeholder)
	fmt.Println(strings.Replace(placeholder, taskID, "<task>", 1))
	task, _ := mgr.WaitForNextTask(ctx, []string{taskID})
	fmt.Println(task.Status, string(task.Result))
	// Output:
	// background-task-started
	// Background task started. Task ID: <task>. The tool "research" is running in the background. You will be notified when it completes.
	// completed "all about owls"
}

// A stream that stays open until its background tasks are done: their
// chunks join it, and the agent answers again once they end.
func ExampleWithUntilIdle() {
	ctx := context.Background()
	mgr := bgtasks.New(bgtasks.Config{})
	_ = mgr.Start(ctx)
	defer mgr.Shutdown(ctx)
	store, _ := sqlite.Open(ctx, sqlite.Memory)
	defer store.Close()

	release, once := make(chan struct{}), sync.Once{}
	research := tools.New(tools.Config[TopicInput, string]{
		ID: "research", Description: "Researches a topic at length",
		Background: &tools.BackgroundConfig{Enabled: true},
		Execute: func(ctx tools.Context, in TopicInput) (string, error) {
			<-release // the research ends once the first answer is out
			return "all about " + in.Topic, nil
		},
	})
	a, _ := agent.New(agent.Config{
		ID: "researcher", Instructions: "You research.", Tools: tools.Set{"research": research},
		Storage: store, Memory: &agent.MemoryOptions{},
		Model: mock.New(
			mock.Step{ToolCalls: []mock.ToolCall{{ID: "c1", Name: "research", Args: `{"topic":"owls"}`}}},
			mock.Step{Text: "I started the research."},
			mock.Step{Text: "Owls hunt at night."},
		),
	})
	a.UseBackgroundTasks(mgr)

	for c, err := range a.Stream(ctx, "Research owls", agent.WithMemory("thread-1", "user-1"), agent.WithUntilIdle(time.Minute)) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch c.Type {
		case bgtasks.TypeStarted, bgtasks.TypeCompleted:
			fmt.Println(c.Type)
		case stream.TypeTextDelta:
			fmt.Print(c.Payload.(stream.TextPayload).Text)
		case stream.TypeFinish:
			fmt.Println()
			once.Do(func() { close(release) })
		}
	}
	// Output:
	// background-task-started
	// I started the research.
	// background-task-completed
	// Owls hunt at night.
}
