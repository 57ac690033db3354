package workflows

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// TestMain checks every write of every run of the package's tests (but
// not of its benchmarks, which it would slow down): what is stored, a
// snapshot and the changes appended since, must fold back into the state
// the run saved (see checkFold).
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		checkSaved = checkFold
	}
	code := m.Run()
	folds.Lock()
	for _, f := range folds.failures {
		fmt.Fprintln(os.Stderr, "FAIL: a saved run does not fold back:", f)
		code = 1
	}
	folds.Unlock()
	os.Exit(code)
}

// folds counts the writes checkFold checked, those whose run had changes
// appended, and its failures.
var folds struct {
	sync.Mutex
	checked, withDeltas int
	failures            []string
}

// checkFold reads run r back from its store and checks that its snapshot
// with its deltas folded is want, the state r wrote (both as decoding
// their JSON gives them). A run written again since (taken over) or
// deleted is not checked.
func checkFold(r *Run, want json.RawMessage) {
	stored, err := r.wf.store().GetRun(context.Background(), r.id)
	if err != nil || stored.Version != r.journal.runs.Version() {
		return
	}
	got, err := decodeRun(stored.Snapshot, stored.Deltas)
	folds.Lock()
	defer folds.Unlock()
	folds.checked++
	if len(stored.Deltas) > 0 {
		folds.withDeltas++
	}
	if err != nil {
		folds.failures = append(folds.failures, fmt.Sprintf("run %s: %v", r.id, err))
		return
	}
	if a, b := canonical(got), canonical(decodeOrNil(want)); a != b {
		folds.failures = append(folds.failures, fmt.Sprintf("run %s version %d:\n folded %s\n saved  %s", r.id, stored.Version, a, b))
	}
}

func decodeOrNil(raw json.RawMessage) *runState {
	s, _ := decodeRun(raw, nil)
	return s
}

// canonical is s's JSON as a snapshot holds it, decoded and encoded again.
func canonical(s *runState) string {
	raw, _ := json.Marshal(s)
	again, err := decodeRun(raw, nil)
	if err != nil {
		return "undecodable: " + err.Error()
	}
	raw, _ = json.Marshal(again)
	return string(raw)
}

// recordingRuns records the writes a workflow makes: "save" (a whole
// snapshot), "append" (a delta) and "delete", with their bytes.
type recordingRuns struct {
	storage.Runs
	mu     sync.Mutex
	ops    []string
	deltas []string
}

func (s *recordingRuns) SaveRun(ctx context.Context, r storage.Run) (int64, error) {
	s.note("save", "")
	return s.Runs.SaveRun(ctx, r)
}

func (s *recordingRuns) AppendRun(ctx context.Context, runID string, version int64, status string, delta json.RawMessage) (int64, error) {
	s.note("append", string(delta))
	return s.Runs.AppendRun(ctx, runID, version, status, delta)
}

func (s *recordingRuns) DeleteRun(ctx context.Context, runID string) error {
	s.note("delete", "")
	return s.Runs.DeleteRun(ctx, runID)
}

func (s *recordingRuns) note(op, delta string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops = append(s.ops, op)
	if op == "append" {
		s.deltas = append(s.deltas, delta)
	}
}

// take returns the writes recorded since the last take.
func (s *recordingRuns) take() (ops, deltas []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ops, deltas = s.ops, s.deltas
	s.ops, s.deltas = nil, nil
	return ops, deltas
}

// TestSavesAppendWhatChanged: a durable run is saved whole once, when it
// starts; each step then appends its change, whose size does not grow
// with the run; the finished run appends its end (it is kept).
func TestSavesAppendWhatChanged(t *testing.T) {
	largest := map[int]int{}
	for _, n := range []int{5, 50} {
		store := &recordingRuns{Runs: storage.NewMemoryRuns()}
		w := New(Config{ID: "seq", Storage: store})
		for i := range n {
			w.Then(addStep(fmt.Sprintf("s%03d", i), 1))
		}
		mustCommit(t, w)
		if res := start(t, w, num{N: 1000}); res.Status != StatusSuccess {
			t.Fatalf("n=%d: %+v", n, res)
		}
		ops, deltas := store.take()
		want := "save" + strings.Repeat(" append", n+1)
		if got := strings.Join(ops, " "); got != want {
			t.Errorf("n=%d: writes %s, want %s", n, got, want)
		}
		for _, d := range deltas {
			largest[n] = max(largest[n], len(d))
		}
		t.Logf("n=%d: the last delta: %s", n, deltas[len(deltas)-1])
	}
	// A longer run's deltas differ by the digits of its positions.
	if largest[50] > largest[5]+2 {
		t.Errorf("the largest delta of a 50-step run is %d bytes, of a 5-step one %d", largest[50], largest[5])
	}
}

