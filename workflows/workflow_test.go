package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gomastra/mastra/schema"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/tools"
)

type num struct {
	N int `json:"n"`
}

func addStep(id string, k int) *Step {
	return NewStep(StepConfig[num, num]{ID: id, Execute: func(_ StepContext, in num) (num, error) { return num{N: in.N + k}, nil }})
}

func mustCommit(t *testing.T, w *Workflow) *Workflow {
	t.Helper()
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w
}

func start(t *testing.T, w *Workflow, input any) *Result {
	t.Helper()
	res, err := w.CreateRun().Start(context.Background(), input, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func chunks(t *testing.T, seq func(func(stream.Chunk, error) bool)) []stream.Chunk {
	t.Helper()
	var out []stream.Chunk
	for c, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func types(cs []stream.Chunk) string {
	var ts []string
	for _, c := range cs {
		ts = append(ts, c.Type)
	}
	return strings.Join(ts, " ")
}

func TestSequenceStreamsMastrasChunks(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "seq"}).Then(addStep("s1", 1)).Then(addStep("s2", 10)))
	run := w.CreateRun(WithRunID("run-seq"))
	cs := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	if got := types(cs); got != "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish" {
		t.Fatalf("chunks %s", got)
	}
	b, _ := json.Marshal(cs[2])
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	p := got["payload"].(map[string]any)
	delete(p, "stepCallId")
	delete(p, "startedAt")
	delete(p, "endedAt")
	want := map[string]any{"type": "workflow-step-result", "runId": "run-seq", "from": "WORKFLOW",
		"payload": map[string]any{"stepName": "s1", "id": "s1", "payload": map[string]any{"n": 1.0}, "status": "success", "output": map[string]any{"n": 2.0}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("step result chunk (-mastra +go):\n%s", d)
	}
	fin, _ := json.Marshal(cs[len(cs)-1].Payload)
	if string(fin) != `{"workflowStatus":"success","metadata":{},"output":{"usage":{"inputTokens":0,"outputTokens":0,"totalTokens":0,"cachedInputTokens":0,"cacheCreationInputTokens":0,"reasoningTokens":0}},"finalWorkflowResult":{"n":12}}` {
		t.Errorf("finish %s", fin)
	}
	res, _ := json.Marshal(run.result())
	var r map[string]any
	_ = json.Unmarshal(res, &r)
	if r["status"] != "success" || r["runId"] != "run-seq" || !cmp.Equal(r["result"], map[string]any{"n": 12.0}) ||
		!cmp.Equal(r["stepExecutionPath"], []any{"s1", "s2"}) || r["steps"].(map[string]any)["input"] == nil {
		t.Errorf("result %s", res)
	}
	if !strings.HasPrefix(string(res), `{"status":"success","steps":{"input":{"n":1},"s1":`) {
		t.Errorf("key order: %s", res)
	}
}

func TestParallelBranchAndMap(t *testing.T) {
	type pair struct {
		A num `json:"a"`
		B num `json:"b"`
	}
	sum := NewStep(StepConfig[pair, num]{ID: "sum", Execute: func(_ StepContext, p pair) (num, error) { return num{N: p.A.N + p.B.N}, nil }})
	w := mustCommit(t, New(Config{ID: "par"}).Parallel(addStep("a", 1), addStep("b", 2)).Then(sum))
	if res := start(t, w, num{N: 1}); string(res.Result) != `{"n":5}` {
		t.Errorf("parallel: %s", res.Result)
	}

	small := func(_ context.Context, c ConditionInput) (bool, error) {
		return strings.Contains(string(c.Output), `"n":1}`), nil
	}
	always := func(context.Context, ConditionInput) (bool, error) { return true, nil }
	never := func(context.Context, ConditionInput) (bool, error) { return false, nil }
	for _, c := range []struct {
		name  string
		cases []BranchCase
		want  string
	}{
		{"one", []BranchCase{When(small, addStep("small", 1)), When(never, addStep("big", 100))}, `{"small":{"n":2}}`},
		{"both", []BranchCase{When(always, addStep("x", 1)), When(always, addStep("y", 2))}, `{"x":{"n":2},"y":{"n":3}}`},
		{"none", []BranchCase{When(never, addStep("z", 1))}, `{}`},
	} {
		w := mustCommit(t, New(Config{ID: "br"}).Branch(c.cases...))
		if res := start(t, w, num{N: 1}); res.Status != StatusSuccess || string(res.Result) != c.want {
			t.Errorf("branch %s: %s %s", c.name, res.Status, res.Result)
		}
	}

	mapped := mustCommit(t, New(Config{ID: "map"}).Then(addStep("m1", 1)).Map(func(_ context.Context, m MapInput) (any, error) {
		var prev num
		_ = json.Unmarshal(m.Output, &prev)
		var init num
		_ = json.Unmarshal(m.InitData, &init)
		return num{N: prev.N*100 + init.N}, nil
	}).Then(addStep("m2", 0)))
	if res := start(t, mapped, num{N: 3}); string(res.Result) != `{"n":403}` {
		t.Errorf("map: %s", res.Result)
	}
}

func TestLoops(t *testing.T) {
	var seen []int
	below := func(_ context.Context, c ConditionInput) (bool, error) {
		seen = append(seen, c.Iteration)
		var v num
		_ = json.Unmarshal(c.Output, &v)
		return v.N < 3, nil
	}
	w := mustCommit(t, New(Config{ID: "while"}).DoWhile(addStep("inc", 1), below))
	res := start(t, w, num{N: 0})
	if string(res.Result) != `{"n":3}` || !cmp.Equal(seen, []int{1, 2, 3}) || res.Steps["inc"].Metadata["iterationCount"] != 3 {
		t.Errorf("dowhile: %s, iterations %v, %+v", res.Result, seen, res.Steps["inc"])
	}
	atLeast := func(_ context.Context, c ConditionInput) (bool, error) {
		var v num
		_ = json.Unmarshal(c.Output, &v)
		return v.N >= 3, nil
	}
	w = mustCommit(t, New(Config{ID: "until"}).DoUntil(addStep("inc", 1), atLeast))
	if res := start(t, w, num{N: 0}); string(res.Result) != `{"n":3}` {
		t.Errorf("dountil: %s", res.Result)
	}
}

func TestForeachKeepsOrderUnderItsConcurrency(t *testing.T) {
	var running, peak atomic.Int32
	slow := NewStep(StepConfig[num, num]{ID: "each", Execute: func(ctx StepContext, in num) (num, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond) // overlap the iterations (not a timed assertion)
		running.Add(-1)
		return num{N: in.N * 2}, nil
	}})
	toList := NewStep(StepConfig[num, []num]{ID: "list", Execute: func(_ StepContext, in num) ([]num, error) {
		out := make([]num, in.N)
		for i := range out {
			out[i] = num{N: i}
		}
		return out, nil
	}})
	w := mustCommit(t, New(Config{ID: "fe"}).Then(toList).Foreach(slow, 2))
	run := w.CreateRun()
	cs := chunks(t, run.Stream(context.Background(), num{N: 6}, nil))
	res := run.result()
	if string(res.Result) != `[{"n":0},{"n":2},{"n":4},{"n":6},{"n":8},{"n":10}]` || peak.Load() > 2 {
		t.Errorf("foreach: %s, peak concurrency %d", res.Result, peak.Load())
	}
	if n := strings.Count(types(cs), "workflow-step-progress"); n != 6 {
		t.Errorf("%d progress chunks", n)
	}
}

