package enginetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra"
	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/workflows"
)

// WorkflowCase is one behaviour of the workflow suite. Its test builds
// a registry of workflows, hands it to setup — which makes the engine
// run them: nothing for the in-process engine, UseLauncher on each for
// an engine of workers — then runs them through the workflows package's
// own API, as an app or the HTTP server does.
type WorkflowCase struct {
	Name string
	Test func(t *testing.T, setup func(*testing.T, *mastra.Mastra))
}

// WorkflowCases are the workflow suite's behaviours, in order.
var WorkflowCases = []WorkflowCase{
	{"Sequence", wfSequence},
	{"ParallelAndBranch", wfParallelAndBranch},
	{"LoopAndForeach", wfLoopAndForeach},
	{"SuspendAndResume", wfSuspendAndResume},
	{"StepError", wfStepError},
	{"Sleep", wfSleep},
	{"CancelSuspended", wfCancelSuspended},
	{"CancelRunning", wfCancelRunning},
}

// RunWorkflows runs every workflow case on the engine setup prepares.
func RunWorkflows(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	for _, c := range WorkflowCases {
		t.Run(c.Name, func(t *testing.T) { c.Test(t, setup) })
	}
}

type num struct {
	N int `json:"n"`
}

// wfStore is one SQLite store in memory for a case's workflows: their
// snapshots and run event logs, which every process of an engine shares.
func wfStore(t *testing.T) storage.Runs {
	t.Helper()
	store, err := sqlite.Open(context.Background(), sqlite.Memory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// wfRegistry commits the workflows and registers them under their ids,
// then hands the registry to setup.
func wfRegistry(t *testing.T, setup func(*testing.T, *mastra.Mastra), wfs ...*workflows.Workflow) *mastra.Mastra {
	t.Helper()
	byKey := map[string]*workflows.Workflow{}
	for _, w := range wfs {
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		byKey[w.ID()] = w
	}
	m := mastra.New(mastra.Config{Workflows: byKey})
	setup(t, m)
	return m
}

// plus is a step that adds k, counting its runs in c.
func plus(c *counts, id string, k int) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[num, num]{ID: id, Execute: func(ctx workflows.StepContext, in num) (num, error) {
		c.add(id)
		return num{N: in.N + k}, nil
	}})
}

// stream runs a fresh run of w on in and returns its chunks and result.
func streamRun(t *testing.T, w *workflows.Workflow, in any) (*workflows.Run, []stream.Chunk) {
	t.Helper()
	run := w.CreateRun()
	var chunks []stream.Chunk
	for c, err := range run.Stream(ctxOf(t), in, nil) {
		if err != nil {
			t.Fatalf("stream: %v (chunks %v)", err, chunkTypes(chunks))
		}
		chunks = append(chunks, c)
	}
	return run, chunks
}

func chunkTypes(chunks []stream.Chunk) []string {
	var ts []string
	for _, c := range chunks {
		ts = append(ts, c.Type)
	}
	return ts
}

func wantStatus(t *testing.T, res *workflows.Result, status string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %s, want %s (error %v)", res.Status, status, res.Error)
	}
}

func wantJSON(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("result %s: %v", got, err)
	}
	_ = json.Unmarshal([]byte(want), &w)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("result %s, want %s", gb, wb)
	}
}

// wfSequence: steps run in order, each once; the stream is start, each
// step's start and result, finish.
func wfSequence(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	w := workflows.New(workflows.Config{ID: "seq", Storage: wfStore(t)}).Then(plus(&c, "one", 1)).Then(plus(&c, "ten", 10))
	wfRegistry(t, setup, w)
	run, chunks := streamRun(t, w, num{N: 1})
	res := run.Result()
	wantStatus(t, res, workflows.StatusSuccess)
	wantJSON(t, res.Result, `{"n":12}`)
	want := []string{stream.TypeWorkflowStart, stream.TypeWorkflowStepStart, stream.TypeWorkflowStepResult,
		stream.TypeWorkflowStepStart, stream.TypeWorkflowStepResult, stream.TypeWorkflowFinish}
	if got := chunkTypes(chunks); !slices.Equal(got, want) {
		t.Errorf("chunks %v, want %v", got, want)
	}
	c.want(t, "one", 1)
	c.want(t, "ten", 1)
}