// TestSavedChangesFoldBack runs a workflow with every kind of node,
// suspending in a parallel node and in a foreach, and resumes it step
// by step, with storage and without: after each suspension the run
// loaded from storage (its snapshot and changes folded) has the state the
// run has, and every write folds back (checkFold). A foreach resumed at
// one iteration appends that iteration's change and its own fields.
func TestSavedChangesFoldBack(t *testing.T) {
	for _, durable := range []bool{true, false} {
		t.Run(fmt.Sprintf("durable=%v", durable), func(t *testing.T) {
			store := &recordingRuns{Runs: storage.NewMemoryRuns()}
			cfg := Config{ID: "every"}
			if durable {
				cfg.Storage = store
			}
			w := everyNodeWorkflow(t, cfg)
			folds.Lock()
			before := folds.withDeltas
			folds.Unlock()
			run := w.CreateRun()
			res, err := run.Start(context.Background(), num{N: 1}, map[string]int{"c": 0})
			checkSuspended(t, w, run, res, err, "pa")
			res, err = run.Resume(context.Background(), ResumeOptions{Step: []string{"pa"}, Data: approval{OK: true}})
			checkSuspended(t, w, run, res, err, "each")
			store.take()
			one := 1
			res, err = run.Resume(context.Background(), ResumeOptions{Step: []string{"each"}, ForEachIndex: &one, Data: approval{OK: true}})
			checkSuspended(t, w, run, res, err, "each")
			if _, deltas := store.take(); durable && (len(deltas) != 1 || !strings.Contains(deltas[0], `"keepItems":true`) || !strings.Contains(deltas[0], `"item":{"key":"each","index":1,`)) {
				t.Errorf("the foreach resumed at one iteration appended %s", deltas)
			}
			res, err = run.Resume(context.Background(), ResumeOptions{Step: []string{"each"}, Data: approval{OK: true}})
			if err != nil || res.Status != StatusSuccess || string(res.Result) != `{"yes":{"n":1}}` || string(res.State) != `{"c":2}` {
				t.Fatalf("the run's end: %v %+v", err, res)
			}
			if kept, err := w.LoadRun(context.Background(), run.ID()); err != nil || kept.Status() != StatusSuccess || string(kept.Result().Result) != `{"yes":{"n":1}}` {
				t.Errorf("the finished run as stored: %v", err)
			}
			folds.Lock()
			defer folds.Unlock()
			if folds.withDeltas == before {
				t.Error("no write with changes appended was checked")
			}
		})
	}
}

// everyNodeWorkflow is: a step that sets the state, a mapping, a loop,
// a parallel node with a gate (pa), a mapping, a list, a foreach of gates
// (each), a sleep, a step that sets the state and a branch.
func everyNodeWorkflow(t *testing.T, cfg Config) *Workflow {
	var runs atomic.Int32
	bump := func(id string) *Step {
		return NewStep(StepConfig[num, num]{ID: id, Execute: func(ctx StepContext, in num) (num, error) {
			st, err := StateAs[map[string]int](ctx)
			if err != nil {
				return num{}, err
			}
			return in, ctx.SetState(map[string]int{"c": st["c"] + 1})
		}})
	}
	toNum := func(n int) func(context.Context, MapInput) (any, error) {
		return func(context.Context, MapInput) (any, error) { return num{N: n}, nil }
	}
	below4 := func(_ context.Context, c ConditionInput) (bool, error) {
		var v num
		_ = json.Unmarshal(c.Output, &v)
		return v.N < 4, nil
	}
	toList := NewStep(StepConfig[num, []num]{ID: "list", Execute: func(_ StepContext, in num) ([]num, error) { return []num{{N: 1}, {N: 2}, {N: 3}}, nil }})
	always := func(want bool) Condition {
		return func(context.Context, ConditionInput) (bool, error) { return want, nil }
	}
	return mustCommit(t, New(cfg).Then(bump("b1")).Map(toNum(2)).DoWhile(addStep("loop", 1), below4).
		Parallel(gate("pa", &runs), addStep("pb", 1)).Map(toNum(3)).Then(toList).Foreach(gate("each", &runs), 2).
		Sleep(time.Millisecond).Map(toNum(0)).Then(bump("b2")).
		Branch(When(always(true), addStep("yes", 1)), When(always(false), addStep("no", 1))))
}

// checkSuspended checks that the run suspended at step and that the run
// loaded from storage has its state.
func checkSuspended(t *testing.T, w *Workflow, run *Run, res *Result, err error, step string) {
	t.Helper()
	if err != nil || res.Status != StatusSuspended || len(res.Suspended) == 0 || res.Suspended[0][0] != step {
		t.Fatalf("want suspended at %s: %v %+v", step, err, res)
	}
	loaded, err := w.LoadRun(context.Background(), run.ID())
	if err != nil {
		t.Fatal(err)
	}
	run.mu.Lock()
	want := canonical(run.state)
	run.mu.Unlock()
	if got := canonical(loaded.state); got != want {
		t.Errorf("loaded\n %s\nrun's\n %s", got, want)
	}
}