func TestStateInitDataStepResultsAndBail(t *testing.T) {
	type counter struct {
		C int `json:"c"`
	}
	bump := func(id string) *Step {
		return NewStep(StepConfig[num, num]{ID: id, Execute: func(ctx StepContext, in num) (num, error) {
			st, err := StateAs[counter](ctx)
			if err != nil {
				return num{}, err
			}
			return in, ctx.SetState(counter{C: st.C + 1})
		}})
	}
	check := NewStep(StepConfig[num, num]{ID: "check", Execute: func(ctx StepContext, in num) (num, error) {
		first, ok, err := StepResultAs[num](ctx, "b1")
		var init num
		_ = json.Unmarshal(ctx.InitData(), &init)
		if err != nil || !ok || first.N != in.N || init.N != 7 {
			return num{}, errors.New("earlier results not visible")
		}
		return in, nil
	}})
	w := mustCommit(t, New(Config{ID: "state", StateSchema: schema.MustFor[counter]()}).Then(bump("b1")).Then(bump("b2")).Then(check))
	res, err := w.CreateRun().Start(context.Background(), num{N: 7}, counter{C: 5})
	if err != nil || res.Status != StatusSuccess || string(res.State) != `{"c":7}` {
		t.Fatalf("state: %v %s %s %+v", err, res.Status, res.State, res.Error)
	}

	var after atomic.Bool
	bailer := NewStep(StepConfig[num, num]{ID: "bail", Execute: func(ctx StepContext, in num) (num, error) { return num{}, ctx.Bail(num{N: 99}) }})
	later := NewStep(StepConfig[num, num]{ID: "later", Execute: func(_ StepContext, in num) (num, error) { after.Store(true); return in, nil }})
	w = mustCommit(t, New(Config{ID: "bail"}).Then(bailer).Then(later))
	if res := start(t, w, num{N: 1}); res.Status != StatusSuccess || string(res.Result) != `{"n":99}` || after.Load() {
		t.Errorf("bail: %s %s, later ran %v", res.Status, res.Result, after.Load())
	}
}

