package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/gomastra/mastra/schema"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gomastra/mastra/storage"
)

// The shapes below are Mastra 1.71's, as its server answered the mastra
// CLI (cmd/mastra/testdata/captured: workflow-run-start-runid,
// workflow-run-resume, workflow-run-list), for server-wf.mjs's approve-wf:
// double, then approve (suspends with {ask}, resumes with {approved}).

type askPayload struct {
	Ask string `json:"ask"`
}

type approvedIn struct {
	Approved bool `json:"approved"`
}

type approvedOut struct {
	N        int  `json:"n"`
	Approved bool `json:"approved"`
}

// approveWf is server-wf.mjs's approve-wf.
func approveWf(t *testing.T, store storage.Runs) *Workflow {
	approve := NewStep(StepConfig[num, approvedOut]{ID: "approve",
		SuspendSchema: schema.MustFor[askPayload](), ResumeSchema: schema.MustFor[approvedIn](),
		Execute: func(ctx StepContext, in num) (approvedOut, error) {
			if ctx.ResumeData() == nil {
				return approvedOut{}, ctx.Suspend(askPayload{Ask: "approve " + itoa(in.N) + "?"})
			}
			var a approvedIn
			if err := DecodeResumeData(ctx, &a); err != nil {
				return approvedOut{}, err
			}
			return approvedOut{N: in.N, Approved: a.Approved}, nil
		}})
	double := NewStep(StepConfig[num, num]{ID: "double", Execute: func(_ StepContext, in num) (num, error) { return num{N: in.N * 2}, nil }})
	return mustCommit(t, New(Config{ID: "approve-wf", Storage: store}).Then(double).Then(approve))
}

// times replaces the values of time keys (…At, timestamp) with 0.
var timesRE = regexp.MustCompile(`"([A-Za-z]*At|timestamp)":\d+`)

func zeroTimes(b []byte) string { return timesRE.ReplaceAllString(string(b), `"$1":0`) }

