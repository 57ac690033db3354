package agent

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/model/mock"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

// twoStepModel calls add, then answers.
func twoStepModel() *mock.Model {
	return mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "add", Args: `{"a":2,"b":3}`}}},
		mock.Step{TextChunks: []string{"The ", "sum ", "is ", "5."}},
	)
}

func observeAll(t *testing.T, a *Agent, runID string, offset int64) ([]RunEvent, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []RunEvent
	for e, err := range a.Observe(ctx, runID, offset) {
		if err != nil {
			return out, err
		}
		out = append(out, e)
	}
	return out, nil
}

func eventLabels(events []RunEvent) []string {
	var ls []string
	for _, e := range events {
		if e.Type == RunEventChunk {
			ls = append(ls, e.Chunk.Type)
		} else {
			ls = append(ls, e.Type)
		}
	}
	return ls
}

// TestObserveReplaysARunAsMastraFramesIt: a streamed run's log holds its
// chunks framed as Mastra's observe events, iteration-complete after
// each step-finish, finish last, indexes contiguous.
func TestObserveReplaysARunAsMastraFramesIt(t *testing.T) {
	a := newAgent(t, twoStepModel(), tools.Set{"add": addTool()})
	chunks := collect(t, a, "What is 2+3?", WithRunID("run-obs-1"))
	events, err := observeAll(t, a, "run-obs-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"start", "step-start", "tool-call-input-streaming-start", "tool-call-delta",
		"tool-call-input-streaming-end", "tool-call", "tool-result", "step-finish", "iteration-complete",
		"step-start", "text-start", "text-delta", "text-delta", "text-delta", "text-delta", "text-end",
		"step-finish", "iteration-complete", "finish"}
	if d := cmp.Diff(want, eventLabels(events)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	for i, e := range events {
		if e.Index != int64(i) || e.Live || e.CreatedAt.IsZero() {
			t.Errorf("event %d: index %d live %v createdAt %v", i, e.Index, e.Live, e.CreatedAt)
		}
	}
	if len(chunks) != len(events)-2 {
		t.Errorf("stream had %d chunks, log %d events", len(chunks), len(events))
	}
	first, last := events[8].Iteration, events[17].Iteration
	if first == nil || first.Iteration != 1 || first.MaxIterations != 5 || first.IsFinal || first.FinishReason != "tool-calls" ||
		len(first.ToolCalls) != 1 || len(first.ToolResults) != 1 || first.AgentID != "calc-agent" || first.RunID != "run-obs-1" {
		t.Errorf("first iteration: %+v", first)
	}
	if last == nil || last.Iteration != 2 || !last.IsFinal || last.Text != "The sum is 5." || last.FinishReason != "stop" {
		t.Errorf("last iteration: %+v", last)
	}
	if p, ok := events[18].Chunk.Payload.(stream.FinishPayload); !ok || p.StepResult.Reason != "stop" {
		t.Errorf("finish: %+v", events[20].Chunk)
	}
}

// TestObserveOffsets: a mid offset reads the rest; the count ends at
// once; past it, negative, and an unknown run are errors.
func TestObserveOffsets(t *testing.T) {
	a := newAgent(t, twoStepModel(), tools.Set{"add": addTool()})
	collect(t, a, "What is 2+3?", WithRunID("run-1"))
	mid, err := observeAll(t, a, "run-1", 10)
	if err != nil || len(mid) != 9 || mid[0].Index != 10 || mid[8].Type != RunEventFinish {
		t.Fatalf("offset 10: %d events, %v", len(mid), err)
	}
	if end, err := observeAll(t, a, "run-1", 19); err != nil || len(end) != 0 {
		t.Fatalf("offset 19 (the count): %d events, %v", len(end), err)
	}
	var oe *OffsetError
	if _, err := observeAll(t, a, "run-1", 20); !errors.As(err, &oe) || oe.Count != 19 {
		t.Fatalf("offset 20: %v", err)
	}
	if _, err := observeAll(t, a, "run-1", -1); !errors.As(err, &oe) || oe.Count != -1 {
		t.Fatalf("offset -1: %v", err)
	}
	if _, err := observeAll(t, a, "no-such-run", 0); !errors.Is(err, ErrRunNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
}

// gate is a tool that blocks until released or its context ends, and
// reports what its context saw.
type gate struct {
	started, release chan struct{}
	cause            chan error
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 4), release: make(chan struct{}), cause: make(chan error, 4)}
}

