package workflows_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
	"github.com/gomastra/mastra/workflows"
)

// driver is a Launcher that runs launched runs the way an engine of
// workers does, in goroutines of this process: each run loaded afresh
// from storage for each Advance, sleeps slept here, a suspended run
// waiting for Continue.
type driver struct {
	w         *workflows.Workflow
	mu        sync.Mutex
	continues map[string]chan struct{}
	advances  int
	sleeps    []time.Duration
	// ended is signalled each time a run's drive ends.
	ended chan struct{}
}

func newDriver(w *workflows.Workflow) *driver {
	return &driver{w: w, continues: map[string]chan struct{}{}, ended: make(chan struct{}, 16)}
}

func (d *driver) continued(runID string) chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.continues[runID] == nil {
		d.continues[runID] = make(chan struct{}, 1)
	}
	return d.continues[runID]
}

func (d *driver) Launch(_ context.Context, runID string) error {
	go d.drive(runID)
	return nil
}

func (d *driver) Continue(_ context.Context, runID string) error {
	d.continued(runID) <- struct{}{}
	return nil
}

func (d *driver) Cancel(context.Context, string) (bool, error) { return false, nil }

func (d *driver) drive(runID string) {
	defer func() { d.ended <- struct{}{} }()
	ctx := context.Background()
	opts := workflows.AdvanceOptions{First: true}
	for {
		run, err := d.w.LoadRun(ctx, runID)
		if err != nil {
			panic(err)
		}
		p, err := run.Advance(ctx, opts)
		if err != nil {
			panic(err)
		}
		d.mu.Lock()
		d.advances++
		if p.Sleep > 0 {
			d.sleeps = append(d.sleeps, p.Sleep)
		}
		d.mu.Unlock()
		opts = workflows.AdvanceOptions{LogFrom: p.LogNext}
		switch p.Status {
		case workflows.StatusRunning:
			if p.Sleep > 0 {
				time.Sleep(p.Sleep)
				opts.Slept = true
			}
		case workflows.StatusSuspended:
			<-d.continued(runID)
			opts.First = true
		default:
			return
		}
	}
}

type count struct {
	N int `json:"n"`
}

func addOne(runs *int) *workflows.Step {
	return workflows.NewStep(workflows.StepConfig[count, count]{ID: "add", Execute: func(_ workflows.StepContext, in count) (count, error) {
		*runs++
		return count{N: in.N + 1}, nil
	}})
}