// TestResultsMatchMastra: a run's result leaves out the payload of a
// step that took the previous step's output (or the input), never shows
// a suspended step's resume schema, and a resumed step's record has the
// resume's payload and time in place of the suspension's.
func TestResultsMatchMastra(t *testing.T) {
	w := approveWf(t, nil)
	run := w.CreateRun(WithRunID("run-approve-1"))
	res, err := run.Start(context.Background(), num{N: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	want := `{"status":"suspended","steps":{"input":{"n":4},"double":{"startedAt":0,"status":"success","output":{"n":8},"endedAt":0},` +
		`"approve":{"startedAt":0,"status":"suspended","suspendPayload":{"ask":"approve 8?"},"suspendedAt":0}},` +
		`"input":{"n":4},"stepExecutionPath":["double","approve"],"suspended":[["approve"]],"suspendPayload":{"approve":{"ask":"approve 8?"}},"runId":"run-approve-1"}`
	if got := zeroTimes(b); got != want {
		t.Errorf("suspended result\n got  %s\n want %s", got, want)
	}
	// The snapshot keeps the resume schema (a workflow tool's suspension
	// carries it); the result does not show it.
	if res.Steps["approve"].ResumeSchema == "" {
		t.Error("the suspended step's record lost its resume schema")
	}
	res, err = run.Resume(context.Background(), ResumeOptions{Step: []string{"approve"}, Data: approvedIn{Approved: true}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	want = `{"status":"success","steps":{"input":{"n":4},"double":{"startedAt":0,"status":"success","output":{"n":8},"endedAt":0},` +
		`"approve":{"startedAt":0,"status":"success","resumePayload":{"approved":true},"resumedAt":0,"output":{"n":8,"approved":true},"endedAt":0}},` +
		`"input":{"n":4},"stepExecutionPath":["double","approve"],"result":{"n":8,"approved":true},"runId":"run-approve-1"}`
	if got := zeroTimes(b); got != want {
		t.Errorf("resumed result\n got  %s\n want %s", got, want)
	}
	// A payload that is not the previous output on the execution path
	// stays: here b's, the parallel node's object (a parallel node is not
	// on the path), and p1's (not on the path either).
	type pair struct {
		P1 num `json:"p1"`
	}
	b2 := NewStep(StepConfig[pair, num]{ID: "b", Execute: func(_ StepContext, in pair) (num, error) { return in.P1, nil }})
	par := mustCommit(t, New(Config{ID: "par"}).Then(addStep("a", 1)).Parallel(addStep("p1", 1)).Then(b2))
	b, _ = json.Marshal(start(t, par, num{N: 1}))
	if got := zeroTimes(b); !strings.Contains(got, `"a":{"startedAt":0,`) || !strings.Contains(got, `"p1":{"payload":{"n":2},`) ||
		!strings.Contains(got, `"b":{"payload":{"p1":{"n":3}},`) {
		t.Errorf("parallel result: %s", got)
	}
}

// TestSnapshotMatchesMastra: a suspended run's snapshot is Mastra's
// WorkflowRunState, key for key; a pending run's is Mastra's initial one.
func TestSnapshotMatchesMastra(t *testing.T) {
	w := approveWf(t, nil)
	run := w.CreateRun(WithRunID("run-approve-1"), WithResourceID("user-1"))
	pending, _ := json.Marshal(run.Snapshot())
	want := `{"runId":"run-approve-1","status":"pending","value":{},"context":{},"activePaths":[],"activeStepsPath":{},` +
		`"serializedStepGraph":[{"type":"step","step":{"id":"double","canSuspend":false}},{"type":"step","step":{"id":"approve","canSuspend":true}}],` +
		`"suspendedPaths":{},"resumeLabels":{},"waitingPaths":{},"timestamp":0}`
	if got := zeroTimes(pending); got != want {
		t.Errorf("pending snapshot\n got  %s\n want %s", got, want)
	}
	if _, err := run.Start(context.Background(), num{N: 4}, nil); err != nil {
		t.Fatal(err)
	}
	snap := run.Snapshot()
	if snap.Status != StatusSuspended || snap.ResourceID != "user-1" || snap.CreatedAt.IsZero() || snap.UpdatedAt.Before(snap.CreatedAt) {
		t.Errorf("snapshot %+v", snap)
	}
	b, _ := json.Marshal(snap)
	want = `{"runId":"run-approve-1","status":"suspended","value":{},"context":{"input":{"n":4},` +
		`"double":{"payload":{"n":4},"startedAt":0,"status":"success","output":{"n":8},"endedAt":0},` +
		`"approve":{"payload":{"n":8},"startedAt":0,"status":"suspended","suspendPayload":{"ask":"approve 8?"},"suspendedAt":0}},` +
		`"activePaths":[1],"stepExecutionPath":["double","approve"],"activeStepsPath":{},` +
		`"serializedStepGraph":[{"type":"step","step":{"id":"double","canSuspend":false}},{"type":"step","step":{"id":"approve","canSuspend":true}}],` +
		`"suspendedPaths":{"approve":[1]},"waitingPaths":{},"resumeLabels":{},"requestContext":{},"timestamp":0,"tracingContext":{}}`
	if got := zeroTimes(b); got != want {
		t.Errorf("suspended snapshot\n got  %s\n want %s", got, want)
	}
	if got := string(snap.StepsJSON()); !strings.HasPrefix(got, `{"double":{"payload":{"n":4},`) {
		t.Errorf("steps: %s", got)
	}
	if string(snap.Input()) != `{"n":4}` || string(snap.SuspendedPaths()) != `{"approve":[1]}` || snap.Result() != nil || snap.Error() != nil {
		t.Errorf("snapshot parts: input %s suspended %s", snap.Input(), snap.SuspendedPaths())
	}
	if _, err := run.Resume(context.Background(), ResumeOptions{Data: approvedIn{Approved: true}}); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(run.Snapshot())
	if got := zeroTimes(b); !strings.Contains(got, `"status":"success"`) || !strings.Contains(got, `"suspendedPaths":{},"waitingPaths":{},"resumeLabels":{},"result":{"n":8,"approved":true},"requestContext":{},"timestamp":0}`) ||
		!strings.Contains(got, `"approve":{"payload":{"n":8},"startedAt":0,"status":"success","resumePayload":{"approved":true},"resumedAt":0,"output":{"n":8,"approved":true},"endedAt":0}`) {
		t.Errorf("finished snapshot: %s", got)
	}
}

// TestStoredSnapshot: a run's snapshot read back from storage (another
// process's view) is the one the run shows, resource included.
func TestStoredSnapshot(t *testing.T) {
	store := storage.NewMemoryRuns()
	w := approveWf(t, store)
	run := w.CreateRun(WithRunID("r1"), WithResourceID("user-1"))
	if _, err := run.Start(context.Background(), num{N: 4}, nil); err != nil {
		t.Fatal(err)
	}
	stored, err := w.ListRuns(context.Background(), "")
	if err != nil || len(stored) != 1 || stored[0].ResourceID != "user-1" {
		t.Fatalf("stored runs: %v %+v", err, stored)
	}
	snap, err := w.StoredSnapshot(&stored[0])
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(snap)
	b, _ := json.Marshal(run.Snapshot())
	if zeroTimes(a) != zeroTimes(b) || snap.ResourceID != "user-1" {
		t.Errorf("stored snapshot\n %s\n run's\n %s", a, b)
	}
	loaded, err := w.LoadRun(context.Background(), "r1")
	if err != nil || loaded.ResourceID() != "user-1" {
		t.Errorf("loaded run: %v, resource %q", err, loaded.ResourceID())
	}
}

// TestSerializedStepGraph: every kind of node, as Mastra 1.71 serializes
// its step flow.
func TestSerializedStepGraph(t *testing.T) {
	inner := mustCommit(t, New(Config{ID: "inner", Description: "Inner one"}).Then(addStep("i1", 1)))
	truth := func(context.Context, ConditionInput) (bool, error) { return true, nil }
	w := New(Config{ID: "all"}).Then(addStep("a", 1)).Parallel(addStep("p1", 1), addStep("p2", 1)).
		Map(func(context.Context, MapInput) (any, error) { return num{}, nil }).
		Branch(When(truth, addStep("b1", 1))).
		Map(func(context.Context, MapInput) (any, error) { return num{}, nil }).
		DoUntil(addStep("loop", 1), truth).
		Map(func(context.Context, MapInput) (any, error) { return []num{}, nil }).
		Foreach(addStep("each", 1), 3).Sleep(1500 * time.Millisecond).Then(inner.AsStep()).Then(gate("g", nil))
	mustCommit(t, w)
	want := `[{"type":"step","step":{"id":"a","canSuspend":false}},` +
		`{"type":"parallel","steps":[{"type":"step","step":{"id":"p1","canSuspend":false}},{"type":"step","step":{"id":"p2","canSuspend":false}}]},` +
		`{"type":"mapping","id":"mapping_all_0","mapConfig":""},` +
		`{"type":"conditional","steps":[{"type":"step","step":{"id":"b1","canSuspend":false}}],"serializedConditions":[{"id":"b1-condition","fn":""}]},` +
		`{"type":"mapping","id":"mapping_all_1","mapConfig":""},` +
		`{"type":"loop","step":{"type":"step","step":{"id":"loop","canSuspend":false}},"serializedCondition":{"id":"loop-condition","fn":""},"loopType":"dountil"},` +
		`{"type":"mapping","id":"mapping_all_2","mapConfig":""},` +
		`{"type":"foreach","step":{"type":"step","step":{"id":"each","canSuspend":false}},"opts":{"concurrency":3}},` +
		`{"type":"sleep","id":"sleep_8","duration":1500},` +
		`{"type":"workflow","id":"inner","workflowId":"inner","description":"Inner one","serializedStepFlow":[{"type":"step","step":{"id":"i1","canSuspend":false}}]},` +
		`{"type":"step","step":{"id":"g","canSuspend":true}}]`
	if got := string(w.SerializedStepGraph()); got != want {
		t.Errorf("graph\n got  %s\n want %s", got, want)
	}
}

// TestAbsentInput: a start without input is checked as JavaScript's
// undefined against the workflow's input schema (its first step's when
// it has none), with Mastra's text; a JSON null is null.
func TestAbsentInput(t *testing.T) {
	w := mustCommit(t, New(Config{ID: "double-wf"}).Then(addStep("double", 0)))
	for _, c := range []struct {
		input any
		want  string
	}{
		{nil, "Invalid input data: \n- : Invalid input: expected object, received undefined"},
		{json.RawMessage("null"), "Invalid input data: \n- : Invalid input: expected object, received null"},
		{map[string]any{"n": "x"}, "Invalid input data: \n- n: Invalid input: expected number, received string"},
	} {
		_, err := w.CreateRun().Start(context.Background(), c.input, nil)
		var we *Error
		if !errors.As(err, &we) || we.ID != "WORKFLOW_SCHEMA_VALIDATION_FAILED" || we.Message != c.want {
			t.Errorf("input %v: %v, want %q", c.input, err, c.want)
		}
	}
	// A workflow whose first node is a mapping takes anything.
	free := mustCommit(t, New(Config{ID: "free"}).Map(func(context.Context, MapInput) (any, error) { return num{N: 1}, nil }).Then(addStep("a", 1)))
	if res, err := free.CreateRun().Start(context.Background(), nil, nil); err != nil || res.Status != StatusSuccess {
		t.Errorf("no input to a mapping: %v %+v", err, res)
	}
}

// TestCancelSuspendedRun: canceling a suspended run ends it (canceled,
// and stored so), so it can no longer be resumed; canceling a run that
// has ended changes nothing, marking it canceled does.
func TestCancelSuspendedRun(t *testing.T) {
	store := storage.NewMemoryRuns()
	w := approveWf(t, store)
	run := w.CreateRun()
	if _, err := run.Start(context.Background(), num{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	loaded, err := w.LoadRun(context.Background(), run.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.CancelContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if loaded.Status() != StatusCanceled {
		t.Errorf("status %s", loaded.Status())
	}
	if stored, err := w.LoadRun(context.Background(), run.ID()); err != nil || stored.Status() != StatusCanceled {
		t.Errorf("the canceled run as stored: %v", err)
	}
	_, err = loaded.Resume(context.Background(), ResumeOptions{Data: approvedIn{Approved: true}})
	var we *Error
	if !errors.As(err, &we) || we.ID != "WORKFLOW_RESUME_NOT_SUSPENDED" || we.Message != "This workflow run was not suspended" {
		t.Errorf("resuming a canceled run: %v", err)
	}
	done := w.CreateRun()
	if _, err := done.Start(context.Background(), num{N: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := done.Resume(context.Background(), ResumeOptions{Data: approvedIn{Approved: false}}); err != nil {
		t.Fatal(err)
	}
	done.Cancel()
	if done.Status() != StatusSuccess {
		t.Errorf("canceling a finished run: %s", done.Status())
	}
	if err := done.MarkCanceled(context.Background()); err != nil || done.Status() != StatusCanceled {
		t.Errorf("marking a finished run canceled: %v %s", err, done.Status())
	}
	if stored, err := w.LoadRun(context.Background(), done.ID()); err != nil || stored.Status() != StatusCanceled || stored.Snapshot().Result() == nil {
		t.Errorf("the finished run marked canceled, as stored: %v", err)
	}
}

// TestResumeErrorsMatchMastra: Mastra's texts for an ambiguous resume
// and a step that is not suspended.
func TestResumeErrorsMatchMastra(t *testing.T) {
	paths := [][]string{{"a"}, {"nested", "inner"}}
	if got := listPaths(paths); got != "[a], [nested, inner]" {
		t.Errorf("listPaths: %s", got)
	}
	if got := strings.Join(suspendedIDs(append(paths, []string{"a"})), ", "); got != "a, nested" {
		t.Errorf("suspendedIDs: %s", got)
	}
}