// wfParallelAndBranch: parallel steps' outputs keyed by step id; a
// branch runs the case whose condition holds.
func wfParallelAndBranch(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	sumBoth := func(_ context.Context, in workflows.MapInput) (any, error) {
		var both map[string]num
		if err := json.Unmarshal(in.Output, &both); err != nil {
			return nil, err
		}
		return num{N: both["left"].N + both["right"].N}, nil
	}
	big := func(_ context.Context, in workflows.ConditionInput) (bool, error) {
		return strings.Contains(string(in.Output), "12"), nil
	}
	small := func(ctx context.Context, in workflows.ConditionInput) (bool, error) {
		ok, err := big(ctx, in)
		return !ok, err
	}
	w := workflows.New(workflows.Config{ID: "fork", Storage: wfStore(t)}).
		Parallel(plus(&c, "left", 1), plus(&c, "right", 5)).Map(sumBoth).
		Branch(workflows.When(big, plus(&c, "bigger", 100)), workflows.When(small, plus(&c, "smaller", -100)))
	wfRegistry(t, setup, w)
	run, _ := streamRun(t, w, num{N: 3})
	res := run.Result()
	wantStatus(t, res, workflows.StatusSuccess)
	wantJSON(t, res.Result, `{"bigger":{"n":112}}`)
	c.want(t, "left", 1)
	c.want(t, "right", 1)
	c.want(t, "bigger", 1)
	c.want(t, "smaller", 0)
}

// wfLoopAndForeach: a loop runs its step until its condition holds; a
// foreach runs its step on each element, outputs in order.
func wfLoopAndForeach(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	reached := func(_ context.Context, in workflows.ConditionInput) (bool, error) {
		var n num
		err := json.Unmarshal(in.Output, &n)
		return n.N >= 3, err
	}
	spread := func(_ context.Context, in workflows.MapInput) (any, error) {
		var n num
		err := json.Unmarshal(in.Output, &n)
		return []num{{N: n.N}, {N: n.N * 10}, {N: n.N * 100}}, err
	}
	w := workflows.New(workflows.Config{ID: "loops", Storage: wfStore(t)}).
		DoUntil(plus(&c, "step", 1), reached).Map(spread).Foreach(plus(&c, "each", 1), 2)
	wfRegistry(t, setup, w)
	run, _ := streamRun(t, w, num{N: 0})
	res := run.Result()
	wantStatus(t, res, workflows.StatusSuccess)
	wantJSON(t, res.Result, `[{"n":4},{"n":31},{"n":301}]`)
	c.want(t, "step", 3)
	c.want(t, "each", 3)
}

type answerData struct {
	Answer string `json:"answer"`
}

// asker suspends until resumed with an answer.
func asker(c *counts) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[num, answerData]{ID: "ask", ResumeSchema: workflows.MustSchemaFor[answerData](),
		Execute: func(ctx workflows.StepContext, in num) (answerData, error) {
			c.add("ask")
			var a answerData
			if data := ctx.ResumeData(); data != nil {
				err := json.Unmarshal(data, &a)
				return a, err
			}
			return a, ctx.Suspend(map[string]any{"question": "go on?", "n": in.N})
		}})
}

