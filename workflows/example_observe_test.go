package workflows_test

import (
	"context"
	"fmt"

	"github.com/gomastra/mastra/workflows"
)

// Reading a run's chunks back: ObserveStream replays the run's event log
// from an offset, then follows the run live, until its finish. Another
// process observes a run the same way over a storage that keeps run
// events (PostgreSQL, SQLite): workflows.Config.Storage or Config.Events.
func ExampleRun_ObserveStream() {
	shout := workflows.NewStep(workflows.StepConfig[Topic, Topic]{ID: "shout",
		Execute: func(ctx workflows.StepContext, in Topic) (Topic, error) {
			return Topic{Topic: in.Topic + "!"}, nil
		}})
	w := workflows.New(workflows.Config{ID: "shout"}).Then(shout)
	if err := w.Commit(); err != nil {
		panic(err)
	}
	ctx := context.Background()
	run := w.CreateRun(workflows.WithRunID("run-1"))
	for _, err := range run.Stream(ctx, Topic{Topic: "hello"}, nil) {
		if err != nil {
			panic(err)
		}
	}
	// From the third chunk on: the step's result and the run's finish.
	for c, err := range run.ObserveStream(ctx, 2) {
		if err != nil {
			panic(err)
		}
		fmt.Println(c.Type)
	}
	// Output:
	// workflow-step-result
	// workflow-finish
}
