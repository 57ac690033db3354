// Command loopbench runs the agent loop with the scripted model: K tool
// steps (one add call each) then a final text, N times, so its peak RSS can
// be read with /usr/bin/time -v (the memory figure; Mastra's
// anchor: bench/agent-steps.mjs).
//
//	go build -o /tmp/loopbench ./examples/loopbench && /usr/bin/time -v /tmp/loopbench -k 50 -n 100
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/tools"
)

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

func main() { os.Exit(run(os.Args[1:], os.Stdout)) }

func run(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("loopbench", flag.ContinueOnError)
	k := fs.Int("k", 50, "tool steps per run")
	n := fs.Int("n", 100, "runs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	add := tools.New(tools.Config[addIn, addOut]{ID: "add", Description: "Add two integers",
		Execute: func(_ tools.Context, in addIn) (addOut, error) { return addOut{Sum: in.A + in.B}, nil }})
	steps := make([]mock.Step, 0, *k+1)
	for i := 0; i < *k; i++ {
		steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{ID: fmt.Sprintf("call-%d", i), Name: "add", Args: `{"a":2,"b":3}`}}})
	}
	steps = append(steps, mock.Step{Text: "The sum is 5."})
	start := time.Now()
	for i := 0; i < *n; i++ {
		a, err := agent.New(agent.Config{ID: "bench", Model: mock.New(steps...), Tools: tools.Set{"add": add}, MaxSteps: *k + 1})
		if err != nil {
			fmt.Fprintln(stdout, err)
			return 1
		}
		out, err := a.Generate(context.Background(), "add")
		if err != nil || out.FinishReason != "stop" {
			fmt.Fprintln(stdout, "run failed:", err, out.FinishReason)
			return 1
		}
	}
	d := time.Since(start)
	fmt.Fprintf(stdout, "%d runs of %d tool steps + 1: %v per run, %v per step\n", *n, *k, d/time.Duration(*n), d/time.Duration(*n*(*k+1)))
	return 0
}
