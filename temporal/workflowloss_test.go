package temporal_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/gomastra/mastra/internal/crashtest"
	"github.com/gomastra/mastra/storage/sqlite"
	"github.com/gomastra/mastra/stream"
	"github.com/gomastra/mastra/temporal"
	"github.com/gomastra/mastra/workflows"
)

// The workflow worker-loss tests: as TestWorkerLoss, for gomastra
// workflow runs. Worker A is killed inside a step, or while the run is
// suspended; worker B finishes the run. A step that had completed never
// runs again, and the stream the caller reads (Run.Stream of the
// launched run, across the kill) ends as the run does.

type tally struct {
	N int `json:"n"`
}

type goOn struct {
	By int `json:"by"`
}

// lossWorkflows are the workflows of the worker-loss tests on store:
// "pipeline" runs one, two, three; "asking" runs one, ask (which
// suspends until resumed with goOn), three. Each step logs its end;
// stall stalls the worker in the step named "step:<id>".
func lossWorkflows(t testing.TB, store *sqlite.Store, stall func(string), log string) map[string]*workflows.Workflow {
	step := func(id string, k int) *workflows.Step {
		return workflows.NewStep(workflows.StepConfig[tally, tally]{ID: id, Execute: func(ctx workflows.StepContext, in tally) (tally, error) {
			stall("step:" + id)
			crashtest.LogLine(log, "step:"+id)
			return tally{N: in.N + k}, nil
		}})
	}
	ask := workflows.NewStep(workflows.StepConfig[tally, tally]{ID: "ask", ResumeSchema: workflows.MustSchemaFor[goOn](),
		Execute: func(ctx workflows.StepContext, in tally) (tally, error) {
			crashtest.LogLine(log, "step:ask")
			var g goOn
			if data := ctx.ResumeData(); data != nil {
				err := json.Unmarshal(data, &g)
				return tally{N: in.N + g.By}, err
			}
			return tally{}, ctx.Suspend(nil)
		}})
	pipeline := workflows.New(workflows.Config{ID: "pipeline", Storage: store}).Then(step("one", 1)).Then(step("two", 10)).Then(step("three", 100))
	asking := workflows.New(workflows.Config{ID: "asking", Storage: store}).Then(step("one", 1)).Then(ask).Then(step("three", 100))
	for _, w := range []*workflows.Workflow{pipeline, asking} {
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]*workflows.Workflow{"pipeline": pipeline, "asking": asking}
}

func TestWorkflowWorkerLoss(t *testing.T) {
	cases := []struct {
		name, workflow, stall string
		want                  map[string]int // executions by step
		result                string
	}{
		{"mid step", "pipeline", "step:two", map[string]int{"step:one": 1, "step:two": 1, "step:three": 1}, `{"n":111}`},
		{"while suspended", "asking", "", map[string]int{"step:one": 1, "step:ask": 2, "step:three": 1}, `{"n":106}`},
	}
	ts := newServer(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			env := workerEnv{HostPort: ts.GetFrontendHostPort(), Namespace: ts.GetDefaultNamespace(), Queue: "wfloss-" + filepath.Base(dir),
				DB: filepath.Join(dir, "mastra.db"), Log: filepath.Join(dir, "exec.log"), Stall: tc.stall}
			store, err := sqlite.Open(context.Background(), env.DB)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			reg := lossRegistry(t, store, workerEnv{}) // the caller's: its steps never run here
			if err := temporal.NewClient(ts.GetDefaultClient(), env.Queue, reg).UseLaunchers(); err != nil {
				t.Fatal(err)
			}
			wf, _ := reg.GetWorkflow(tc.workflow)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()

			a := workerHarness.Start(t, env)
			a.Await(t, "READY")
			run := wf.CreateRun()
			read := make(chan []stream.Chunk, 1)
			go func() { read <- collectRun(ctx, t, run.Stream(ctx, tally{N: 0}, nil)) }()
			var chunks []stream.Chunk
			if tc.stall != "" {
				a.Await(t, "STALL")
			} else {
				chunks = <-read
			}
			b := workerHarness.Start(t, env)
			b.Await(t, "READY")
			a.Kill(t)
			if tc.stall != "" {
				chunks = <-read
			} else {
				if run.Status() != workflows.StatusSuspended {
					t.Fatalf("status %s before the kill, want suspended", run.Status())
				}
				loaded, err := wf.LoadRun(ctx, run.ID())
				if err != nil {
					t.Fatal(err)
				}
				chunks = append(chunks, collectRun(ctx, t, loaded.ResumeStream(ctx, workflows.ResumeOptions{Data: goOn{By: 5}}))...)
				run = loaded
			}
			res := run.Result()
			if res.Status != workflows.StatusSuccess || string(res.Result) != tc.result {
				t.Fatalf("run %s %s (error %v), want success %s", res.Status, res.Result, res.Error, tc.result)
			}
			checkExecutions(t, crashtest.LogLines(t, env.Log), tc.want)
			checkWorkflowRead(t, chunks, wf, run.ID())
		})
	}
}

func collectRun(ctx context.Context, t *testing.T, chunks func(func(stream.Chunk, error) bool)) []stream.Chunk {
	var got []stream.Chunk
	for c, err := range chunks {
		if err != nil {
			t.Errorf("stream: %v", err)
			return got
		}
		got = append(got, c)
	}
	return got
}

// checkWorkflowRead checks that the caller read the run's whole log, in
// order, and that it holds each step's chunks once: nothing lost, nothing
// written twice by the worker that took a node over.
func checkWorkflowRead(t *testing.T, read []stream.Chunk, wf *workflows.Workflow, runID string) {
	t.Helper()
	run, err := wf.LoadRun(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	var all []stream.Chunk
	for c, err := range run.ObserveStream(context.Background(), 0) {
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, c)
	}
	if len(read) != len(all) {
		t.Fatalf("the caller read %d chunks, the log holds %d", len(read), len(all))
	}
	// Each step's chunks once (a suspended step's start and suspension,
	// then its resumed start and result), nothing twice from the node the
	// lost worker was running.
	seen := map[string]int{}
	for i, c := range read {
		if c.Type != all[i].Type {
			t.Fatalf("chunk %d: read %s, the log holds %s", i, c.Type, all[i].Type)
		}
		p, _ := json.Marshal(c.Payload)
		var r struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(p, &r)
		seen[c.Type+" "+r.ID]++
	}
	for k, n := range seen {
		want := 1
		if k == stream.TypeWorkflowStart+" " || k == stream.TypeWorkflowFinish+" " || k == stream.TypeWorkflowStepStart+" ask" {
			want = int(seen[stream.TypeWorkflowStart+" "]) // once per execution: the start, and the resume
		}
		if n != want {
			t.Errorf("%q read %d times, want %d (all: %v)", k, n, want, seen)
		}
	}
	if seen[stream.TypeWorkflowStepResult+" three"] != 1 {
		t.Errorf("the last step's result was not read: %v", seen)
	}
	if last := read[len(read)-1]; last.Type != stream.TypeWorkflowFinish {
		t.Errorf("the stream ends with %s", last.Type)
	}
}