// A launched run goes a node per Advance; its launcher sleeps its sleep
// nodes; the stream the caller reads is the one of a run in process.
func TestAdvanceRunsANodeAtATime(t *testing.T) {
	ctx := context.Background()
	var adds, askRuns int
	ask := workflows.NewStep(workflows.StepConfig[count, count]{ID: "ask", ResumeSchema: workflows.MustSchemaFor[count](),
		Execute: func(ctx workflows.StepContext, in count) (count, error) {
			askRuns++
			if data := ctx.ResumeData(); data != nil {
				var c count
				err := json.Unmarshal(data, &c)
				return count{N: in.N + c.N}, err
			}
			return count{}, ctx.Suspend(nil)
		}})
	build := func(store storage.Runs, events storage.RunEvents) *workflows.Workflow {
		w := workflows.New(workflows.Config{ID: "launched", Storage: store, Events: events}).Then(addOne(&adds)).Sleep(20 * time.Millisecond).Then(ask)
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	local := build(storage.NewMemoryRuns(), nil)
	launched := build(storage.NewMemoryRuns(), storage.NewMemoryEvents())
	d := newDriver(launched)
	if err := launched.UseLauncher(d); err != nil {
		t.Fatal(err)
	}
	streamTypes := func(w *workflows.Workflow) ([]string, []string, *workflows.Result) {
		run := w.CreateRun(workflows.WithRunID("r1"))
		var first, second []string
		for c, err := range run.Stream(ctx, count{N: 1}, nil) {
			if err != nil {
				t.Fatal(err)
			}
			first = append(first, c.Type)
		}
		for c, err := range run.ResumeStream(ctx, workflows.ResumeOptions{Data: count{N: 10}}) {
			if err != nil {
				t.Fatal(err)
			}
			second = append(second, c.Type)
		}
		return first, second, run.Result()
	}
	lf, ls, lres := streamTypes(local)
	f, s, res := streamTypes(launched)
	if res.Status != workflows.StatusSuccess || string(res.Result) != string(lres.Result) {
		t.Fatalf("launched run: %s %s, in process: %s %s", res.Status, res.Result, lres.Status, lres.Result)
	}
	if !equal(f, lf) || !equal(s, ls) {
		t.Errorf("launched chunks %v then %v, in process %v then %v", f, s, lf, ls)
	}
	// add, sleep (paused before), sleep (slept), ask (suspends), ask.
	<-d.ended
	d.mu.Lock()
	defer d.mu.Unlock()
	if adds != 2 || askRuns != 4 {
		t.Errorf("add ran %d times, ask %d, want 2 and 4 (once each per run, ask again on resume)", adds, askRuns)
	}
	if d.advances != 5 || len(d.sleeps) != 1 || d.sleeps[0] != 20*time.Millisecond {
		t.Errorf("%d advances, sleeps %v; want 5 and one of 20ms", d.advances, d.sleeps)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A launched workflow needs storage and an event log other processes
// reach: without them UseLauncher refuses, and the runs stay here.
func TestUseLauncherNeedsSharedStorage(t *testing.T) {
	var adds int
	for _, cfg := range []workflows.Config{{ID: "bare"}, {ID: "no-log", Storage: storage.NewMemoryRuns()}} {
		w := workflows.New(cfg).Then(addOne(&adds))
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		err := w.UseLauncher(newDriver(w))
		if err == nil || !strings.Contains(err.Error(), "Config.Storage") {
			t.Errorf("%s: UseLauncher: %v, want a refusal naming Config.Storage", cfg.ID, err)
		}
		if w.Launched() {
			t.Errorf("%s: launched after a refusal", cfg.ID)
		}
	}
}

// Advance leaves a run that is not running as it is: an Advance repeated
// after its first try got the run suspended runs nothing.
func TestAdvanceLeavesASuspendedRun(t *testing.T) {
	ctx := context.Background()
	runs := 0
	ask := workflows.NewStep(workflows.StepConfig[count, count]{ID: "ask", ResumeSchema: workflows.MustSchemaFor[count](),
		Execute: func(ctx workflows.StepContext, in count) (count, error) {
			runs++
			return count{}, ctx.Suspend(nil)
		}})
	w := workflows.New(workflows.Config{ID: "held", Storage: storage.NewMemoryRuns(), Events: storage.NewMemoryEvents()}).Then(ask)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := w.UseLauncher(newDriver(w)); err != nil {
		t.Fatal(err)
	}
	run := w.CreateRun()
	if _, err := run.Start(ctx, count{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	loaded, err := w.LoadRun(ctx, run.ID())
	if err != nil {
		t.Fatal(err)
	}
	p, err := loaded.Advance(ctx, workflows.AdvanceOptions{First: true})
	if err != nil || p.Status != workflows.StatusSuspended || runs != 1 {
		t.Errorf("Advance of a suspended run: %+v, %v, the step ran %d times; want suspended, once", p, err, runs)
	}
}

// forgetful is a driver that loses the outcome of a run's first Advance,
// as an engine does whose worker died after the node was saved but
// before the engine heard of it: it makes that Advance again, with the
// same options, and goes on from there.
type forgetful struct{ *driver }

func (f forgetful) Launch(ctx context.Context, runID string) error {
	go func() {
		run, err := f.w.LoadRun(ctx, runID)
		if err != nil {
			panic(err)
		}
		if _, err := run.Advance(ctx, workflows.AdvanceOptions{First: true}); err != nil {
			panic(err)
		}
		f.drive(runID) // the same first Advance again, then on
	}()
	return nil
}

// An Advance made again after the node it ran was saved runs the next
// node; its chunks, and the first try's, are each in the log once.
func TestAdvanceRepeatedAfterItsNodeWasSaved(t *testing.T) {
	ctx := context.Background()
	var adds int
	build := func(store storage.Runs, events storage.RunEvents, id string) *workflows.Workflow {
		w := workflows.New(workflows.Config{ID: id, Storage: store, Events: events}).
			Then(addOne(&adds)).Then(workflows.NewStep(workflows.StepConfig[count, count]{ID: "double",
			Execute: func(_ workflows.StepContext, in count) (count, error) { return count{N: 2 * in.N}, nil }}))
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	types := func(w *workflows.Workflow) ([]string, *workflows.Result) {
		run := w.CreateRun()
		var got []string
		for c, err := range run.Stream(ctx, count{N: 1}, nil) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, c.Type)
		}
		return got, run.Result()
	}
	want, _ := types(build(storage.NewMemoryRuns(), nil, "here"))
	launched := build(storage.NewMemoryRuns(), storage.NewMemoryEvents(), "there")
	if err := launched.UseLauncher(forgetful{newDriver(launched)}); err != nil {
		t.Fatal(err)
	}
	got, res := types(launched)
	if res.Status != workflows.StatusSuccess || string(res.Result) != `{"n":4}` || adds != 2 {
		t.Fatalf("%s %s, add ran %d times (want success {\"n\":4}, once per run)", res.Status, res.Result, adds)
	}
	if !equal(got, want) {
		t.Errorf("chunks %v, want %v", got, want)
	}
}