func (g *gate) tool() *tools.Tool {
	return tools.New(tools.Config[addIn, addOut]{ID: "slow_add", Execute: func(ctx tools.Context, in addIn) (addOut, error) {
		g.started <- struct{}{}
		select {
		case <-g.release:
		case <-ctx.Done():
			g.cause <- context.Cause(ctx)
		}
		return addOut{Sum: in.A + in.B}, nil // returns anyway, as the captured JS tool does
	}})
}

func slowModel() *mock.Model {
	return mock.New(
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-1", Name: "slow_add", Args: `{"a":0,"b":1}`}}},
		mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-2", Name: "slow_add", Args: `{"a":1,"b":1}`}}},
		mock.Step{Text: "Done adding."},
	)
}

func waitStarted(t *testing.T, g *gate) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool did not start")
	}
}

func waitDone(t *testing.T, h *RunHandle) {
	t.Helper()
	select {
	case <-h.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end")
	}
}

// TestStartOutlivesItsContext: a started run goes on when the caller's
// context is cancelled and its reader stops; a reader that comes later
// reads it all.
func TestStartOutlivesItsContext(t *testing.T) {
	g := newGate()
	a := newAgent(t, slowModel(), tools.Set{"slow_add": g.tool()})
	ctx, cancel := context.WithCancel(context.Background())
	h, err := a.Start(ctx, "add slowly", WithRunID("run-dc-1"))
	if err != nil {
		t.Fatal(err)
	}
	for c, err := range h.Chunks(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		if c.Type == stream.TypeToolCall {
			break // the reader goes away mid-run
		}
	}
	cancel()
	waitStarted(t, g)
	g.release <- struct{}{}
	waitStarted(t, g)
	g.release <- struct{}{}
	waitDone(t, h)
	events, err := observeAll(t, a, "run-dc-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	if p, ok := last.Chunk.Payload.(stream.FinishPayload); !ok || p.StepResult.Reason != "stop" || p.Output.Text != "Done adding." {
		t.Fatalf("last event: %+v", last)
	}
}