// wfSuspendAndResume: a step suspends (the stream ends with a suspended
// finish); the run, loaded from storage as another process would, is
// resumed with data; the step before the suspension does not run again.
func wfSuspendAndResume(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	w := workflows.New(workflows.Config{ID: "asking", Storage: wfStore(t)}).Then(plus(&c, "before", 1)).Then(asker(&c))
	wfRegistry(t, setup, w)
	run, chunks := streamRun(t, w, num{N: 1})
	wantStatus(t, run.Result(), workflows.StatusSuspended)
	last := chunks[len(chunks)-1]
	if last.Type != stream.TypeWorkflowFinish || !strings.Contains(string(mustJSON(last.Payload)), `"suspended"`) {
		t.Fatalf("the stream ends with %s %s, want a suspended workflow-finish", last.Type, mustJSON(last.Payload))
	}
	loaded, err := w.LoadRun(ctxOf(t), run.ID())
	if err != nil {
		t.Fatal(err)
	}
	var resumed []stream.Chunk
	for ch, err := range loaded.ResumeStream(ctxOf(t), workflows.ResumeOptions{Data: answerData{Answer: "yes"}}) {
		if err != nil {
			t.Fatalf("resume: %v", err)
		}
		resumed = append(resumed, ch)
	}
	res := loaded.Result()
	wantStatus(t, res, workflows.StatusSuccess)
	wantJSON(t, res.Result, `{"answer":"yes"}`)
	if got := chunkTypes(resumed); len(got) == 0 || got[0] != stream.TypeWorkflowStart || got[len(got)-1] != stream.TypeWorkflowFinish {
		t.Errorf("resumed chunks %v: want workflow-start ... workflow-finish", got)
	}
	c.want(t, "before", 1)
	c.want(t, "ask", 2)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// wfStepError: a step's error fails the run with its message; the steps
// after it do not run.
func wfStepError(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	broken := workflows.NewStep(workflows.StepConfig[num, num]{ID: "broken", Execute: func(workflows.StepContext, num) (num, error) {
		c.add("broken")
		return num{}, errors.New("the gauge is broken")
	}})
	w := workflows.New(workflows.Config{ID: "failing", Storage: wfStore(t)}).Then(broken).Then(plus(&c, "after", 1))
	wfRegistry(t, setup, w)
	run, _ := streamRun(t, w, num{N: 1})
	res := run.Result()
	wantStatus(t, res, workflows.StatusFailed)
	if res.Error == nil || !strings.Contains(res.Error.Message, "the gauge is broken") {
		t.Errorf("error %+v, want the step's", res.Error)
	}
	c.want(t, "broken", 1)
	c.want(t, "after", 0)
}

// wfSleep: a sleep node waits between steps.
func wfSleep(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	w := workflows.New(workflows.Config{ID: "sleepy", Storage: wfStore(t)}).
		Then(plus(&c, "first", 1)).Sleep(50 * time.Millisecond).Then(plus(&c, "second", 1))
	wfRegistry(t, setup, w)
	run, _ := streamRun(t, w, num{N: 0})
	res := run.Result()
	wantStatus(t, res, workflows.StatusSuccess)
	wantJSON(t, res.Result, `{"n":2}`)
	c.want(t, "first", 1)
	c.want(t, "second", 1)
}

// wfCancelSuspended: a suspended run canceled (by a process that loaded
// it) stays canceled and can no longer be resumed.
func wfCancelSuspended(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	w := workflows.New(workflows.Config{ID: "dropped", Storage: wfStore(t)}).Then(asker(&c))
	wfRegistry(t, setup, w)
	run, _ := streamRun(t, w, num{N: 1})
	wantStatus(t, run.Result(), workflows.StatusSuspended)
	loaded, err := w.LoadRun(ctxOf(t), run.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.CancelContext(ctxOf(t)); err != nil {
		t.Fatal(err)
	}
	again, err := w.LoadRun(ctxOf(t), run.ID())
	if err != nil {
		t.Fatal(err)
	}
	if again.Status() != workflows.StatusCanceled {
		t.Fatalf("stored status %s, want canceled", again.Status())
	}
	if _, err := again.Resume(ctxOf(t), workflows.ResumeOptions{Data: answerData{Answer: "late"}}); err == nil {
		t.Error("a canceled run was resumed")
	}
	c.want(t, "ask", 1)
}

// wfCancelRunning: canceling a run whose step runs ends the step's
// context and the run, canceled; the steps after it do not run.
func wfCancelRunning(t *testing.T, setup func(*testing.T, *mastra.Mastra)) {
	var c counts
	started := make(chan struct{})
	blocking := workflows.NewStep(workflows.StepConfig[num, num]{ID: "blocking", Execute: func(ctx workflows.StepContext, in num) (num, error) {
		c.add("blocking")
		close(started)
		<-ctx.Done()
		return num{}, ctx.Err()
	}})
	w := workflows.New(workflows.Config{ID: "endless", Storage: wfStore(t)}).Then(blocking).Then(plus(&c, "after", 1))
	wfRegistry(t, setup, w)
	run := w.CreateRun()
	go func() {
		select {
		case <-started:
			run.Cancel()
		case <-time.After(time.Minute):
		}
	}()
	var chunks []stream.Chunk
	for ch, err := range run.Stream(ctxOf(t), num{N: 1}, nil) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		chunks = append(chunks, ch)
	}
	wantStatus(t, run.Result(), workflows.StatusCanceled)
	if !slices.Contains(chunkTypes(chunks), stream.TypeWorkflowCanceled) {
		t.Errorf("chunks %v: no workflow-canceled", chunkTypes(chunks))
	}
	c.want(t, "blocking", 1)
	c.want(t, "after", 0)
}