func TestFailuresAndValidation(t *testing.T) {
	boom := NewStep(StepConfig[num, num]{ID: "boom", Execute: func(StepContext, num) (num, error) { return num{}, errors.New("kaboom") }})
	w := mustCommit(t, New(Config{ID: "fail"}).Then(addStep("a", 1)).Then(boom))
	res := start(t, w, num{N: 1})
	if res.Status != StatusFailed || res.Error == nil || res.Error.Message != "kaboom" || res.Steps["boom"].Status != StatusFailed {
		t.Fatalf("failed run: %+v", res)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"error":{"message":"kaboom","name":"Error"}`) {
		t.Errorf("failed result JSON: %s", b)
	}

	strict := mustCommit(t, New(Config{ID: "strict", InputSchema: schema.MustFor[num]()}).Then(addStep("a", 1)))
	_, err := strict.CreateRun().Start(context.Background(), map[string]any{"n": "one"}, nil)
	var we *Error
	if !errors.As(err, &we) || we.ID != "WORKFLOW_SCHEMA_VALIDATION_FAILED" || we.Message != "Invalid input data: \n- n: Invalid input: expected number, received string" {
		t.Errorf("invalid input: %v", err)
	}

	type text struct {
		S string `json:"s"`
	}
	needsText := NewStep(StepConfig[text, text]{ID: "needs", Execute: func(_ StepContext, in text) (text, error) { return in, nil }})
	mapped := mustCommit(t, New(Config{ID: "runtime"}).Then(addStep("a", 1)).Map(func(context.Context, MapInput) (any, error) { return map[string]any{}, nil }).Then(needsText))
	res = start(t, mapped, num{N: 1})
	if res.Status != StatusFailed || res.Error.Message != "Step input validation failed: \n- s: Invalid input: expected string, received undefined" {
		t.Errorf("step input: %+v", res.Error)
	}
}

func TestCommitChecksTheGraph(t *testing.T) {
	type text struct {
		S string `json:"s"`
	}
	needsText := NewStep(StepConfig[text, text]{ID: "needs", Execute: func(_ StepContext, in text) (text, error) { return in, nil }})
	err := New(Config{ID: "bad"}).Then(addStep("a", 1)).Then(needsText).Commit()
	if err == nil || !strings.Contains(err.Error(), `step "needs" cannot take the output of step "a": missing required property "s"`) {
		t.Errorf("mismatch: %v", err)
	}
	type wrong struct {
		N string `json:"n"`
	}
	wrongType := NewStep(StepConfig[wrong, wrong]{ID: "w", Execute: func(_ StepContext, in wrong) (wrong, error) { return in, nil }})
	if err := New(Config{ID: "bad2"}).Then(addStep("a", 1)).Then(wrongType).Commit(); err == nil || !strings.Contains(err.Error(), "property n: expected string, got integer") {
		t.Errorf("type mismatch: %v", err)
	}
	if err := New(Config{ID: "dup"}).Then(addStep("a", 1)).Then(addStep("a", 2)).Commit(); err == nil || !strings.Contains(err.Error(), `step id "a" is used twice`) {
		t.Errorf("duplicate ids: %v", err)
	}
	if err := New(Config{ID: "empty"}).Commit(); err == nil {
		t.Error("an empty workflow committed")
	}
	if _, err := New(Config{ID: "uncommitted"}).Then(addStep("a", 1)).CreateRun().Start(context.Background(), num{}, nil); err == nil {
		t.Error("an uncommitted workflow ran")
	}
	type pair struct {
		A num `json:"a"`
		B num `json:"b"`
	}
	takesPair := NewStep(StepConfig[pair, num]{ID: "p", Execute: func(_ StepContext, p pair) (num, error) { return p.A, nil }})
	if err := New(Config{ID: "par"}).Parallel(addStep("a", 1), addStep("c", 1)).Then(takesPair).Commit(); err == nil || !strings.Contains(err.Error(), `missing required property "b"`) {
		t.Errorf("parallel output checked: %v", err)
	}
}

type approval struct {
	OK bool `json:"ok"`
}

// gate suspends until resumed with {ok}.
func gate(id string, runs *atomic.Int32) *Step {
	return NewStep(StepConfig[num, num]{ID: id, SuspendSchema: schema.MustFor[map[string]string](), ResumeSchema: schema.MustFor[approval](),
		Execute: func(ctx StepContext, in num) (num, error) {
			runs.Add(1)
			a, ok, err := tools.ResumeDataAs[approval](ctx)
			if err != nil {
				return num{}, err
			}
			if !ok {
				return num{}, ctx.Suspend(map[string]string{"ask": "ok?"})
			}
			if !a.OK {
				return num{N: -1}, nil
			}
			return num{N: in.N + 1000}, nil
		}})
}

func TestSuspendAndResume(t *testing.T) {
	var runs atomic.Int32
	w := mustCommit(t, New(Config{ID: "sus"}).Then(addStep("pre", 1)).Then(gate("sus", &runs)).Then(addStep("post", 1)))
	run := w.CreateRun()
	cs := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	if got := types(cs); !strings.HasSuffix(got, "workflow-step-start workflow-step-suspended workflow-finish") {
		t.Errorf("suspended stream: %s", got)
	}
	res := run.result()
	b, _ := json.Marshal(res)
	if res.Status != StatusSuspended || !cmp.Equal(res.Suspended, [][]string{{"sus"}}) || !strings.Contains(string(b), `"suspendPayload":{"sus":{"ask":"ok?"}}`) {
		t.Fatalf("suspended result: %s", b)
	}
	_, err := run.Resume(context.Background(), ResumeOptions{Step: []string{"bogus"}, Data: approval{OK: true}})
	var we *Error
	if !errors.As(err, &we) || we.Message != `This workflow step "bogus" was not suspended. Available suspended steps: [sus]` {
		t.Errorf("wrong step: %v", err)
	}
	if _, err := run.Resume(context.Background(), ResumeOptions{Step: []string{"sus"}, Data: map[string]any{"ok": "yes"}}); !errors.As(err, &we) || we.Message != "Invalid resume data: \n- ok: Invalid input: expected boolean, received string" {
		t.Errorf("bad resume data: %v", err)
	}
	cs = chunks(t, run.ResumeStream(context.Background(), ResumeOptions{Step: []string{"sus"}, Data: approval{OK: true}}))
	if got := types(cs); got != "workflow-start workflow-step-start workflow-step-result workflow-step-start workflow-step-result workflow-finish" {
		t.Errorf("resumed stream: %s", got)
	}
	res = run.result()
	if res.Status != StatusSuccess || string(res.Result) != `{"n":1003}` || runs.Load() != 2 || res.Steps["sus"].ResumePayload == nil {
		t.Errorf("resumed: %s %s, gate ran %d", res.Status, res.Result, runs.Load())
	}
	if _, err := run.Resume(context.Background(), ResumeOptions{Data: approval{OK: true}}); !errors.Is(err, errNotSuspended) {
		t.Errorf("resume of a finished run: %v", err)
	}
}

func TestSuspendInsideParallelAndForeach(t *testing.T) {
	var runs atomic.Int32
	w := mustCommit(t, New(Config{ID: "ps"}).Parallel(gate("ps1", &runs), gate("ps2", &runs), addStep("plain", 1)))
	run := w.CreateRun()
	res, _ := run.Start(context.Background(), num{N: 1}, nil)
	if !cmp.Equal(res.Suspended, [][]string{{"ps1"}, {"ps2"}}) || res.Steps["plain"].Status != StatusSuccess {
		t.Fatalf("parallel suspension: %+v", res.Suspended)
	}
	if _, err := run.Resume(context.Background(), ResumeOptions{Data: approval{OK: true}}); err == nil || !strings.Contains(err.Error(), "Multiple suspended steps found: [ps1], [ps2]") {
		t.Errorf("ambiguous resume: %v", err)
	}
	res, _ = run.Resume(context.Background(), ResumeOptions{Step: []string{"ps2"}, Data: approval{OK: true}})
	if res.Status != StatusSuspended || !cmp.Equal(res.Suspended, [][]string{{"ps1"}}) {
		t.Fatalf("after one: %s %v", res.Status, res.Suspended)
	}
	res, _ = run.Resume(context.Background(), ResumeOptions{Step: []string{"ps1"}, Data: approval{OK: false}})
	if res.Status != StatusSuccess || string(res.Result) != `{"ps1":{"n":-1},"ps2":{"n":1001},"plain":{"n":2}}` {
		t.Errorf("after both: %s %s", res.Status, res.Result)
	}

	var feRuns atomic.Int32
	toList := NewStep(StepConfig[num, []num]{ID: "list", Execute: func(_ StepContext, in num) ([]num, error) { return []num{{N: 1}, {N: 2}, {N: 3}}, nil }})
	fe := mustCommit(t, New(Config{ID: "fes"}).Then(toList).Foreach(gate("each", &feRuns), 3))
	run = fe.CreateRun()
	res, _ = run.Start(context.Background(), num{}, nil)
	if res.Status != StatusSuspended || !cmp.Equal(res.Suspended, [][]string{{"each"}}) {
		t.Fatalf("foreach suspension: %s %v", res.Status, res.Suspended)
	}
	one := 1
	res, _ = run.Resume(context.Background(), ResumeOptions{Step: []string{"each"}, ForEachIndex: &one, Data: approval{OK: true}})
	if res.Status != StatusSuspended || res.Steps["each"].Items[1].Status != StatusSuccess || res.Steps["each"].Items[0].Status != StatusSuspended {
		t.Fatalf("after item 1: %s", res.Status)
	}
	res, _ = run.Resume(context.Background(), ResumeOptions{Step: []string{"each"}, Data: approval{OK: true}})
	if res.Status != StatusSuccess || string(res.Result) != `[{"n":1001},{"n":1002},{"n":1003}]` || feRuns.Load() != 6 {
		t.Errorf("after all: %s %s, gate ran %d", res.Status, res.Result, feRuns.Load())
	}
}

func TestNestedWorkflows(t *testing.T) {
	var runs atomic.Int32
	inner := mustCommit(t, New(Config{ID: "inner", InputSchema: schema.MustFor[num](), OutputSchema: schema.MustFor[num]()}).Then(addStep("i1", 10)).Then(gate("deep", &runs)))
	outer := mustCommit(t, New(Config{ID: "outer"}).Then(addStep("o1", 1)).Then(inner.AsStep()).Then(addStep("o2", 1)))
	run := outer.CreateRun()
	res, _ := run.Start(context.Background(), num{N: 0}, nil)
	if res.Status != StatusSuspended || !cmp.Equal(res.Suspended, [][]string{{"inner", "deep"}}) {
		t.Fatalf("nested suspension: %s %v", res.Status, res.Suspended)
	}
	if _, err := run.Resume(context.Background(), ResumeOptions{Step: []string{"deep"}, Data: approval{OK: true}}); err == nil {
		t.Error("an inner step resumed without its workflow's path")
	}
	res, err := run.Resume(context.Background(), ResumeOptions{Step: []string{"inner", "deep"}, Data: approval{OK: true}})
	if err != nil || res.Status != StatusSuccess || string(res.Result) != `{"n":1012}` {
		t.Fatalf("nested resume: %v %s %s", err, res.Status, res.Result)
	}
}

func TestCancel(t *testing.T) {
	started := make(chan struct{})
	var sawCancel atomic.Bool
	wait := NewStep(StepConfig[num, num]{ID: "wait", Execute: func(ctx StepContext, in num) (num, error) {
		close(started)
		<-ctx.Done()
		sawCancel.Store(true)
		return in, nil
	}})
	var after atomic.Bool
	later := NewStep(StepConfig[num, num]{ID: "later", Execute: func(_ StepContext, in num) (num, error) { after.Store(true); return in, nil }})
	w := mustCommit(t, New(Config{ID: "cancel"}).Then(wait).Then(later))
	run := w.CreateRun()
	go func() {
		<-started
		run.Cancel()
	}()
	cs := chunks(t, run.Stream(context.Background(), num{}, nil))
	if got := types(cs); !strings.HasSuffix(got, "workflow-canceled workflow-finish") || run.Status() != StatusCanceled || !sawCancel.Load() || after.Load() {
		t.Errorf("canceled: %s, status %s", got, run.Status())
	}
}

func TestToolsAsSteps(t *testing.T) {
	type in struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type out struct {
		Sum int `json:"sum"`
	}
	var seen *tools.WorkflowInfo
	add := tools.New(tools.Config[in, out]{ID: "add", Execute: func(ctx tools.Context, v in) (out, error) {
		seen = ctx.Workflow()
		return out{Sum: v.A + v.B}, nil
	}})
	step, err := FromTool(add)
	if err != nil {
		t.Fatal(err)
	}
	w := mustCommit(t, New(Config{ID: "tool"}).Then(step))
	run := w.CreateRun()
	res, _ := run.Start(context.Background(), in{A: 2, B: 3}, nil)
	if string(res.Result) != `{"sum":5}` || step.ID() != "add" || seen == nil || seen.WorkflowID != "tool" || seen.RunID != run.ID() {
		t.Errorf("tool step: %s %+v", res.Result, seen)
	}
	noOut := tools.New(tools.Config[in, any]{ID: "x", OutputSchema: nil, Execute: func(tools.Context, in) (any, error) { return nil, nil }})
	if _, err := FromTool(noOut); err == nil || !strings.Contains(err.Error(), "Tool must have input and output schemas defined") {
		t.Errorf("a tool without an output schema: %v", err)
	}
}

func TestWriterAndSleep(t *testing.T) {
	writes := NewStep(StepConfig[num, num]{ID: "wr", Execute: func(ctx StepContext, in num) (num, error) {
		if err := ctx.Writer().Write(map[string]any{"pct": 50}); err != nil {
			return num{}, err
		}
		return in, ctx.Writer().Custom(tools.DataChunk{Type: "data-foo", Data: map[string]int{"x": 1}})
	}})
	w := mustCommit(t, New(Config{ID: "wr"}).Then(writes).Sleep(time.Millisecond).Then(addStep("after", 1)))
	run := w.CreateRun()
	cs := chunks(t, run.Stream(context.Background(), num{N: 1}, nil))
	var out stream.Chunk
	for _, c := range cs {
		if c.Type == stream.TypeWorkflowStepOutput {
			out = c
		}
	}
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `"from":"USER","payload":{"stepName":"wr","output":{"pct":50},"runId":"`+run.ID()+`"}`) || !strings.Contains(types(cs), "data-foo") {
		t.Errorf("writer chunks: %s / %s", b, types(cs))
	}
	if string(run.result().Result) != `{"n":2}` {
		t.Errorf("sleep passes its input on: %s", run.result().Result)
	}
}

func TestConcurrentRunsShareNothing(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "conc"}).Then(addStep("a", 1)).Parallel(addStep("b", 1), addStep("c", 2)))
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := w.CreateRun().Start(context.Background(), num{N: i}, nil)
			want := `{"b":{"n":` + itoa(i+2) + `},"c":{"n":` + itoa(i+3) + `}}`
			if err != nil || string(res.Result) != want {
				t.Errorf("run %d: %v %s", i, err, res.Result)
			}
		}()
	}
	wg.Wait()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