// TestObserveFollowsALiveRun: a reader that joins mid-run gets the
// history, then live events (marked Live), up to the finish.
func TestObserveFollowsALiveRun(t *testing.T) {
	g := newGate()
	a := newAgent(t, slowModel(), tools.Set{"slow_add": g.tool()})
	h, err := a.Start(context.Background(), "add slowly", WithRunID("run-live-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarted(t, g)
	got := make(chan []RunEvent, 1)
	go func() {
		events, _ := observeAll(t, a, "run-live-1", 3)
		got <- events
	}()
	time.Sleep(50 * time.Millisecond)
	g.release <- struct{}{}
	waitStarted(t, g)
	g.release <- struct{}{}
	waitDone(t, h)
	events := <-got
	if len(events) == 0 || events[0].Index != 3 || events[0].Live || !events[len(events)-1].Live || events[len(events)-1].Type != RunEventFinish {
		t.Fatalf("events: %v", eventLabels(events))
	}
}

// TestAbortRunEndsTheStepThenFinishesWithAbort: the tool in flight sees
// its context cancelled with ErrRunAborted and its result is kept; the
// step finishes, the run finishes with reason "abort"; no second call.
func TestAbortRunEndsTheStepThenFinishesWithAbort(t *testing.T) {
	g := newGate()
	m := slowModel()
	a := newAgent(t, m, tools.Set{"slow_add": g.tool()})
	h, err := a.Start(context.Background(), "add slowly", WithRunID("run-abort-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarted(t, g)
	if ok, err := a.AbortRun(context.Background(), "run-abort-1"); !ok || err != nil {
		t.Fatalf("abort: %v %v", ok, err)
	}
	if cause := <-g.cause; !errors.Is(cause, ErrRunAborted) {
		t.Errorf("the tool's context cause: %v", cause)
	}
	waitDone(t, h)
	if ok, err := a.AbortRun(context.Background(), "run-abort-1"); ok || err != nil {
		t.Errorf("abort of an ended run: %v %v", ok, err)
	}
	events, err := observeAll(t, a, "run-abort-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"start", "step-start", "tool-call-input-streaming-start", "tool-call-delta",
		"tool-call-input-streaming-end", "tool-call", "tool-result", "step-finish", "finish"}
	if d := cmp.Diff(want, eventLabels(events)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	p := events[len(events)-1].Chunk.Payload.(stream.FinishPayload)
	if p.StepResult.Reason != "abort" || p.Output.Text != "" {
		t.Errorf("finish: reason %q text %q", p.StepResult.Reason, p.Output.Text)
	}
	if n := len(m.Calls()); n != 1 {
		t.Errorf("%d model calls, want 1", n)
	}
}

// TestAbortThread: the thread's active run is found with its resource
// only, and only when the expected run id, if any, is its own.
func TestAbortThread(t *testing.T) {
	g := newGate()
	a := newAgent(t, slowModel(), tools.Set{"slow_add": g.tool()})
	h, err := a.Start(context.Background(), "add slowly", WithRunID("run-t-1"), WithMemory("thread-abort", "user-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarted(t, g)
	ctx := context.Background()
	for _, c := range []struct {
		t    ThreadAbort
		want bool
	}{
		{ThreadAbort{ThreadID: "thread-abort", ResourceID: "user-1", ExpectedRunID: "other-run"}, false},
		{ThreadAbort{ThreadID: "thread-abort"}, false},
		{ThreadAbort{ThreadID: "no-such-thread", ResourceID: "user-1"}, false},
		{ThreadAbort{ThreadID: "thread-abort", ResourceID: "user-1", ExpectedRunID: "run-t-1"}, true},
	} {
		if got, err := a.AbortThread(ctx, c.t); got != c.want || err != nil {
			t.Errorf("%+v: %v %v, want %v", c.t, got, err, c.want)
		}
		if !c.want {
			select {
			case <-g.cause:
				t.Fatalf("%+v aborted the run", c.t)
			default:
			}
		}
	}
	waitDone(t, h)
	// Without an expected run id, the thread's next run is stopped (a run
	// of its own: the aborted one may have ended already).
	h, err = a.Start(ctx, "add slowly again", WithRunID("run-t-2"), WithMemory("thread-abort", "user-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitStarted(t, g)
	if got, err := a.AbortThread(ctx, ThreadAbort{ThreadID: "thread-abort", ResourceID: "user-1"}); !got || err != nil {
		t.Errorf("abort of the thread's run without an expected run id: %v %v, want true", got, err)
	}
	waitDone(t, h)
	if got, _ := a.AbortThread(ctx, ThreadAbort{ThreadID: "thread-abort", ResourceID: "user-1"}); got {
		t.Error("abort of an idle thread: true")
	}
}

// TestEndedLogsAreSweptAfterRetention: a run's log is removed once the
// retention has passed (on a later run's end).
func TestEndedLogsAreSweptAfterRetention(t *testing.T) {
	m := mock.New(mock.Step{Text: "one"}, mock.Step{Text: "two"}, mock.Step{Text: "three"})
	a := newAgent(t, m, nil, func(c *Config) { c.EventRetention = 20 * time.Millisecond })
	collect(t, a, "hi", WithRunID("old"))
	time.Sleep(60 * time.Millisecond)
	collect(t, a, "hi", WithRunID("new"))
	if _, err := observeAll(t, a, "old", 0); !errors.Is(err, ErrRunNotFound) {
		t.Errorf("old run: %v", err)
	}
	if events, err := observeAll(t, a, "new", 0); err != nil || len(events) == 0 {
		t.Errorf("new run: %d events, %v", len(events), err)
	}
}

// TestObserveASuspendedRunEndsThenItsResumeGoesOn: a run that waits for
// an approval ends its events without hanging a reader; the approval's
// run appends after them, and a reader from 0 then reads across the
// stop to the finish.
func TestObserveASuspendedRunEndsThenItsResumeGoesOn(t *testing.T) {
	a := newAgent(t, twoStepModel(), tools.Set{"add": addTool()})
	chunks := collect(t, a, "What is 2+3?", WithRunID("run-s-1"), WithRequireToolApproval(true))
	if last := chunks[len(chunks)-1]; last.Type != stream.TypeToolCallApproval {
		t.Fatalf("the run did not suspend: %v", types(chunks))
	}
	before, err := observeAll(t, a, "run-s-1", 0)
	if err != nil || len(before) != len(chunks) {
		t.Fatalf("observe of the suspended run: %d events, %v", len(before), err)
	}
	for _, err := range a.ApproveToolCall(context.Background(), "run-s-1", "call-1") {
		if err != nil {
			t.Fatal(err)
		}
	}
	all, err := observeAll(t, a, "run-s-1", 0)
	if err != nil || all[len(all)-1].Type != RunEventFinish {
		t.Fatalf("observe after the approval: %v %v", eventLabels(all), err)
	}
	after, err := observeAll(t, a, "run-s-1", int64(len(before))+1)
	if err != nil || len(after) != len(all)-len(before) || after[0].Chunk.Type != stream.TypeToolResult {
		t.Fatalf("observe from after the stop: %v %v", eventLabels(after), err)
	}
}

// TestObserveLongRunsAcrossBlocks: a run of more events than a block of
// the in-process log holds reads back whole, in order.
func TestObserveLongRunsAcrossBlocks(t *testing.T) {
	var steps []mock.Step
	for i := range 30 {
		steps = append(steps, mock.Step{ToolCalls: []mock.ToolCall{{ID: "call-" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Name: "add", Args: `{"a":1,"b":1}`}}})
	}
	steps = append(steps, mock.Step{Text: "Done."})
	a := newAgent(t, mock.New(steps...), tools.Set{"add": addTool()}, func(c *Config) { c.MaxSteps = 40 })
	chunks := collect(t, a, "add a lot", WithRunID("long"))
	events, err := observeAll(t, a, "long", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range events {
		if e.Index != int64(i) {
			t.Fatalf("event %d has index %d", i, e.Index)
		}
		if e.Type != RunEventIterationComplete {
			got = append(got, e.Chunk.Type)
		}
	}
	if d := cmp.Diff(types(chunks), got); d != "" || len(events) < 200 {
		t.Fatalf("%d events; chunks (-stream +log):\n%s", len(events), d)
	}
	tail, err := observeAll(t, a, "long", 150)
	if err != nil || tail[0].Index != 150 || len(tail) != len(events)-150 {
		t.Fatalf("from 150: %d events, %v", len(tail), err)
	}
}

// fullReadEvents counts the reads of a whole run event log.
type fullReadEvents struct {
	storage.RunEvents
	full atomic.Int32
}

func (f *fullReadEvents) ReadEvents(ctx context.Context, runID string, from int64, limit int) ([]storage.Event, error) {
	if limit <= 0 {
		f.full.Add(1)
	}
	return f.RunEvents.ReadEvents(ctx, runID, from, limit)
}

// TestObserveAtTheEndReadsOnlyTheLastEvent: a reader at the end of a
// suspended run's log (a reconnect) does not read the whole log to know
// it is there; past the end is still an *OffsetError with the count.
func TestObserveAtTheEndReadsOnlyTheLastEvent(t *testing.T) {
	events := &fullReadEvents{RunEvents: storage.NewMemoryEvents()}
	a := newAgent(t, twoStepModel(), tools.Set{"add": addTool()}, func(c *Config) { c.Events = events })
	chunks := collect(t, a, "What is 2+3?", WithRunID("run-end"), WithRequireToolApproval(true))
	count := int64(len(chunks)) + 1 // and the pause
	if end, err := observeAll(t, a, "run-end", count); err != nil || len(end) != 0 {
		t.Fatalf("offset %d (the count): %d events, %v", count, len(end), err)
	}
	if n := events.full.Load(); n != 0 {
		t.Errorf("offset %d: %d reads of the whole log", count, n)
	}
	var oe *OffsetError
	if _, err := observeAll(t, a, "run-end", count+1); !errors.As(err, &oe) || oe.Count != count {
		t.Fatalf("offset %d: %v", count+1, err)
	}
	if _, err := observeAll(t, a, "no-such-run", 3); !errors.Is(err, ErrRunNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
}
