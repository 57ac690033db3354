package agent_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/agent"
	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
	"github.com/gomastra/mastra/tools/builtin"
)

// An agent that merely offers a tool able to wait for a person (ask_user)
// still runs the step's calls side by side: each of the five calls waits
// until all five have started (a run that ran them one at a time would
// hit the deadline).
func TestCallsRunInParallelWhenAskUserIsOnlyOffered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var started sync.WaitGroup
	started.Add(5)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	meet := tools.New(tools.Config[napIn, napOut]{ID: "meet", Execute: func(ctx tools.Context, in napIn) (napOut, error) {
		started.Done()
		select {
		case <-all:
			return napOut(in), nil
		case <-ctx.Done():
			return napOut{}, fmt.Errorf("the other calls did not run alongside: %w", ctx.Err())
		}
	}})
	var calls []mock.ToolCall
	for i := range 5 {
		calls = append(calls, mock.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "meet", Args: fmt.Sprintf(`{"n":%d}`, i)})
	}
	a, err := agent.New(agent.Config{ID: "meet", Model: mock.New(mock.Step{ToolCalls: calls}, mock.Step{Text: "met"}),
		Tools: tools.Set{"meet": meet, "ask_user": builtin.AskUserTool}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.Generate(ctx, "meet")
	if err != nil || out.Text != "met" {
		t.Fatalf("the calls did not overlap: %v, finish %s", err, out.FinishReason)
	}
	var got []string
	for _, c := range out.ToolResults {
		got = append(got, c.Payload.(stream.ToolResultPayload).ToolCallID)
	}
	if want := []string{"c0", "c1", "c2", "c3", "c4"}; !slices.Equal(got, want) {
		t.Errorf("results %v, want them in call order %v", got, want)
	}
}
