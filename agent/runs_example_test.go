package agent_test

import (
	"context"
	"fmt"
	"iter"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type sleepIn struct {
	Seconds int `json:"seconds"`
}

type sleepOut struct {
	Slept bool `json:"slept"`
}

// sleeper is an agent whose one tool waits until its run is aborted.
func sleeper() *agent.Agent {
	wait := tools.New(tools.Config[sleepIn, sleepOut]{ID: "wait", Description: "Waits",
		Execute: func(ctx tools.Context, _ sleepIn) (sleepOut, error) {
			<-ctx.Done() // an abort cancels the tools in flight
			return sleepOut{}, nil
		}})
	a, err := agent.New(agent.Config{ID: "sleeper", Tools: tools.Set{"wait": wait}, Model: mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "wait", Args: `{"seconds":60}`}}},
		mock.Step{Text: "Rested."},
	)})
	if err != nil {
		panic(err)
	}
	return a
}

// A run started with Start goes on without a reader; Observe reads it
// from any offset, here once it has ended.
func ExampleAgent_Start() {
	a, err := agent.New(agent.Config{ID: "greeter", Model: mock.New(mock.Step{Text: "Hello there."})})
	if err != nil {
		panic(err)
	}
	run, err := a.Start(context.Background(), "Hi", agent.WithRunID("run-1"))
	if err != nil {
		panic(err)
	}
	<-run.Done()
	for e, err := range a.Observe(context.Background(), run.RunID(), 0) {
		if err != nil {
			panic(err)
		}
		if e.Type == agent.RunEventChunk {
			fmt.Println(e.Index, e.Type, e.Chunk.Type)
		} else {
			fmt.Println(e.Index, e.Type)
		}
	}
	// Output:
	// 0 chunk start
	// 1 step-start
	// 2 chunk text-start
	// 3 chunk text-delta
	// 4 chunk text-delta
	// 5 chunk text-end
	// 6 chunk step-finish
	// 7 iteration-complete
	// 8 finish
}

// Observe from an offset: a reconnecting reader skips what it has.
func ExampleAgent_Observe() {
	a, err := agent.New(agent.Config{ID: "greeter", Model: mock.New(mock.Step{Text: "Hello there."})})
	if err != nil {
		panic(err)
	}
	for range a.Stream(context.Background(), "Hi", agent.WithRunID("run-1")) {
	}
	for e, err := range a.Observe(context.Background(), "run-1", 7) {
		if err != nil {
			panic(err)
		}
		if e.Iteration != nil {
			fmt.Println(e.Index, e.Type, e.Iteration.Text, e.Iteration.IsFinal)
		} else {
			fmt.Println(e.Index, e.Type)
		}
	}
	// Output:
	// 7 iteration-complete Hello there. true
	// 8 finish
}

// AbortRun stops a run while its tool runs: the step finishes, then the
// run, with reason "abort".
func ExampleAgent_AbortRun() {
	a := sleeper()
	ctx := context.Background()
	run, err := a.Start(ctx, "Rest", agent.WithRunID("run-1"))
	if err != nil {
		panic(err)
	}
	for c := range run.Chunks(ctx) {
		if c.Type == stream.TypeToolCall {
			break // the tool is running
		}
	}
	aborted, err := a.AbortRun(ctx, "run-1")
	fmt.Println(aborted, err)
	var last stream.Chunk
	for c := range run.Chunks(ctx) {
		last = c
	}
	fmt.Println(last.Type, last.Payload.(stream.FinishPayload).StepResult.Reason)
	// Output:
	// true <nil>
	// finish abort
}

// AbortThread stops the active run of a memory thread, found with its
// resource.
func ExampleAgent_AbortThread() {
	a := sleeper()
	ctx := context.Background()
	run, err := a.Start(ctx, "Rest", agent.WithMemory("thread-1", "user-1"))
	if err != nil {
		panic(err)
	}
	for c := range run.Chunks(ctx) {
		if c.Type == stream.TypeToolCall {
			break
		}
	}
	other, _ := a.AbortThread(ctx, agent.ThreadAbort{ThreadID: "thread-1", ResourceID: "user-1", ExpectedRunID: "another-run"})
	own, _ := a.AbortThread(ctx, agent.ThreadAbort{ThreadID: "thread-1", ResourceID: "user-1"})
	<-run.Done()
	fmt.Println(other, own)
	// Output: false true
}

// Detach runs any of the agent's streams detached from the caller, here
// a plain stream; the handle's readers may come and go.
func ExampleAgent_Detach() {
	a, err := agent.New(agent.Config{ID: "greeter", Model: mock.New(mock.Step{Text: "Hello there."})})
	if err != nil {
		panic(err)
	}
	run, err := a.Detach(context.Background(), func(ctx context.Context) iter.Seq2[stream.Chunk, error] {
		return a.Stream(ctx, "Hi")
	})
	if err != nil {
		panic(err)
	}
	n := 0
	for range run.Chunks(context.Background()) {
		n++
	}
	fmt.Println(n, "chunks")
	// Output: 8 chunks
}

// A server answers a request with a run's stream through Follow: the
// reader here stops after the first text, as a client that goes away
// would; the run still finishes, and a reader that comes back reads the
// rest with Observe from the next index.
func ExampleAgent_Follow() {
	a, err := agent.New(agent.Config{ID: "greeter", Model: mock.New(mock.Step{TextChunks: []string{"Hello ", "there."}})})
	if err != nil {
		panic(err)
	}
	run := func(ctx context.Context) iter.Seq2[stream.Chunk, error] {
		return a.Stream(ctx, "Hi", agent.WithRunID("run-2"))
	}
	read := 0
	for c, err := range a.Follow(context.Background(), run) {
		if err != nil {
			panic(err)
		}
		read++
		if c.Type == stream.TypeTextDelta {
			break // the client went away
		}
	}
	for e, err := range a.Observe(context.Background(), "run-2", int64(read)) {
		if err != nil {
			panic(err)
		}
		if e.Type == agent.RunEventChunk || e.Type == agent.RunEventFinish {
			fmt.Println(e.Index, e.Chunk.Type)
		}
	}
	// Output:
	// 4 text-delta
	// 5 text-end
	// 6 step-finish
	// 8 finish
}
