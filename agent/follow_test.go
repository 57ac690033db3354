package agent

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"

	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// TestFollowFinishesARunItsReaderLeft: the reader of a followed run
// stops mid-run; the run goes on to its end, and its log outlives the
// runs whose readers had every chunk.
func TestFollowFinishesARunItsReaderLeft(t *testing.T) {
	a := newAgent(t, twoStepModel(), tools.Set{"add": addTool()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := func(ctx context.Context) iter.Seq2[stream.Chunk, error] {
		return a.Stream(ctx, "add", WithRunID("run-left"))
	}
	read := 0
	for c, err := range a.Follow(ctx, run) {
		if err != nil {
			t.Fatal(err)
		}
		read++
		if c.Type == stream.TypeToolCall {
			cancel() // the request ends: the run must not
			break
		}
	}
	// The loop returned after the run ended: delivered runs do not push
	// its log out.
	for i := range maxDeliveredEndedLogs + 1 {
		b := newAgent(t, twoStepModel(), tools.Set{"add": addTool()})
		b.log = a.log
		for _, err := range b.Stream(context.Background(), "add", WithRunID(fmt.Sprintf("delivered-%d", i))) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	events, err := observeAll(t, a, "run-left", int64(read))
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	if p, ok := last.Chunk.Payload.(stream.FinishPayload); !ok || p.StepResult.Reason != "stop" || p.Output.Text != "The sum is 5." {
		t.Fatalf("last event: %+v", last)
	}
	if _, err := observeAll(t, a, "delivered-0", 0); !errors.Is(err, ErrRunNotFound) {
		t.Fatalf("the oldest delivered run: %v, want ErrRunNotFound", err)
	}
}
